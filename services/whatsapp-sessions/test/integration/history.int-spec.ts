import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { proto, type Contact, type WAMessage } from '@whiskeysockets/baileys';
import { whatsappMessageId } from '@wa/domain';
import { sessionCommandSubject, WaSubjects, type AddressBookPage, type WaInboundMessage } from '@wa/contracts';
import { request } from '@wa/event-bus';
import { waitFor } from '@wa/testing';
import {
  Collector,
  createConnection,
  fieldMessages,
  storedOn,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
  socketOf,
} from './harness.js';
import { scriptedSessionsSuite } from './scripted-socket.js';

/**
 * History sync (issue 42 §9): what WhatsApp hands a newly linked session (Baileys' `messaging-history.set`). Its
 * contacts join the phone's address book, its LID pairs the company's LID map (PostgreSQL), and its messages sent
 * within HISTORY_IMPORT_HOURS (24 here, the default) are published marked `history`, each with its own time and no
 * file; older ones are dropped and counted. Through the sandbox phone (POST …/sandbox/history) and at Baileys'
 * boundary (the event built from Baileys' own types), against the real PostgreSQL and NATS.
 */

let svc: SessionsUnderTest;
const { companies, sockets, created, svc: running } = scriptedSessionsSuite(2);
beforeAll(() => {
  svc = running();
});

const HOUR = 3_600_000;
/** WhatsApp's clock: whole seconds */
const second = (ms: number) => Math.floor(ms / 1000) * 1000;
const mobile = () => `55119${randomInt(10_000_000, 99_999_999)}`;
const lidDigits = () => `${randomInt(100_000, 999_999)}${randomInt(100_000_000, 999_999_999)}`;

/** The connection's history counter in this process' /metrics: kept (published) or not (dropped). */
async function historyCount(connectionId: number, kept: boolean): Promise<number> {
  const res = await svc.http.get('/metrics');
  const line = new RegExp(
    `^whatsapp_sessions_history_messages_total\\{(?=[^}]*connectionId="${connectionId}")(?=[^}]*kept="${kept}")[^}]*\\} (\\d+)`,
    'm',
  ).exec(String(res.body));
  return line ? Number(line[1]) : 0;
}

/** The phone's address book, asked of the session as tickets' import asks it. */
async function addressBook(connectionId: number): Promise<AddressBookPage['contacts']> {
  const reply = (await request(
    svc.bus,
    sessionCommandSubject(connectionId),
    { action: 'contacts', page: 1, pageSize: 100 },
    { timeoutMs: 5000 },
  )) as {
    ok: boolean;
    result: AddressBookPage;
  };
  expect(reply.ok).toBe(true);
  return reply.result.contacts;
}

async function lidMap(companyId: number): Promise<Array<{ lid: string; pn: string }>> {
  return (await svc.db.query(`SELECT lid, pn FROM whatsapp.lid_map WHERE "companyId" = $1`, [companyId])) as Array<{
    lid: string;
    pn: string;
  }>;
}

