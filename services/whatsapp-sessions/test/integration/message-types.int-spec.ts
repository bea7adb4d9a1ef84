import { createHash, randomBytes, randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { proto, type AnyMessageContent, type MiscMessageGenerationOptions, type WAMessage } from '@whiskeysockets/baileys';
import { WaSubjects, type SandboxOutboxItem, type WaInboundMessage, type WaOutboundSend } from '@wa/contracts';
import { MediaStorage } from '@wa/server-kit';
import { mediaForm, mp3File, waitFor } from '@wa/testing';
import { createConnection, heldOn, lastOn, storedOn, tokenFor, waitForStatus, type SessionsUnderTest, socketOf } from './harness.js';
import { scriptedSessionsSuite } from './scripted-socket.js';

/**
 * More message types (issue 45 §4) through whatsapp-sessions: voice notes (sent with `ptt`, received with `voice`),
 * locations, contact cards and reactions, both ways — through the sandbox phone (its outbox records what it sent) and
 * at Baileys' boundary (Baileys' own shapes in `messages.upsert`, and what the provider hands Baileys' sendMessage).
 */

let svc: SessionsUnderTest;
const { companies, sockets, created, svc: running } = scriptedSessionsSuite(2);
beforeAll(() => {
  svc = running();
});

const phone = () => `55119${randomInt(10_000_000, 99_999_999)}`;
const waId = () => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;

async function sandbox() {
  const companyId = companies[0]!;
  const token = tokenFor(companyId);
  const c = await createConnection(svc, token, { name: `Tipos ${randomInt(1_000_000)}` });
  created.push({ id: c.id, token });
  await waitForStatus(svc, token, c.id, 'CONNECTED');
  return { companyId, token, id: c.id };
}

async function outboxItem(id: number, token: string, waMessageId: string): Promise<SandboxOutboxItem> {
  return waitFor(async () => {
    const res = await svc.http.get(`/whatsappsession/${id}/sandbox/outbox`, { token });
    return (res.body.items as SandboxOutboxItem[]).find((i) => i.waMessageId === waMessageId);
  });
}

const VCARD = 'BEGIN:VCARD\nVERSION:3.0\nFN:João Silva\nTEL;type=CELL;waid=5511912345678:+55 11 91234-5678\nEND:VCARD';

describe('sandbox: voice notes, locations, contact cards and reactions', () => {
  it('sends a voice note with ptt, a location, a contact card and a reaction: the outbox records each as such', async () => {
    const c = await sandbox();
    const to = phone();
    const audio = mp3File();
    const key = `${c.companyId}/${randomBytes(8).toString('hex')}/voz.ogg`;
    await svc.app.get(MediaStorage).put(key, Readable.from([audio]));
    const base = { companyId: c.companyId, connectionId: c.id, to, ticketId: 1, messageId: randomInt(1e6) };
    const voice: WaOutboundSend = {
      ...base,
      waMessageId: waId(),
      body: '',
      media: { key, mimetype: 'audio/ogg; codecs=opus', fileName: 'voz.ogg', size: audio.length, mediaType: 'audio', voice: true },
    };
    const place: WaOutboundSend = {
      ...base,
      waMessageId: waId(),
      body: '-23.5613,-46.6565',
      location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' },
    };
    const card: WaOutboundSend = { ...base, waMessageId: waId(), body: VCARD, contact: { name: 'João Silva', number: '5511912345678' } };
    const react: WaOutboundSend = {
      ...base,
      waMessageId: waId(),
      body: '👍',
      reaction: { waMessageId: 'ABCDEF123', fromMe: false, emoji: '👍' },
    };
    for (const send of [voice, place, card, react]) {
      await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
    }
    expect(await outboxItem(c.id, c.token, voice.waMessageId)).toMatchObject({
      to,
      kind: 'send',
      media: {
        mimetype: 'audio/ogg; codecs=opus',
        ptt: true,
        size: audio.length,
        sha256: createHash('sha256').update(audio).digest('hex'),
      },
    });
    const sentPlace = await outboxItem(c.id, c.token, place.waMessageId);
    expect(sentPlace).toMatchObject({
      body: '-23.5613,-46.6565',
      media: null,
      location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' },
    });
    expect(await outboxItem(c.id, c.token, card.waMessageId)).toMatchObject({ contact: { name: 'João Silva', vcard: VCARD }, media: null });
    expect(await outboxItem(c.id, c.token, react.waMessageId)).toMatchObject({
      body: '👍',
      reaction: { waMessageId: 'ABCDEF123', emoji: '👍' },
    });
  });

  it('receives a voice note, a location, contact cards and a reaction, published as Baileys’ mapping gives them', async () => {
    const c = await sandbox();
    const from = phone();
    const subject = WaSubjects.inbound(c.companyId, c.id, from);
    const note = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token: c.token,
      form: mediaForm([{ field: 'media', name: 'voz.mp3', data: mp3File(), type: 'audio/mpeg' }], { from, voice: 'true' }),
    });
    expect(note.status).toBe(202);
    expect((await lastOn<WaInboundMessage>(svc.jsm, subject)).data).toMatchObject({
      waMessageId: note.body.id,
      mediaType: 'audio',
      voice: true,
    });

    const place = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token: c.token,
      body: { from, location: { latitude: -22.9519, longitude: -43.2105, name: 'Cristo Redentor' } },
    });
    expect(place.status).toBe(202);
    await waitFor(async () => (await lastOn<WaInboundMessage>(svc.jsm, subject)).data.waMessageId === place.body.id);
    expect((await lastOn<WaInboundMessage>(svc.jsm, subject)).data).toMatchObject({
      mediaType: 'locationMessage',
      body: '-22.9519,-43.2105',
      location: { latitude: -22.9519, longitude: -43.2105, name: 'Cristo Redentor', address: null },
    });

    const cards = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token: c.token,
      body: { from, vcards: [VCARD, 'BEGIN:VCARD\nVERSION:3.0\nN:Souza;Ana;;;\nTEL:+55 21 98888-7777\nEND:VCARD'] },
    });
    expect(cards.status).toBe(202);
    await waitFor(async () => (await lastOn<WaInboundMessage>(svc.jsm, subject)).data.waMessageId === cards.body.id);
    expect((await lastOn<WaInboundMessage>(svc.jsm, subject)).data).toMatchObject({
      mediaType: 'contactMessage',
      contacts: [
        { name: 'João Silva', numbers: ['5511912345678'] },
        { name: 'Ana Souza', numbers: ['5521988887777'] },
      ],
    });

    const reaction = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token: c.token,
      body: { from, reaction: { waMessageId: place.body.id, emoji: '❤️' } },
    });
    expect(reaction.status).toBe(202);
    await waitFor(async () => (await lastOn<WaInboundMessage>(svc.jsm, subject)).data.waMessageId === reaction.body.id);
    expect((await lastOn<WaInboundMessage>(svc.jsm, subject)).data).toMatchObject({
      body: '❤️',
      reaction: { waMessageId: place.body.id, emoji: '❤️' },
    });
  });

  it('refuses a location off the globe and an empty list of vCards, naming the field', async () => {
    const c = await sandbox();
    const from = phone();
    const far = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token: c.token,
      body: { from, location: { latitude: 123, longitude: 0 } },
    });
    expect(far.status).toBe(400);
    expect(JSON.stringify(far.body)).toContain('latitude');
    const none = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token: c.token, body: { from, vcards: [] } });
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain('vcards');
    expect(await storedOn(svc.jsm, WaSubjects.inbound(c.companyId, c.id, from))).toBe(0);
  });
});

