import { randomInt, randomBytes, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { sessionCommandSubject, WaSubjects, type SandboxOutboxItem, type WaInboundMessage, type WaOutboundSend } from '@wa/contracts';
import { MediaStorage } from '@wa/server-kit';
import { request } from '@wa/event-bus';
import { mediaForm, mp3File, pdfFile, pngFile, waitFor } from '@wa/testing';
import { createConnection, lastOn, sessionsSuite, storedOn, tokenFor, type SessionsUnderTest } from './harness.js';

let next = 0;
let svc: SessionsUnderTest;
const { companies, created } = sessionsSuite(6, (s) => (svc = s));

async function sandboxConnection() {
  const companyId = companies[next++]!;
  const token = tokenFor(companyId);
  const c = await createConnection(svc, token, { name: 'Sandbox mídia' });
  created.push({ id: c.id, token });
  await waitFor(async () => (await svc.http.get(`/whatsapp/${c.id}`, { token })).body.status === 'CONNECTED');
  return { companyId, token, id: c.id };
}

const phone = () => `55119${String(randomInt(10_000_000, 99_999_999))}`;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('sandbox media (a phone sending and receiving files)', () => {
  it('receives a photo with its caption and a document as a phone sends them: each file stored before its message is published', async () => {
    const c = await sandboxConnection();
    const from = phone();
    const photo = pngFile({ size: 32, rgb: [200, 10, 10] });
    const res = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token: c.token,
      form: mediaForm([{ field: 'media', name: 'IMG-2026.png', data: photo, type: 'image/png' }], {
        from,
        name: 'Maria',
        body: 'olha a peça',
      }),
    });
    expect(res.status).toBe(202);
    const subject = WaSubjects.inbound(c.companyId, c.id, from);
    const stored = await lastOn<WaInboundMessage>(svc.jsm, subject);
    expect(stored.data).toMatchObject({
      waMessageId: res.body.id,
      from,
      body: 'olha a peça',
      mediaType: 'image',
      media: { key: `${c.companyId}/in-${c.id}-${res.body.id}/${res.body.id}.png`, mimetype: 'image/png', size: photo.length },
    });
    const storage = svc.app.get(MediaStorage);
    expect((await readAll((await storage.get(stored.data.media!.key))!.stream)).equals(photo)).toBe(true);

    const doc = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token: c.token,
      form: mediaForm([{ field: 'media', name: 'Nota Fiscal.pdf', data: pdfFile('NF 123') }], { from, id: 'DOC1' }),
    });
    expect(doc.status).toBe(202);
    const docEvent = await lastOn<WaInboundMessage>(svc.jsm, subject);
    expect(docEvent.data).toMatchObject({
      waMessageId: 'DOC1',
      mediaType: 'application',
      body: 'Nota_Fiscal.pdf',
      media: { fileName: 'Nota_Fiscal.pdf', mimetype: 'application/pdf' },
    });

    // replaying the same message stores nothing new
    const replay = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token: c.token,
      form: mediaForm([{ field: 'media', name: 'Nota Fiscal.pdf', data: pdfFile('NF 123') }], { from, id: 'DOC1' }),
    });
    expect(replay.status).toBe(202);
    expect(await storedOn(svc.jsm, subject)).toBe(2);
  });

  it('refuses a file whose bytes are not what it claims, and a text message without text', async () => {
    const c = await sandboxConnection();
    const from = phone();
    const fake = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token: c.token,
      form: mediaForm([{ field: 'media', name: 'foto.jpg', data: mp3File(), type: 'image/jpeg' }], { from }),
    });
    expect(fake.status).toBe(400);
    expect(fake.body.error).toBe('ERR_VALIDATION');
    const blank = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token: c.token, body: { from, body: ' ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.details).toEqual([{ field: 'body', messages: ['Required'] }]);
    expect(await storedOn(svc.jsm, WaSubjects.inbound(c.companyId, c.id, from))).toBe(0);
  });

  it('sends a file tickets stored: the phone receives its bytes (outbox: type, name, size, SHA-256) with the caption', async () => {
    const c = await sandboxConnection();
    const to = phone();
    const photo = pngFile({ size: 64, padTo: 300_000 });
    const key = `${c.companyId}/${randomBytes(8).toString('hex')}/foto.png`;
    await svc.app.get(MediaStorage).put(key, Readable.from([photo]));
    const send: WaOutboundSend = {
      companyId: c.companyId,
      connectionId: c.id,
      waMessageId: `3EB0${randomBytes(8).toString('hex').toUpperCase()}`,
      to,
      body: 'Segue a foto',
      ticketId: 1,
      messageId: randomInt(1e6),
      media: { key, mimetype: 'image/png', fileName: 'foto.png', size: photo.length, mediaType: 'image' },
    };
    await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
    const item = await waitFor(async () => {
      const res = await svc.http.get(`/whatsappsession/${c.id}/sandbox/outbox`, { token: c.token });
      return (res.body.items as SandboxOutboxItem[]).find((i) => i.waMessageId === send.waMessageId);
    });
    expect(item).toMatchObject({
      to,
      body: 'Segue a foto',
      media: { mimetype: 'image/png', fileName: 'foto.png', size: photo.length, sha256: createHash('sha256').update(photo).digest('hex') },
    });
  });
});

