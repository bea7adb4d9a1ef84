import { EventEmitter } from 'node:events';
import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Boom } from '@hapi/boom';
import {
  DisconnectReason,
  USyncQuery,
  type AnyMessageContent,
  type BaileysEventMap,
  type BinaryNode,
  type MiscMessageGenerationOptions,
  type UserFacingSocketConfig,
  type WAMessage,
} from '@whiskeysockets/baileys';
import { sessionCommandSubject, WaSubjects, type SandboxOutboxItem, type WaAck, type WaOutboundSend } from '@wa/contracts';
import { request } from '@wa/event-bus';
import { waitFor } from '@wa/testing';
import { pino } from 'pino';
import type { OutgoingContent } from '../../src/runtime/providers/provider.js';
import { NotOnWhatsappError } from '../../src/runtime/providers/provider.js';
import { NumberJids } from '../../src/runtime/number-jids.js';
import { NumberJidsRepository } from '../../src/runtime/number-jids.repository.js';
import { BaileysProvider, type BaileysSocket } from '../../src/runtime/providers/baileys/baileys.provider.js';
import { AuthStateStore } from '../../src/runtime/providers/baileys/postgres-auth-state.js';
import {
  Collector,
  cleanup,
  companyPool,
  createConnection,
  startSessions,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
} from './harness.js';

/**
 * Issue 42 §3 and §1: the jid WhatsApp answered for a number is kept in PostgreSQL (whatsapp.number_jids, per
 * company) and used by every process; a failed send to it asks WhatsApp again; WhatsApp unreachable, a Brazilian
 * mobile goes to the form WhatsApp names it by (DDD ≥ 31 without the 9th digit); and a number that wrote to the
 * connection is on WhatsApp, so replies to it go out (Baileys and the sandbox).
 */

/**
 * WhatsApp's directory as one test scripts it: the numbers it knows (→ the jid it names each by) and whether it can
 * be asked. Shared by the sockets of one test, as WhatsApp is one.
 */
class WhatsAppDirectory {
  readonly known = new Map<string, string>();
  /** the usync query fails (a timeout) */
  unreachable = false;
  /** WhatsApp answers the usync query with an error node: Baileys' `onWhatsApp` answers nothing (undefined) */
  answersNothing = false;

  /**
   * WhatsApp's answer to a contact usync query, as the node it sends: one `<user jid>` per number asked, its
   * `<contact type="in">` when the number is on WhatsApp, `out` when not.
   */
  usyncAnswer(numbers: string[]): BinaryNode {
    if (this.answersNothing)
      return { tag: 'iq', attrs: { type: 'error' }, content: [{ tag: 'error', attrs: { code: '500', text: 'internal' } }] };
    const users: BinaryNode[] = numbers.map((n) => {
      const jid = this.known.get(n);
      return {
        tag: 'user',
        attrs: { jid: jid ?? `${n}@s.whatsapp.net` },
        content: [{ tag: 'contact', attrs: { type: jid ? 'in' : 'out' }, content: `+${n}` }],
      };
    });
    return {
      tag: 'iq',
      attrs: { type: 'result' },
      content: [{ tag: 'usync', attrs: {}, content: [{ tag: 'list', attrs: {}, content: users }] }],
    };
  }
}

/**
 * Baileys' socket where WhatsApp cannot be reached, its methods typed as Baileys' own: `onWhatsApp` runs WhatsApp's
 * usync answer through Baileys' own parser (USyncQuery with the contact protocol) and keeps what Baileys keeps
 * (`list.filter(a => !!a.contact).map(({ contact, id }) => ({ jid: id, exists: contact }))`, Socket/socket.js);
 * a send to a jid in `failing` fails as a timed-out relay.
 */
class FakeSocket {
  readonly ev = new EventEmitter();
  readonly sent: Array<{ jid: string; content: AnyMessageContent; options?: MiscMessageGenerationOptions; failed: boolean }> = [];
  readonly lookedUp: string[][] = [];
  readonly failing = new Set<string>();

  constructor(
    readonly config: UserFacingSocketConfig,
    private readonly whatsapp: WhatsAppDirectory,
  ) {}

  emit<K extends keyof BaileysEventMap>(event: K, data: BaileysEventMap[K]): void {
    this.ev.emit(event, data);
  }