/** A message as Baileys hands it over: a decoded proto.WebMessageInfo. */
const wa = (obj: Record<string, unknown>): WAMessage => proto.WebMessageInfo.fromObject(obj) as WAMessage;

describe("Baileys' boundary: the same types in Baileys' own shapes", () => {
  it('publishes a voice note, a location, contact cards and a reaction from messages.upsert; sends ptt, location, contacts and react', async () => {
    const companyId = companies[1]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Baileys tipos', channel: 'baileys' });
    created.push({ id: c.id, token });
    const sock = await socketOf(sockets, c.id);
    // what the provider hands Baileys' sendMessage (the file read from its stream), and a directory that knows everyone
    const sent: Array<{ jid: string; content: AnyMessageContent; options?: MiscMessageGenerationOptions; file?: Buffer }> = [];
    Object.assign(sock, {
      onWhatsApp: async (...numbers: string[]) => numbers.map((n) => ({ jid: `${n}@s.whatsapp.net`, exists: true })),
      sendMessage: async (jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions) => {
        const media = Object.values(content as Record<string, unknown>).find(
          (v): v is { stream: Readable } => typeof v === 'object' && v !== null && 'stream' in v,
        );
        let file: Buffer | undefined;
        if (media) {
          const chunks: Buffer[] = [];
          for await (const chunk of media.stream) chunks.push(chunk as Buffer);
          file = Buffer.concat(chunks);
        }
        sent.push({ jid, content, options, file });
        return { key: { remoteJid: jid, fromMe: true, id: options?.messageId } } as WAMessage;
      },
    });
    sock.open('5511955550000');
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const from = phone();
    const jid = `${from}@s.whatsapp.net`;
    const at = (id: string, message: Record<string, unknown>) =>
      wa({ key: { remoteJid: jid, fromMe: false, id }, pushName: 'Rui', messageTimestamp: Math.floor(Date.now() / 1000), message });

    sock.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        at('BAE5VOICE0001', { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 3 } }),
        at('BAE5PLACE0002', {
          locationMessage: { degreesLatitude: -23.5613, degreesLongitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' },
        }),
        at('BAE5LIVE00003', { liveLocationMessage: { degreesLatitude: 1.5, degreesLongitude: 2.25 } }),
        at('BAE5CARD00004', { contactMessage: { displayName: 'João', vcard: VCARD } }),
        at('BAE5CARDS0005', {
          contactsArrayMessage: {
            displayName: '2 contatos',
            contacts: [
              { displayName: 'João', vcard: VCARD },
              { displayName: 'Zé', vcard: 'BEGIN:VCARD\nFN:Zé\nTEL:+55 31 3333-4444\nEND:VCARD' },
            ],
          },
        }),
        at('BAE5REACT0006', { reactionMessage: { key: { remoteJid: jid, fromMe: true, id: 'OURMSG01' }, text: '🙏' } }),
        at('BAE5UNREACT07', { reactionMessage: { key: { remoteJid: jid, fromMe: true, id: 'OURMSG01' }, text: '' } }),
      ],
    });
    const subject = WaSubjects.inbound(companyId, c.id, from);
    await waitFor(async () => (await storedOn(svc.jsm, subject)) === 7, { timeoutMs: 15_000 });
    // alone or in the connection's batch, in the order received
    const events = (await heldOn<WaInboundMessage>(svc.jsm, subject)).slice(-7).map((h) => h.data);
    const byId = new Map(events.map((e) => [e.waMessageId, e]));
    expect(byId.get('BAE5VOICE0001')).toMatchObject({ mediaType: 'audio', voice: true });
    expect(byId.get('BAE5PLACE0002')).toMatchObject({
      mediaType: 'locationMessage',
      body: '-23.5613,-46.6565',
      location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' },
    });
    expect(byId.get('BAE5LIVE00003')).toMatchObject({ mediaType: 'locationMessage', location: { latitude: 1.5, longitude: 2.25 } });
    expect(byId.get('BAE5CARD00004')).toMatchObject({ mediaType: 'vcard', contacts: [{ name: 'João Silva', numbers: ['5511912345678'] }] });
    expect(byId.get('BAE5CARDS0005')).toMatchObject({
      mediaType: 'contactMessage',
      contacts: [
        { name: 'João Silva', numbers: ['5511912345678'] },
        { name: 'Zé', numbers: ['553133334444'] },
      ],
    });
    expect(byId.get('BAE5REACT0006')).toMatchObject({ body: '🙏', reaction: { waMessageId: 'OURMSG01', emoji: '🙏' } });
    expect(byId.get('BAE5UNREACT07')).toMatchObject({ body: '', reaction: { waMessageId: 'OURMSG01', emoji: '' } });

    // sends: a voice note as Baileys' ptt audio, a place, a contact card, a reaction on the customer's message
    const audio = mp3File();
    const key = `${companyId}/${randomBytes(8).toString('hex')}/voz.ogg`;
    await svc.app.get(MediaStorage).put(key, Readable.from([audio]));
    const base = { companyId, connectionId: c.id, to: from, ticketId: 1, messageId: 1 };
    const sends: WaOutboundSend[] = [
      {
        ...base,
        waMessageId: waId(),
        body: '',
        media: { key, mimetype: 'audio/ogg; codecs=opus', fileName: 'voz.ogg', size: audio.length, mediaType: 'audio', voice: true },
      },
      { ...base, waMessageId: waId(), body: '1.5,2.25', location: { latitude: 1.5, longitude: 2.25, name: 'Loja' } },
      { ...base, waMessageId: waId(), body: VCARD, contact: { name: 'João Silva', number: '5511912345678' } },
      { ...base, waMessageId: waId(), body: '👍', reaction: { waMessageId: 'BAE5PLACE0002', fromMe: false, emoji: '👍' } },
    ];
    for (const send of sends) await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
    await waitFor(async () => sent.length === 4, { timeoutMs: 10_000 });
    expect(sent.map((s) => s.options?.messageId)).toEqual(sends.map((s) => s.waMessageId));
    expect(sent[0]!.content).toMatchObject({ mimetype: 'audio/ogg; codecs=opus', ptt: true });
    expect(sent[0]!.file?.equals(audio)).toBe(true);
    expect(sent[1]!.content).toEqual({ location: { degreesLatitude: 1.5, degreesLongitude: 2.25, name: 'Loja' } });
    expect(sent[2]!.content).toEqual({ contacts: { displayName: 'João Silva', contacts: [{ vcard: VCARD }] } });
    expect(sent[3]!.content).toEqual({ react: { text: '👍', key: { remoteJid: jid, id: 'BAE5PLACE0002', fromMe: false } } });
  });
});