describe('history sync through the sandbox phone: POST /whatsappsession/{id}/sandbox/history', () => {
  it('adds the contacts to the address book, keeps their LIDs, and publishes only the recent messages, marked history, with their own times', async () => {
    const companyId = companies[0]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: `Histórico ${randomInt(1_000_000)}` });
    created.push({ id: c.id, token });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const [ana, bia, caio] = [mobile(), mobile(), mobile()];
    const lid = lidDigits();
    expect(
      (await svc.http.put(`/whatsappsession/${c.id}/sandbox/contacts`, { token, body: { contacts: [{ number: ana, name: 'Ana' }] } }))
        .status,
    ).toBe(200);

    const now = Date.now();
    const messages = [
      { id: whatsappMessageId(), from: ana, body: 'ontem à noite', timestamp: now - 20 * HOUR },
      { id: whatsappMessageId(), from: ana, body: 'respondido do celular', timestamp: now - 19 * HOUR, fromMe: true },
      { id: whatsappMessageId(), from: bia, fromLid: lid, body: 'uma hora atrás', timestamp: now - HOUR },
      // older than HISTORY_IMPORT_HOURS: dropped
      { id: whatsappMessageId(), from: caio, body: 'semana passada', timestamp: now - 7 * 24 * HOUR },
    ];
    const inbound = new Collector<WaInboundMessage>(svc.nc, `wa.inbound.${companyId}.${c.id}.>`);
    try {
      const res = await svc.http.post(`/whatsappsession/${c.id}/sandbox/history`, {
        token,
        body: {
          contacts: [
            { number: ana, name: 'Ana Paula' },
            { number: bia, name: 'Bia', lid },
            { number: caio, name: 'Caio' },
          ],
          messages,
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ contacts: 3, ids: messages.map((m) => m.id) });

      // the address book: Ana renamed in place, the others added
      expect(await addressBook(c.id)).toEqual([
        { number: ana, name: 'Ana Paula' },
        { number: bia, name: 'Bia' },
        { number: caio, name: 'Caio' },
      ]);
      expect(await lidMap(companyId)).toContainEqual({ lid, pn: bia });

      // answered once handled: the recent three are on JetStream, marked history, each with its own time
      const recent = messages.slice(0, 3);
      for (const m of recent) await inbound.waitFor((i) => i.data.waMessageId === m.id);
      for (const m of recent) {
        const got = inbound.items.find((i) => i.data.waMessageId === m.id)!;
        expect(got.data).toMatchObject({
          companyId,
          connectionId: c.id,
          from: m.from,
          body: m.body,
          fromMe: m.fromMe === true,
          isGroup: false,
          timestamp: second(m.timestamp),
          history: true,
          mediaType: 'chat',
        });
        // the recent ones published together, in one batch of the connection's
        expect(got.batchMsgId).toMatch(new RegExp(`^${c.id}:batch:[0-9a-f]{40}$`));
      }
      expect(inbound.items.find((i) => i.data.waMessageId === recent[2]!.id)!.data.fromLid).toBe(lid);
      expect(await storedOn(svc.jsm, WaSubjects.inbound(companyId, c.id, caio))).toBe(0);
      expect(inbound.items.some((i) => i.data.waMessageId === messages[3]!.id)).toBe(false);
      expect(await historyCount(c.id, true)).toBe(3);
      expect(await historyCount(c.id, false)).toBe(1);

      // the same sync again (WhatsApp repeats a chunk): nothing published twice
      const again = await svc.http.post(`/whatsappsession/${c.id}/sandbox/history`, { token, body: { messages } });
      expect(again.status).toBe(200);
      expect(await storedOn(svc.jsm, WaSubjects.inbound(companyId, c.id, ana))).toBe(2);
      expect(await storedOn(svc.jsm, WaSubjects.inbound(companyId, c.id, bia))).toBe(1);
      expect(await historyCount(c.id, true)).toBe(3);
      expect(await historyCount(c.id, false)).toBe(2);
    } finally {
      inbound.close();
    }
  });

  it('refuses a malformed sync with the field named, and a connection that is not a sandbox', async () => {
    const companyId = companies[0]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: `Histórico ruim ${randomInt(1_000_000)}` });
    created.push({ id: c.id, token });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const bad = await svc.http.post(`/whatsappsession/${c.id}/sandbox/history`, {
      token,
      body: {
        contacts: [{ number: 'abc', name: 'X', lid: '12@lid' }],
        messages: [{ from: mobile(), body: ' ', timestamp: 'ontem' }],
      },
    });
    expect(bad.status).toBe(400);
    expect(fieldMessages(bad.body, 'contacts.0.number')).toContain('number must be 8 to 20 digits');
    expect(fieldMessages(bad.body, 'contacts.0.lid')).toContain('lid must be a LID: 6 to 30 digits');
    expect(fieldMessages(bad.body, 'messages.0.body')).toContain('Required');
    expect(fieldMessages(bad.body, 'messages.0.timestamp').length).toBeGreaterThan(0);

    const b = await createConnection(svc, token, { name: 'Baileys', channel: 'baileys' });
    created.push({ id: b.id, token });
    const sock = await socketOf(sockets, b.id);
    sock.open('5511944443333');
    await waitForStatus(svc, token, b.id, 'CONNECTED');
    const notSandbox = await svc.http.post(`/whatsappsession/${b.id}/sandbox/history`, { token, body: { messages: [] } });
    expect(notSandbox.status).toBe(400);
  });
});

/** A message as Baileys hands it over: a decoded proto.WebMessageInfo, with the key's LID fields Baileys adds. */
function wa(obj: Record<string, unknown>, keyExtra: Partial<WAMessage['key']> = {}): WAMessage {
  const m = proto.WebMessageInfo.fromObject(obj) as WAMessage;
  Object.assign(m.key, keyExtra);
  return m;
}