  readonly onWhatsApp: BaileysSocket['onWhatsApp'] = async (...phoneNumbers) => {
    this.lookedUp.push(phoneNumbers);
    if (this.whatsapp.unreachable) throw new Boom('Timed Out', { statusCode: DisconnectReason.timedOut });
    const query = new USyncQuery().withContactProtocol();
    const numbers = phoneNumbers.map((n) => n.replace('+', '').split('@')[0]?.split(':')[0] ?? n);
    const results = query.parseUSyncQueryResult(this.whatsapp.usyncAnswer(numbers));
    if (results) return results.list.filter((a) => !!a.contact).map(({ contact, id }) => ({ jid: id, exists: contact as boolean }));
    return undefined;
  };

  readonly sendMessage = (async (jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions) => {
    const failed = this.failing.has(jid);
    this.sent.push({ jid, content, options, failed });
    if (failed) throw new Boom('Timed Out', { statusCode: DisconnectReason.timedOut });
    return { key: { remoteJid: jid, fromMe: true, id: options?.messageId } } as WAMessage;
  }) as BaileysSocket['sendMessage'];

  readonly end: BaileysSocket['end'] = async () => undefined;
  readonly logout: BaileysSocket['logout'] = async () => undefined;
  readonly updateMediaMessage: BaileysSocket['updateMediaMessage'] = async () => {
    throw new Boom('media gone', { statusCode: 404 });
  };
  user: BaileysSocket['user'] = undefined;

  asBaileys(): BaileysSocket {
    return this as unknown as BaileysSocket;
  }
}

const companies = companyPool(8);
let next = 0;
let svc: SessionsUnderTest;
/** the sockets the service made for its own baileys connections, and the WhatsApp they talk to */
const serviceSockets: FakeSocket[] = [];
const serviceWhatsapp = new WhatsAppDirectory();
const created: Array<{ id: number; token: string }> = [];
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  svc = await startSessions(
    companies,
    {},
    {
      baileysSocketFactory: (config) => {
        const s = new FakeSocket(config, serviceWhatsapp);
        serviceSockets.push(s);
        return s.asBaileys();
      },
    },
  );
});

afterAll(async () => {
  if (svc) await cleanup(svc, created);
  await svc?.close();
}, 60_000);

function company() {
  const companyId = companies[next++]!;
  return { companyId, token: tokenFor(companyId) };
}

/** A baileys connection row of the company without a session (a provider's auth state belongs to one). */
async function bareConnection(companyId: number): Promise<number> {
  const rows = await svc.db.query(`INSERT INTO whatsapp.connections ("companyId", name, channel) VALUES ($1, $2, 'baileys') RETURNING id`, [
    companyId,
    `Bare ${randomInt(1e9)}`,
  ]);
  created.push({ id: rows[0].id, token: tokenFor(companyId) });
  return rows[0].id;
}

/**
 * One process's Baileys provider of a connection: its own memory in front of PostgreSQL (a new NumberJids, as
 * another replica has), its socket talking to `whatsapp`.
 */
async function replica(
  companyId: number,
  connectionId: number,
  whatsapp: WhatsAppDirectory,
): Promise<{ provider: BaileysProvider; sock: FakeSocket }> {
  let sock: FakeSocket | undefined;
  const jids = new NumberJids(new NumberJidsRepository(svc.db)).forCompany(companyId);
  const provider = new BaileysProvider(
    { companyId, connectionId },
    svc.app.get(AuthStateStore),
    (config) => {
      sock = new FakeSocket(config, whatsapp);
      return sock.asBaileys();
    },
    silent,
    jids,
  );
  await provider.start();
  return { provider, sock: sock! };
}

const wid = () => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
const text = (t: string): OutgoingContent => ({ text: t });
const phone = (id: string) => ({ kind: 'phone' as const, id });
const byNumber = (x: { number: string }, y: { number: string }) => (x.number < y.number ? -1 : x.number > y.number ? 1 : 0);
/** What PostgreSQL remembers for the company, by number. */
const remembered = async (companyId: number) =>
  (
    (await svc.db.query(`SELECT number, jid FROM whatsapp.number_jids WHERE "companyId" = $1`, [companyId])) as Array<{
      number: string;
      jid: string;
    }>
  ).sort(byNumber);
/** A Brazilian mobile of area code `ddd` with its 9th digit, and the form without it. */
const brMobile = (ddd: number) => {
  const rest = String(randomInt(60_000_000, 99_999_999));
  return { canonical: `55${ddd}9${rest}`, old: `55${ddd}${rest}` };
};