describe('sandbox: edits and deletions of sent messages (session commands from tickets)', () => {
  it('edits and deletes a message it sent, recorded in the outbox; refuses a message it did not send', async () => {
    const c = await sandboxConnection();
    const to = phone();
    const send: WaOutboundSend = {
      companyId: c.companyId,
      connectionId: c.id,
      waMessageId: `3EB0${randomBytes(8).toString('hex').toUpperCase()}`,
      to,
      body: 'primeiro',
      ticketId: 1,
      messageId: 1,
    };
    await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
    const outbox = async () =>
      ((await svc.http.get(`/whatsappsession/${c.id}/sandbox/outbox`, { token: c.token })).body.items as SandboxOutboxItem[]).filter(
        (i) => i.waMessageId === send.waMessageId,
      );
    await waitFor(async () => (await outbox()).length === 1);
    const ask = (cmd: object) => request(svc.bus, sessionCommandSubject(c.id), cmd, { timeoutMs: 5000 });
    expect(await ask({ action: 'edit', to, waMessageId: send.waMessageId, fromMe: true, text: 'corrigido' })).toEqual({ ok: true });
    expect(await ask({ action: 'delete', to, waMessageId: send.waMessageId, fromMe: true })).toEqual({ ok: true });
    expect((await outbox()).map((i) => [i.kind, i.body])).toEqual([
      ['delete', ''],
      ['edit', 'corrigido'],
      ['send', 'primeiro'],
    ]);
    expect(await ask({ action: 'delete', to, waMessageId: 'THEIRS1', fromMe: false })).toEqual({ ok: false, code: 'ERR_DELETE_WAPP_MSG' });
    expect(await ask({ action: 'edit', to: '', waMessageId: send.waMessageId, fromMe: true, text: 'x' })).toEqual({
      ok: false,
      code: 'ERR_EDITING_WAPP_MSG',
    });
  });
});

describe("sandbox: the phone's address book (read by POST /contacts/import)", () => {
  it('answers the address book it was given, page by page; validates it', async () => {
    const c = await sandboxConnection();
    const contacts = Array.from({ length: 5 }, (_, i) => ({ number: `55119000000${i}0`, name: `Contato ${i}` }));
    expect((await svc.http.put(`/whatsappsession/${c.id}/sandbox/contacts`, { token: c.token, body: { contacts } })).body).toEqual({
      count: 5,
    });
    const ask = (cmd: object) => request(svc.bus, sessionCommandSubject(c.id), cmd, { timeoutMs: 5000 });
    expect(await ask({ action: 'contacts', page: 1, pageSize: 3 })).toEqual({
      ok: true,
      result: { contacts: contacts.slice(0, 3), hasMore: true },
    });
    expect(await ask({ action: 'contacts', page: 2, pageSize: 3 })).toEqual({
      ok: true,
      result: { contacts: contacts.slice(3), hasMore: false },
    });
    const bad = await svc.http.put(`/whatsappsession/${c.id}/sandbox/contacts`, {
      token: c.token,
      body: { contacts: [{ number: 'abc', name: 'x' }] },
    });
    expect(bad.status).toBe(400);
  });
});
