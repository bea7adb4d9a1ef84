import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { whatsappMessageId } from '@wa/domain';
import { WaSubjects, type SandboxOutboxItem, type WaInboundMessage, type WaLidMapped, type WaOutboundSend } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import {
  Collector,
  createConnection,
  fieldMessages,
  lastOn,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
  socketOf,
} from './harness.js';
import { scriptedSessionsSuite } from './scripted-socket.js';

/**
 * Issue 42 §1–2 through the sandbox phone: WhatsApp's LID shapes (a LID-addressed message carrying the number, a
 * bare LID, `lid-mapping.update`) reach the bus in our vocabulary — a bare LID as its address `<lid>@lid`, never its
 * digits as a number; every pair WhatsApp tells is kept in the company's LID map (PostgreSQL) and announced once on
 * `wa.lid.<company>`; a bare LID whose number is known goes on under the number; a reply to a LID goes to the LID.
 * The same at Baileys' boundary, from Baileys' own shapes (`messages.upsert` by LID, `lid-mapping.update`, contacts
 * with their phone numbers).
 */

let svc: SessionsUnderTest;
const { companies, sockets, created, svc: running } = scriptedSessionsSuite(3);
beforeAll(() => {
  svc = running();
});

const lidDigits = () => `${randomInt(100_000, 999_999)}${randomInt(100_000_000, 999_999_999)}`;
const mobile = () => `55119${randomInt(10_000_000, 99_999_999)}`;

async function sandbox(companyId: number) {
  const token = tokenFor(companyId);
  const c = await createConnection(svc, token, { name: `LIDs ${randomInt(1_000_000)}` });
  created.push({ id: c.id, token });
  return { c, token };
}

async function mapped(companyId: number): Promise<Array<{ lid: string; pn: string }>> {
  return (await svc.db.query(`SELECT lid, pn FROM whatsapp.lid_map WHERE "companyId" = $1 ORDER BY lid`, [companyId])) as Array<{
    lid: string;
    pn: string;
  }>;
}

describe('sessions: LIDs through the sandbox phone', () => {
  it('publishes a LID-addressed message under the number with its LID, and keeps and announces the pair once', async () => {
    const companyId = companies[0]!;
    const { c, token } = await sandbox(companyId);
    const lid = lidDigits();
    const pn = mobile();
    const announced = new Collector<WaLidMapped>(svc.nc, WaSubjects.lidMapped(companyId));
    try {
      for (const body of ['oi', 'tudo bem?']) {
        const res = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
          token,
          body: { from: pn, fromLid: lid, name: 'Lia', body },
        });
        expect(res.status).toBe(202);
      }
      const last = await lastOn<WaInboundMessage>(svc.jsm, WaSubjects.inbound(companyId, c.id, pn));
      expect(last.data).toMatchObject({ from: pn, fromLid: lid, fromName: 'Lia', body: 'tudo bem?', isGroup: false });
      await announced.waitFor((i) => i.data.lid === lid);
      expect((await mapped(companyId)).filter((m) => m.lid === lid)).toEqual([{ lid, pn }]);
      // told twice, announced once
      await new Promise((r) => setTimeout(r, 300));
      expect(announced.items.filter((i) => i.data.lid === lid)).toHaveLength(1);
      expect(announced.items[0]!.data).toMatchObject({ companyId, lid, pn });
    } finally {
      announced.close();
    }
  });

  it('names a bare LID by its address until the number is known, then publishes it under the number', async () => {
    const companyId = companies[0]!;
    const { c, token } = await sandbox(companyId);
    const lid = lidDigits();
    const pn = mobile();
    const first = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token,
      body: { fromLid: lid, name: 'Bia', body: 'sou só um LID' },
    });
    expect(first.status).toBe(202);
    const bare = await lastOn<WaInboundMessage>(svc.jsm, WaSubjects.inbound(companyId, c.id, `${lid}@lid`));
    expect(bare.data).toMatchObject({ waMessageId: first.body.id, from: `${lid}@lid`, fromName: 'Bia', body: 'sou só um LID' });
    expect(bare.data.fromLid).toBeUndefined();

    const announced = new Collector<WaLidMapped>(svc.nc, WaSubjects.lidMapped(companyId));
    try {
      const told = await svc.http.post(`/whatsappsession/${c.id}/sandbox/lid-mapping`, { token, body: { lid, pn } });
      expect(told.status).toBe(200);
      expect(told.body).toEqual({ lid, pn });
      await announced.waitFor((i) => i.data.lid === lid && i.data.pn === pn);
    } finally {
      announced.close();
    }
    const second = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token,
      body: { fromLid: lid, body: 'agora com número' },
    });
    expect(second.status).toBe(202);
    const resolved = await lastOn<WaInboundMessage>(svc.jsm, WaSubjects.inbound(companyId, c.id, pn));
    expect(resolved.data).toMatchObject({ waMessageId: second.body.id, from: pn, fromLid: lid, body: 'agora com número' });
  });

  it("keeps each company's map to itself", async () => {
    const [a, b] = companies as [number, number];
    const { c: ca, token: ta } = await sandbox(a);
    const { c: cb, token: tb } = await sandbox(b);
    const lid = lidDigits();
    expect((await svc.http.post(`/whatsappsession/${ca.id}/sandbox/lid-mapping`, { token: ta, body: { lid, pn: mobile() } })).status).toBe(
      200,
    );
    const res = await svc.http.post(`/whatsappsession/${cb.id}/sandbox/inbound`, {
      token: tb,
      body: { fromLid: lid, body: 'outra empresa' },
    });
    expect(res.status).toBe(202);
    const seen = await lastOn<WaInboundMessage>(svc.jsm, WaSubjects.inbound(b, cb.id, `${lid}@lid`));
    expect(seen.data).toMatchObject({ from: `${lid}@lid`, body: 'outra empresa' });
    expect(await mapped(b)).not.toContainEqual(expect.objectContaining({ lid }));
  });

  it('sends a reply to a bare LID to the LID', async () => {
    const companyId = companies[1]!;
    const { c, token } = await sandbox(companyId);
    const lid = lidDigits();
    const reply: WaOutboundSend = {
      companyId,
      connectionId: c.id,
      waMessageId: whatsappMessageId(),
      to: `${lid}@lid`,
      body: 'Olá! Como podemos ajudar?',
      ticketId: 1,
      messageId: 1,
    };
    await svc.bus.publish(WaSubjects.outbound(c.id), reply, { msgId: WaSubjects.outboundMsgId(reply.waMessageId) });
    const sent = await waitFor(
      async () => {
        const res = await svc.http.get(`/whatsappsession/${c.id}/sandbox/outbox`, { token });
        return (res.body as { items: SandboxOutboxItem[] }).items.find((r) => r.waMessageId === reply.waMessageId);
      },
      { timeoutMs: 10_000 },
    );
    expect(sent).toMatchObject({ to: `${lid}@lid`, body: 'Olá! Como podemos ajudar?', kind: 'send' });
  });

  it('refuses a message with neither number nor LID, and a malformed mapping, with the field named', async () => {
    const companyId = companies[1]!;
    const { c, token } = await sandbox(companyId);
    const none = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { body: 'quem sou eu?' } });
    expect(none.status).toBe(400);
    expect(fieldMessages(none.body, 'from').length).toBeGreaterThan(0);
    const badLid = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { fromLid: '12@lid', body: 'x' } });
    expect(badLid.status).toBe(400);
    const bad = await svc.http.post(`/whatsappsession/${c.id}/sandbox/lid-mapping`, { token, body: { lid: 'abc', pn: '5511' } });
    expect(bad.status).toBe(400);
    expect(fieldMessages(bad.body, 'lid')).toContain('lid must be a LID: 6 to 30 digits');
    expect(fieldMessages(bad.body, 'pn')).toContain('pn must be a phone number: 8 to 20 digits');
  });
});