describe("history sync at Baileys' boundary: messaging-history.set", () => {
  it('keeps the contacts and the LID pairs, and publishes the recent messages as history without their files', async () => {
    const companyId = companies[1]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Baileys histórico', channel: 'baileys' });
    created.push({ id: c.id, token });
    const sock = await socketOf(sockets, c.id);
    sock.open('5511944442222');
    await waitForStatus(svc, token, c.id, 'CONNECTED');

    const [ana, bia, caio, dora] = [mobile(), mobile(), mobile(), mobile()];
    const [biaLid, doraLid] = [lidDigits(), lidDigits()];
    const nowS = Math.floor(Date.now() / 1000);
    const ids = {
      text: whatsappMessageId(),
      photo: whatsappMessageId(),
      mine: whatsappMessageId(),
      byLid: whatsappMessageId(),
      old: whatsappMessageId(),
    };
    // as history.js builds it: a contact per chat (id, name, lid, phoneNumber), the chats' messages, the mappings
    const contacts: Contact[] = [
      { id: `${ana}@s.whatsapp.net`, name: 'Ana' },
      { id: `${biaLid}@lid`, name: 'Bia', phoneNumber: `${bia}@s.whatsapp.net` },
      { id: `${caio}@s.whatsapp.net`, notify: 'Caio' },
      { id: '120363025246125486@g.us', name: 'Grupo' },
    ];
    const messages: WAMessage[] = [
      wa({
        key: { remoteJid: `${ana}@s.whatsapp.net`, fromMe: false, id: ids.text },
        pushName: 'Ana',
        messageTimestamp: nowS - 3600,
        message: { conversation: 'bom dia' },
      }),
      wa({
        key: { remoteJid: `${ana}@s.whatsapp.net`, fromMe: false, id: ids.photo },
        messageTimestamp: nowS - 3500,
        message: {
          imageMessage: {
            caption: 'a foto',
            mimetype: 'image/jpeg',
            url: 'https://mmg.whatsapp.net/x',
            directPath: '/v/x',
            mediaKey: Buffer.alloc(32),
          },
        },
      }),
      wa({
        key: { remoteJid: `${ana}@s.whatsapp.net`, fromMe: true, id: ids.mine },
        messageTimestamp: nowS - 3400,
        message: { conversation: 'já vou ver' },
      }),
      wa(
        {
          key: { remoteJid: `${doraLid}@lid`, fromMe: false, id: ids.byLid },
          messageTimestamp: nowS - 600,
          message: { conversation: 'pelo LID' },
        },
        { remoteJidAlt: `${dora}@s.whatsapp.net` },
      ),
      wa({
        key: { remoteJid: `${caio}@s.whatsapp.net`, fromMe: false, id: ids.old },
        messageTimestamp: nowS - 3 * 24 * 3600,
        message: { conversation: 'há três dias' },
      }),
    ];
    const inbound = new Collector<WaInboundMessage>(svc.nc, `wa.inbound.${companyId}.${c.id}.>`);
    try {
      sock.ev.emit('messaging-history.set', {
        chats: [],
        contacts,
        messages,
        lidPnMappings: [{ lid: `${biaLid}@lid`, pn: `${bia}@s.whatsapp.net` }],
        syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
        isLatest: true,
        progress: 100,
      });
      for (const id of [ids.text, ids.photo, ids.mine, ids.byLid]) await inbound.waitFor((i) => i.data.waMessageId === id);
      const got = (id: string) => inbound.items.find((i) => i.data.waMessageId === id)!.data;
      expect(got(ids.text)).toMatchObject({
        from: ana,
        fromName: 'Ana',
        body: 'bom dia',
        fromMe: false,
        timestamp: (nowS - 3600) * 1000,
        history: true,
      });
      // no file fetched: the caption only
      expect(got(ids.photo)).toMatchObject({
        from: ana,
        body: 'a foto',
        mediaType: 'image',
        timestamp: (nowS - 3500) * 1000,
        history: true,
      });
      expect(got(ids.photo).media ?? null).toBeNull();
      expect(got(ids.mine)).toMatchObject({ from: ana, body: 'já vou ver', fromMe: true, history: true });
      expect(got(ids.byLid)).toMatchObject({ from: dora, fromLid: doraLid, body: 'pelo LID', history: true });

      await waitFor(async () => (await historyCount(c.id, true)) === 4);
      await waitFor(async () => (await historyCount(c.id, false)) === 1);
      expect(await storedOn(svc.jsm, WaSubjects.inbound(companyId, c.id, caio))).toBe(0);

      // the address book as contacts.upsert keeps it: numbers with their names, no group, a LID by its number
      expect(await addressBook(c.id)).toEqual(
        expect.arrayContaining([
          { number: ana, name: 'Ana' },
          { number: bia, name: 'Bia' },
          { number: caio, name: 'Caio' },
        ]),
      );
      expect((await addressBook(c.id)).some((e) => e.number.startsWith('120363'))).toBe(false);
      expect(await lidMap(companyId)).toEqual(
        expect.arrayContaining([
          { lid: biaLid, pn: bia },
          { lid: doraLid, pn: dora },
        ]),
      );
    } finally {
      inbound.close();
    }
  });
});