describe('baileys: the jid WhatsApp answered for a number, in PostgreSQL', () => {
  it('another replica sends to the jid the first learned without asking WhatsApp; a failed send to it asks again once and goes to the new jid', async () => {
    const { companyId } = company();
    const connectionId = await bareConnection(companyId);
    const whatsapp = new WhatsAppDirectory();
    const customer = brMobile(31);
    // WhatsApp names this older account without the 9th digit
    whatsapp.known.set(customer.canonical, `${customer.old}@s.whatsapp.net`);

    const a = await replica(companyId, connectionId, whatsapp);
    await a.provider.sendMessage(phone(customer.canonical), text('Olá'), { messageId: wid() });
    expect(a.sock.lookedUp).toEqual([[customer.canonical]]);
    expect(a.sock.sent.map((s) => s.jid)).toEqual([`${customer.old}@s.whatsapp.net`]);
    expect(await remembered(companyId)).toEqual([{ number: customer.canonical, jid: `${customer.old}@s.whatsapp.net` }]);

    // another process (the session moved, or a second replica): its memory is empty, PostgreSQL answers
    const b = await replica(companyId, connectionId, whatsapp);
    await b.provider.sendMessage(phone(customer.canonical), text('Seu pedido saiu'), { messageId: wid() });
    await b.provider.sendMessage(phone(customer.canonical), text('Chega amanhã'), { messageId: wid() });
    expect(b.sock.lookedUp).toEqual([]);
    expect(b.sock.sent.map((s) => s.jid)).toEqual([`${customer.old}@s.whatsapp.net`, `${customer.old}@s.whatsapp.net`]);

    // the account moved to the new form: a send to the remembered jid fails, WhatsApp is asked again (once) and the
    // message goes to the jid it names now; the new jid is what every process reads from then on
    whatsapp.known.set(customer.canonical, `${customer.canonical}@s.whatsapp.net`);
    b.sock.failing.add(`${customer.old}@s.whatsapp.net`);
    const moved = wid();
    await b.provider.sendMessage(phone(customer.canonical), text('Mudou?'), { messageId: moved });
    expect(b.sock.lookedUp).toEqual([[customer.canonical]]);
    expect(b.sock.sent.slice(2).map((s) => ({ jid: s.jid, failed: s.failed, id: s.options?.messageId }))).toEqual([
      { jid: `${customer.old}@s.whatsapp.net`, failed: true, id: moved },
      { jid: `${customer.canonical}@s.whatsapp.net`, failed: false, id: moved },
    ]);
    expect(await remembered(companyId)).toEqual([{ number: customer.canonical, jid: `${customer.canonical}@s.whatsapp.net` }]);
    const c = await replica(companyId, connectionId, whatsapp);
    await c.provider.sendMessage(phone(customer.canonical), text('Oi de novo'), { messageId: wid() });
    expect(c.sock.lookedUp).toEqual([]);
    expect(c.sock.sent.map((s) => s.jid)).toEqual([`${customer.canonical}@s.whatsapp.net`]);

    // a send that fails to a jid WhatsApp still names so is not sent twice: the failure is the send's (tried again later)
    c.sock.failing.add(`${customer.canonical}@s.whatsapp.net`);
    await expect(c.provider.sendMessage(phone(customer.canonical), text('Falhou'), { messageId: wid() })).rejects.toThrow('Timed Out');
    expect(c.sock.lookedUp).toEqual([[customer.canonical]]);
    expect(c.sock.sent.filter((s) => s.jid === `${customer.canonical}@s.whatsapp.net`)).toHaveLength(2);

    // the customer left WhatsApp: a failed send to the remembered jid is refused as not on WhatsApp, and forgotten
    whatsapp.known.delete(customer.canonical);
    await expect(c.provider.sendMessage(phone(customer.canonical), text('Ainda aí?'), { messageId: wid() })).rejects.toBeInstanceOf(
      NotOnWhatsappError,
    );
    expect(await remembered(companyId)).toEqual([]);
  });

  it('remembers what number checks answer, one and many, for the sends of every replica', async () => {
    const { companyId } = company();
    const connectionId = await bareConnection(companyId);
    const whatsapp = new WhatsAppDirectory();
    const [one, two, three] = [brMobile(41), brMobile(11), brMobile(85)];
    whatsapp.known.set(one!.canonical, `${one!.old}@s.whatsapp.net`);
    whatsapp.known.set(two!.canonical, `${two!.canonical}@s.whatsapp.net`);
    const a = await replica(companyId, connectionId, whatsapp);
    expect(await a.provider.checkNumber(one!.canonical)).toEqual({ exists: true, jid: `${one!.old}@s.whatsapp.net` });
    expect(await a.provider.checkNumbers([two!.canonical, three!.canonical])).toEqual([
      { number: two!.canonical, exists: true, jid: `${two!.canonical}@s.whatsapp.net` },
      { number: three!.canonical, exists: false, jid: null },
    ]);
    expect(await remembered(companyId)).toEqual(
      [
        { number: one!.canonical, jid: `${one!.old}@s.whatsapp.net` },
        { number: two!.canonical, jid: `${two!.canonical}@s.whatsapp.net` },
      ].sort(byNumber),
    );
    const b = await replica(companyId, connectionId, whatsapp);
    await b.provider.sendMessage(phone(one!.canonical), text('1'), { messageId: wid() });
    await b.provider.sendMessage(phone(two!.canonical), text('2'), { messageId: wid() });
    expect(b.sock.lookedUp).toEqual([]);
    expect(b.sock.sent.map((s) => s.jid)).toEqual([`${one!.old}@s.whatsapp.net`, `${two!.canonical}@s.whatsapp.net`]);
    // another company's processes know nothing of it
    const other = company();
    const elsewhere = await replica(other.companyId, await bareConnection(other.companyId), whatsapp);
    await elsewhere.provider.sendMessage(phone(one!.canonical), text('outra empresa'), { messageId: wid() });
    expect(elsewhere.sock.lookedUp).toEqual([[one!.canonical]]);
  });

  it('WhatsApp unreachable: a Brazilian mobile goes to the form WhatsApp names it by (DDD 31 and up without the 9th digit, below with it), a remembered jid first', async () => {
    const { companyId } = company();
    const connectionId = await bareConnection(companyId);
    const whatsapp = new WhatsAppDirectory();
    whatsapp.unreachable = true;
    const { provider, sock } = await replica(companyId, connectionId, whatsapp);
    const minas = brMobile(31);
    const saoPaulo = brMobile(11);
    const espiritoSanto = brMobile(28);
    const bahia = brMobile(71);
    await provider.sendMessage(phone(minas.canonical), text('MG'), { messageId: wid() });
    await provider.sendMessage(phone(saoPaulo.canonical), text('SP'), { messageId: wid() });
    await provider.sendMessage(phone(espiritoSanto.old), text('ES, sem o 9'), { messageId: wid() });
    // the query answers nothing (WhatsApp's error node: Baileys' onWhatsApp gives undefined): the same rule
    whatsapp.unreachable = false;
    whatsapp.answersNothing = true;
    await provider.sendMessage(phone(bahia.canonical), text('BA'), { messageId: wid() });
    const uk = `44${randomInt(1_000_000_000, 9_999_999_999)}`;
    await provider.sendMessage(phone(uk), text('UK'), { messageId: wid() });
    expect(sock.sent.map((s) => s.jid)).toEqual([
      `${minas.old}@s.whatsapp.net`,
      `${saoPaulo.canonical}@s.whatsapp.net`,
      `${espiritoSanto.canonical}@s.whatsapp.net`,
      `${bahia.old}@s.whatsapp.net`,
      `${uk}@s.whatsapp.net`,
    ]);
    expect(sock.lookedUp).toHaveLength(5);
    // nothing guessed is remembered
    expect(await remembered(companyId)).toEqual([]);

    // a jid learned long ago (past the recheck) is asked again; WhatsApp unreachable, it is still the one used
    const old = brMobile(61);
    await svc.db.query(
      `INSERT INTO whatsapp.number_jids ("companyId", number, jid, "checkedAt") VALUES ($1, $2, $3, now() - interval '40 days')`,
      [companyId, old.canonical, `${old.canonical}@s.whatsapp.net`],
    );
    whatsapp.answersNothing = false;
    whatsapp.unreachable = true;
    await provider.sendMessage(phone(old.canonical), text('DF'), { messageId: wid() });
    expect(sock.lookedUp.at(-1)).toEqual([old.canonical]);
    expect(sock.sent.at(-1)?.jid).toBe(`${old.canonical}@s.whatsapp.net`);
  });

  it('a number that wrote is on WhatsApp under the jid it wrote from: every replica replies to it without asking, never refused', async () => {
    const { companyId } = company();
    const connectionId = await bareConnection(companyId);
    const whatsapp = new WhatsAppDirectory();
    const a = await replica(companyId, connectionId, whatsapp);
    const oldForm = brMobile(31);
    const abroad = `1415${randomInt(1_000_000, 9_999_999)}`;
    const lidAddressed = brMobile(21);
    const messages: WAMessage[] = [
      {
        key: { remoteJid: `${oldForm.old}@s.whatsapp.net`, fromMe: false, id: wid() },
        message: { conversation: 'oi' },
        messageTimestamp: 1,
      },
      { key: { remoteJid: `${abroad}@s.whatsapp.net`, fromMe: false, id: wid() }, message: { conversation: 'hi' }, messageTimestamp: 1 },
      {
        key: { remoteJid: '123456789012345@lid', remoteJidAlt: `${lidAddressed.canonical}@s.whatsapp.net`, fromMe: false, id: wid() },
        message: { conversation: 'olá' },
        messageTimestamp: 1,
      },
      // our own message typed on the phone names nobody who wrote
      { key: { remoteJid: '5511955554444@s.whatsapp.net', fromMe: true, id: wid() }, message: { conversation: 'eu' }, messageTimestamp: 1 },
      {
        key: { remoteJid: '120363025246125486@g.us', participant: '5511944443333@s.whatsapp.net', fromMe: false, id: wid() },
        message: { conversation: 'grupo' },
        messageTimestamp: 1,
      },
    ];
    a.sock.emit('messages.upsert', { messages, type: 'notify' });
    await waitFor(async () => (await remembered(companyId)).length === 5 || undefined);
    expect(await remembered(companyId)).toEqual(
      [
        { number: oldForm.old, jid: `${oldForm.old}@s.whatsapp.net` },
        { number: oldForm.canonical, jid: `${oldForm.old}@s.whatsapp.net` },
        { number: abroad, jid: `${abroad}@s.whatsapp.net` },
        { number: lidAddressed.canonical, jid: `${lidAddressed.canonical}@s.whatsapp.net` },
        { number: lidAddressed.old, jid: `${lidAddressed.canonical}@s.whatsapp.net` },
      ].sort(byNumber),
    );

    // WhatsApp's directory does not list them (asked, it would answer `out`): replies go out all the same, to the
    // jid each wrote from (the contact kept with the 9th digit), from another replica too
    const b = await replica(companyId, connectionId, whatsapp);
    for (const to of [oldForm.canonical, abroad, lidAddressed.canonical])
      await b.provider.sendMessage(phone(to), text('Resposta'), { messageId: wid() });
    expect(b.sock.lookedUp).toEqual([]);
    expect(b.sock.sent.map((s) => s.jid)).toEqual([
      `${oldForm.old}@s.whatsapp.net`,
      `${abroad}@s.whatsapp.net`,
      `${lidAddressed.canonical}@s.whatsapp.net`,
    ]);
  });

  it('through the service: an 11-digit sender of a baileys connection gets its reply sent, not refused', async () => {
    const { companyId, token } = company();
    const before = serviceSockets.length;
    const c = await createConnection(svc, token, { name: 'WhatsApp real', channel: 'baileys' });
    created.push({ id: c.id, token });
    const s0 = await waitFor(async () => serviceSockets[before], { timeoutMs: 5000 });
    s0.user = { id: '5511955554444:1@s.whatsapp.net' };
    s0.emit('connection.update', { connection: 'open' });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const acks = new Collector<WaAck>(svc.nc, `wa.ack.${companyId}.${c.id}.>`);
    try {
      const from = `1415${randomInt(1_000_000, 9_999_999)}`;
      s0.emit('messages.upsert', {
        messages: [
          {
            key: { remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id: wid() },
            message: { conversation: 'hello' },
            messageTimestamp: 1,
          },
        ],
        type: 'notify',
      });
      await waitFor(async () => (await remembered(companyId)).some((r) => r.number === from) || undefined);
      const reply: WaOutboundSend = { companyId, connectionId: c.id, waMessageId: wid(), to: from, body: 'Hi!', ticketId: 1, messageId: 1 };
      await svc.bus.publish(WaSubjects.outbound(c.id), reply, { msgId: WaSubjects.outboundMsgId(reply.waMessageId) });
      await waitFor(async () => s0.sent.some((s) => s.options?.messageId === reply.waMessageId) || undefined, { timeoutMs: 5000 });
      expect(s0.sent.map((s) => s.jid)).toEqual([`${from}@s.whatsapp.net`]);
      expect(s0.lookedUp).toEqual([]);
      expect(acks.items.some((x) => x.data.waMessageId === reply.waMessageId && !!x.data.failed)).toBe(false);
    } finally {
      acks.close();
    }
  });
});