/** A message as Baileys hands it over: a decoded proto.WebMessageInfo, with the key's LID fields Baileys adds. */
function wa(obj: Record<string, unknown>, keyExtra: Partial<WAMessage['key']> = {}): WAMessage {
  const m = proto.WebMessageInfo.fromObject(obj) as WAMessage;
  Object.assign(m.key, keyExtra);
  return m;
}

describe("LIDs at Baileys' boundary", () => {
  it('publishes a bare LID by its address, learns the pair from lid-mapping.update and contacts, then publishes by number', async () => {
    const companyId = companies[2]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Baileys', channel: 'baileys' });
    created.push({ id: c.id, token });
    const sock = await socketOf(sockets, c.id);
    sock.open('5511944442222');
    await waitForStatus(svc, token, c.id, 'CONNECTED');

    const lid = lidDigits();
    const pn = mobile();
    const first = whatsappMessageId();
    sock.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        wa({
          key: { remoteJid: `${lid}@lid`, fromMe: false, id: first },
          pushName: 'Rui',
          messageTimestamp: 1_700_000_000,
          message: { conversation: 'oi' },
        }),
      ],
    });
    const bare = await waitFor(async () =>
      lastOn<WaInboundMessage>(svc.jsm, WaSubjects.inbound(companyId, c.id, `${lid}@lid`)).catch(() => undefined),
    );
    expect(bare.data).toMatchObject({ waMessageId: first, from: `${lid}@lid`, fromName: 'Rui', body: 'oi' });

    const announced = new Collector<WaLidMapped>(svc.nc, WaSubjects.lidMapped(companyId));
    try {
      sock.ev.emit('lid-mapping.update', { lid: `${lid}@lid`, pn: `${pn}@s.whatsapp.net` });
      await announced.waitFor((i) => i.data.lid === lid && i.data.pn === pn);
      // a contact synced with its phone number teaches the map too
      const other = lidDigits();
      const otherPn = mobile();
      sock.ev.emit('contacts.upsert', [{ id: `${other}@lid`, phoneNumber: `${otherPn}@s.whatsapp.net`, notify: 'Zé' }]);
      await announced.waitFor((i) => i.data.lid === other && i.data.pn === otherPn);
    } finally {
      announced.close();
    }

    const second = whatsappMessageId();
    sock.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        wa({
          key: { remoteJid: `${lid}@lid`, fromMe: false, id: second },
          messageTimestamp: 1_700_000_100,
          message: { conversation: 'de novo' },
        }),
      ],
    });
    const byNumber = await waitFor(async () =>
      lastOn<WaInboundMessage>(svc.jsm, WaSubjects.inbound(companyId, c.id, pn)).catch(() => undefined),
    );
    expect(byNumber.data).toMatchObject({ waMessageId: second, from: pn, fromLid: lid, body: 'de novo' });
    expect(await mapped(companyId)).toEqual(expect.arrayContaining([{ lid, pn }]));
  });
});