describe('sandbox: a number that wrote to the connection is on WhatsApp', () => {
  it('an 11-digit sender gets its reply sent (after a restart too); a 12-digit one is known by the jid it wrote from', async () => {
    const { companyId, token } = company();
    const c = await createConnection(svc, token, { name: 'Sandbox', channel: 'sandbox' });
    created.push({ id: c.id, token });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const box = async () => (await svc.http.get(`/whatsappsession/${c.id}/sandbox/outbox`, { token })).body.items as SandboxOutboxItem[];
    const send = (to: string, body: string): WaOutboundSend => ({
      companyId,
      connectionId: c.id,
      waMessageId: wid(),
      to,
      body,
      ticketId: 1,
      messageId: randomInt(1e6),
    });
    const publish = (m: WaOutboundSend) =>
      svc.bus.publish(WaSubjects.outbound(c.id), m, { msgId: WaSubjects.outboundMsgId(m.waMessageId) });
    const check = (number: string) => request(svc.bus, sessionCommandSubject(c.id), { action: 'check', number }, { timeoutMs: 5000 });
    const from = `1415${randomInt(1_000_000, 9_999_999)}`;
    const stranger = `1415${randomInt(1_000_000, 9_999_999)}`;
    const oldForm = brMobile(31);

    let acks = new Collector<WaAck>(svc.nc, `wa.ack.${companyId}.${c.id}.>`);
    try {
      // an 11-digit number that never wrote is not on the sandbox's WhatsApp
      const cold = send(stranger, 'Olá?');
      await publish(cold);
      expect((await acks.waitFor((a) => a.data.waMessageId === cold.waMessageId && !!a.data.failed, 5_000)).data.failed).toMatch(
        /^ERR_WAPP_INVALID_CONTACT/,
      );

      for (const [number, body] of [
        [from, 'hello'],
        [oldForm.old, 'oi'],
      ] as const)
        expect((await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { from: number, body } })).status).toBe(202);
      // tickets replies to the contact's number (the 9th digit added to the old form)
      const replies = [send(from, 'Hi!'), send(oldForm.canonical, 'Oi!')];
      for (const r of replies) await publish(r);
      await waitFor(async () => {
        const items = await box();
        return replies.every((r) => items.some((i) => i.waMessageId === r.waMessageId)) || undefined;
      });
      expect(acks.items.some((a) => replies.some((r) => r.waMessageId === a.data.waMessageId) && !!a.data.failed)).toBe(false);
      expect(await check(from)).toEqual({ ok: true, result: { exists: true, jid: `${from}@s.whatsapp.net` } });
      expect(await check(oldForm.canonical)).toEqual({ ok: true, result: { exists: true, jid: `${oldForm.old}@s.whatsapp.net` } });
    } finally {
      acks.close();
    }

    // whatsapp-sessions restarts: the number that wrote is still on WhatsApp
    await svc.close();
    svc = await startSessions(
      companies,
      {},
      {
        baileysSocketFactory: (config) => {
          const s = new FakeSocket(config, serviceWhatsapp);
          serviceSockets.push(s);
          return s.asBaileys();
        },
      },
    );
    await waitFor(async () => svc.runner.isRunning(c.id) || undefined, { timeoutMs: 15_000 });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    acks = new Collector<WaAck>(svc.nc, `wa.ack.${companyId}.${c.id}.>`);
    try {
      const later = send(from, 'Still there?');
      await publish(later);
      await waitFor(async () => (await box()).some((i) => i.waMessageId === later.waMessageId) || undefined, { timeoutMs: 10_000 });
      expect(acks.items.some((a) => a.data.waMessageId === later.waMessageId && !!a.data.failed)).toBe(false);
    } finally {
      acks.close();
    }
  }, 90_000);
});
