import { EventEmitter } from 'node:events';
import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Boom } from '@hapi/boom';
import {
  BufferJSON,
  Curve,
  encryptedStream,
  DisconnectReason,
  proto,
  WAMessageStubType,
  type AnyMessageContent,
  type AuthenticationCreds,
  type MiscMessageGenerationOptions,
  type UserFacingSocketConfig,
  type WAMessage,
} from '@whiskeysockets/baileys';
import {
  sessionCommandSubject,
  WaSubjects,
  type ConnectionSessionEvent,
  type WaAck,
  type WaAcks,
  type WaInboundMessage,
  type WaOutboundSend,
} from '@wa/contracts';
import { request } from '@wa/event-bus';
import { pdfFile, pngFile, TEST_REDIS_URL, waitFor } from '@wa/testing';
import { Redis } from 'ioredis';
import { SessionLeases } from '../../src/runtime/session-leases.js';
import { MediaStorage } from '@wa/server-kit';
import { createServer, type Server } from 'node:http';
import { readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { BaileysSocket } from '../../src/runtime/providers/baileys/baileys.provider.js';
import { BaileysProvider } from '../../src/runtime/providers/baileys/baileys.provider.js';
import { AuthStateStore, usePostgresAuthState } from '../../src/runtime/providers/baileys/postgres-auth-state.js';
import { ProviderFactory } from '../../src/runtime/providers/provider-factory.js';
import { SandboxProvider } from '../../src/runtime/providers/sandbox/sandbox.provider.js';
import {
  Collector,
  cleanup,
  companyPool,
  connectionOf,
  createConnection,
  heldOn,
  lastOn,
  startSessions,
  storedOn,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
  socketOf,
  socketsOf,
} from './harness.js';

/** Stands in for Baileys' socket where WhatsApp cannot be reached: the test emits what WhatsApp would make it emit. */
class ScriptedSocket {
  readonly ev = new EventEmitter();
  user: { id: string; name?: string } | undefined;
  readonly sent: Array<{ jid: string; content: AnyMessageContent; options?: MiscMessageGenerationOptions }> = [];
  ended = false;
  loggedOut = false;

  constructor(readonly config: UserFacingSocketConfig) {}

  /** the bytes of each file sent, read from its stream while sending (as Baileys encrypts and uploads it) */
  readonly files: Buffer[] = [];

  async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions) {
    this.sent.push({ jid, content, options });
    const media = Object.values(content as Record<string, unknown>).find(
      (v): v is { stream: Readable } => typeof v === 'object' && v !== null && 'stream' in v,
    );
    if (media) this.files.push(await readAll(media.stream));
    return { key: { remoteJid: jid, fromMe: true, id: options?.messageId } } as WAMessage;
  }

  /** WhatsApp's directory as this test scripts it: number → the jid WhatsApp answers for it */
  readonly directory = new Map<string, string>();
  readonly lookedUp: string[][] = [];
  /** WhatsApp cannot be asked (the usync query fails) */
  lookupFails = false;

  /** as Baileys 7's: the numbers WhatsApp knows, each `{ jid, exists: true }`; one it does not know is left out */
  async onWhatsApp(...phoneNumbers: string[]) {
    this.lookedUp.push(phoneNumbers);
    if (this.lookupFails) throw new Boom('Timed Out', { statusCode: 408 });
    return phoneNumbers.flatMap((n) => (this.directory.has(n) ? [{ jid: this.directory.get(n) as string, exists: true }] : []));
  }

  /** WhatsApp's answer when asked to upload an expired file again: scripted per test */
  reupload: (m: WAMessage) => Promise<WAMessage> = async () => {
    throw new Boom('media gone', { statusCode: 404 });
  };

  async updateMediaMessage(m: WAMessage) {
    return this.reupload(m);
  }

  async end() {
    this.ended = true;
  }

  async logout() {
    this.loggedOut = true;
  }

  /** the numbers a pairing code was asked for, and the code WhatsApp answers (Baileys' own: 8 characters) */
  readonly pairingAsked: string[] = [];
  pairingCode = 'ABCD1234';

  async requestPairingCode(phoneNumber: string) {
    this.pairingAsked.push(phoneNumber);
    return this.pairingCode;
  }

  /** WhatsApp's profile pictures as this test scripts them, by jid: a url, `hidden` (401), `slow` (a timeout); else none (404) */
  readonly pictures = new Map<string, string>();
  readonly picturesAsked: Array<{ jid: string; type?: string }> = [];

  async profilePictureUrl(jid: string, type?: 'image' | 'preview') {
    this.picturesAsked.push({ jid, type });
    const picture = this.pictures.get(jid);
    // as Baileys' query: an iq error becomes a Boom with its text and code (assertNodeErrorFree)
    if (picture === 'hidden') throw new Boom('not-authorized', { data: 401 });
    if (picture === 'slow') throw new Boom('Timed Out', { statusCode: 408 });
    if (picture === undefined) throw new Boom('item-not-found', { data: 404 });
    return picture;
  }

  get creds(): AuthenticationCreds {
    return this.config.auth.creds;
  }

  close(statusCode: number) {
    this.ev.emit('connection.update', {
      connection: 'close',
      lastDisconnect: { error: new Boom('closed', { statusCode }), date: new Date() },
    });
  }
}

const companies = companyPool(12);
let next = 0;
let svc: SessionsUnderTest;
const sockets: ScriptedSocket[] = [];
const created: Array<{ id: number; token: string }> = [];

beforeAll(async () => {
  svc = await startSessions(
    companies,
    // reconnects 20 ms after the first drop, 80 ms apart at most: many drops in a short test
    { BAILEYS_RECONNECT_BASE_MS: '20', BAILEYS_RECONNECT_MAX_MS: '80', BAILEYS_MAX_QR: '2' },
    {
      baileysSocketFactory: (config) => {
        const s = new ScriptedSocket(config);
        sockets.push(s);
        return s as unknown as BaileysSocket;
      },
    },
  );
});

afterAll(async () => {
  await cleanup(svc, created);
  await svc?.close();
});

function company() {
  const companyId = companies[next++]!;
  return { companyId, token: tokenFor(companyId) };
}

/** A connection row without a session (auth state needs one to belong to). */
async function bareConnection(companyId: number): Promise<number> {
  const rows = await svc.db.query(`INSERT INTO whatsapp.connections ("companyId", name, channel) VALUES ($1, $2, 'baileys') RETURNING id`, [
    companyId,
    `Bare ${randomInt(1e9)}`,
  ]);
  created.push({ id: rows[0].id, token: tokenFor(companyId) });
  return rows[0].id;
}

const json = (v: unknown) => JSON.stringify(v, BufferJSON.replacer);
const stateRows = async (connectionId: number) =>
  (await svc.db.query(`SELECT count(*)::int AS n FROM whatsapp.session_state WHERE "connectionId" = $1`, [connectionId]))[0].n as number;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('baileys: auth state in PostgreSQL', () => {
  it("round-trips Baileys' own creds and signal keys byte for byte, deletes keys set to null and forgets everything on clear", async () => {
    const { companyId } = company();
    const id = await bareConnection(companyId);
    const store = svc.app.get(AuthStateStore);
    const first = await usePostgresAuthState(store, id);
    const creds = first.state.creds;
    expect(creds.registered).toBe(false);
    creds.me = { id: '5511999990001:2@s.whatsapp.net', name: 'Loja' };
    creds.routingInfo = randomBytes(12);
    await first.saveCreds();

    const preKey = Curve.generateKeyPair();
    const session = new Uint8Array(randomBytes(180));
    const syncKey = proto.Message.AppStateSyncKeyData.fromObject({
      keyData: randomBytes(32),
      fingerprint: { rawId: 7, currentIndex: 1, deviceIndexes: [0, 1] },
      timestamp: 1_700_000_000,
    });
    const tctoken = { token: randomBytes(16), timestamp: '1700000000' };
    await first.state.keys.set({
      'pre-key': { '1': preKey, '2': Curve.generateKeyPair() },
      session: { '5511999990001.0': session },
      'sender-key-memory': { '120363025246125486@g.us': { '5511999990001:2@s.whatsapp.net': true } },
      'app-state-sync-key': { AAAAAKqr: syncKey },
      'lid-mapping': { '5511999990001': '123456789012345@lid' },
      'device-list': { '5511999990001': ['0', '2'] },
      tctoken: { '5511999990001@s.whatsapp.net': tctoken },
    });

    const again = await usePostgresAuthState(store, id);
    expect(json(again.state.creds)).toBe(json(creds));
    expect(Buffer.from(again.state.creds.noiseKey.private).equals(Buffer.from(creds.noiseKey.private))).toBe(true);
    expect(Buffer.from(again.state.creds.signedPreKey.signature).equals(Buffer.from(creds.signedPreKey.signature))).toBe(true);
    expect(again.state.creds.registrationId).toBe(creds.registrationId);

    const keys = again.state.keys;
    const preKeys = await keys.get('pre-key', ['1', '2', '3']);
    expect(Object.keys(preKeys).sort()).toEqual(['1', '2']);
    expect(Buffer.from(preKeys['1']!.private).equals(Buffer.from(preKey.private))).toBe(true);
    expect(Buffer.from(preKeys['1']!.public).equals(Buffer.from(preKey.public))).toBe(true);
    expect(Buffer.from((await keys.get('session', ['5511999990001.0']))['5511999990001.0']!).equals(Buffer.from(session))).toBe(true);
    const sync = (await keys.get('app-state-sync-key', ['AAAAAKqr']))['AAAAAKqr']!;
    expect(sync).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(sync.keyData!).equals(Buffer.from(syncKey.keyData!))).toBe(true);
    expect(json(sync)).toBe(json(syncKey));
    expect(await keys.get('sender-key-memory', ['120363025246125486@g.us'])).toEqual({
      '120363025246125486@g.us': { '5511999990001:2@s.whatsapp.net': true },
    });
    expect(await keys.get('lid-mapping', ['5511999990001'])).toEqual({ '5511999990001': '123456789012345@lid' });
    expect(await keys.get('device-list', ['5511999990001'])).toEqual({ '5511999990001': ['0', '2'] });
    const tc = (await keys.get('tctoken', ['5511999990001@s.whatsapp.net']))['5511999990001@s.whatsapp.net']!;
    expect(Buffer.from(tc.token).equals(tctoken.token)).toBe(true);

    await keys.set({ 'pre-key': { '1': null } });
    expect(Object.keys(await keys.get('pre-key', ['1', '2']))).toEqual(['2']);
    expect(await stateRows(id)).toBe(8); // creds + 7 keys left

    await again.clear();
    expect(await stateRows(id)).toBe(0);
    expect((await usePostgresAuthState(store, id)).state.creds.noiseKey.public).not.toEqual(creds.noiseKey.public);
  });

  it('keeps the creds and keys sealed in PostgreSQL (no key material in clear), restores them, and seals rows stored in clear at start', async () => {
    const { companyId } = company();
    const id = await bareConnection(companyId);
    const store = svc.app.get(AuthStateStore);
    const first = await usePostgresAuthState(store, id);
    const creds = first.state.creds;
    creds.me = { id: '5511999990002:2@s.whatsapp.net', name: 'Cofre' };
    await first.saveCreds();
    const preKey = Curve.generateKeyPair();
    await first.state.keys.set({ 'pre-key': { '9': preKey } });
    const raw = async () =>
      (await svc.db.query(`SELECT category, value FROM whatsapp.session_state WHERE "connectionId" = $1 ORDER BY category`, [
        id,
      ])) as Array<{ category: string; value: string }>;
    const rows = await raw();
    expect(rows.map((r) => r.category)).toEqual(['creds', 'pre-key']);
    const secrets = [creds.noiseKey.private, creds.signedIdentityKey.private, creds.signedPreKey.keyPair.private, preKey.private].map((k) =>
      Buffer.from(k).toString('base64'),
    );
    for (const r of rows) {
      expect(r.value).toMatch(/^enc:v1:/);
      for (const secret of secrets) expect(r.value).not.toContain(secret);
      expect(r.value).not.toContain('5511999990002');
    }
    // the session restores from them
    const again = await usePostgresAuthState(store, id);
    expect(json(again.state.creds)).toBe(json(creds));
    expect(Buffer.from((await again.state.keys.get('pre-key', ['9']))['9']!.private).equals(Buffer.from(preKey.private))).toBe(true);
    // a row from before sealing is read as it is, then sealed when the service starts
    await svc.db.query(`UPDATE whatsapp.session_state SET value = $2 WHERE "connectionId" = $1 AND category = 'pre-key'`, [
      id,
      json(preKey),
    ]);
    expect(Buffer.from((await again.state.keys.get('pre-key', ['9']))['9']!.private).equals(Buffer.from(preKey.private))).toBe(true);
    await store.onApplicationBootstrap();
    for (const r of await raw()) expect(r.value).toMatch(/^enc:v1:/);
    expect(Buffer.from((await again.state.keys.get('pre-key', ['9']))['9']!.private).equals(Buffer.from(preKey.private))).toBe(true);
    await again.clear();
  });

  it("picks the provider by the connection's channel", () => {
    const factory = svc.app.get(ProviderFactory);
    expect(factory.create({ id: 1, companyId: 1, channel: 'sandbox' })).toBeInstanceOf(SandboxProvider);
    expect(factory.create({ id: 1, companyId: 1, channel: 'baileys' })).toBeInstanceOf(BaileysProvider);
    expect(() => factory.create({ id: 1, companyId: 1, channel: 'telegram' as never })).toThrow(/unknown channel/);
  });
});

describe("baileys: a session driven by its socket's events", () => {
  it('shows the QR code, pairs, connects, receives, sends with acks, reconnects after a drop and ends on logout', async () => {
    const { companyId, token } = company();
    const events = new Collector<ConnectionSessionEvent>(svc.nc, `connection.session.${companyId}.>`);
    const acks = new Collector<WaAcks>(svc.nc, `wa.ack.${companyId}.>`);
    try {
      const c = await createConnection(svc, token, { name: 'WhatsApp real', channel: 'baileys' });
      created.push({ id: c.id, token });
      expect(c).toMatchObject({ channel: 'baileys', status: 'OPENING' });
      const s0 = await socketOf(sockets, c.id);
      expect(s0.config.auth.creds.registered).toBe(false);
      s0.ev.emit('creds.update', {});
      await waitFor(async () => (await stateRows(c.id)) === 1);

      s0.ev.emit('connection.update', { qr: '2@QR-ONE,abc,def' });
      const qr = await waitForStatus(svc, token, c.id, 'qrcode');
      expect(qr.qrcode).toBe('2@QR-ONE,abc,def');
      expect((await events.waitFor((e) => e.data.status === 'qrcode')).data.qrcode).toBe('2@QR-ONE,abc,def');

      s0.ev.emit('connection.update', { isNewLogin: true });
      expect((await waitForStatus(svc, token, c.id, 'PAIRING')).qrcode).toBe('');
      // after pairing WhatsApp asks for a new connection: reconnect at once, with the stored creds
      s0.close(DisconnectReason.restartRequired);
      const s1 = await socketOf(sockets, c.id, 1);
      expect(json(s1.creds.noiseKey)).toBe(json(s0.creds.noiseKey));
      s1.user = { id: '5511977776666:4@s.whatsapp.net', name: 'Loja' };
      s1.ev.emit('connection.update', { connection: 'open' });
      const up = await waitForStatus(svc, token, c.id, 'CONNECTED');
      expect(up).toMatchObject({ number: '5511977776666', retries: 0, qrcode: '' });

      // received messages, in Baileys' shapes
      const from = `55319${randomInt(10_000_000, 99_999_999)}`;
      const incoming = proto.WebMessageInfo.fromObject({
        key: { remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id: 'BAE5F00D0001' },
        pushName: 'Cliente',
        messageTimestamp: Math.floor(Date.now() / 1000),
        message: { extendedTextMessage: { text: 'quero comprar' } },
      });
      const status = proto.WebMessageInfo.fromObject({
        key: { remoteJid: 'status@broadcast', id: 'STATUS1', participant: `${from}@s.whatsapp.net` },
        message: { conversation: 'meu status' },
      });
      s1.ev.emit('messages.upsert', { messages: [status, incoming], type: 'notify' });
      const subject = WaSubjects.inbound(companyId, c.id, from);
      await waitFor(async () => (await storedOn(svc.jsm, subject)) === 1);
      const stored = await lastOn(svc.jsm, subject);
      expect(stored.msgId).toBe(`${c.id}:BAE5F00D0001`);
      expect(stored.data).toMatchObject({ from, fromName: 'Cliente', body: 'quero comprar', waMessageId: 'BAE5F00D0001' });

      // a send goes out through the socket with tickets' message id, to the jid the number just wrote from (not
      // asked: whoever writes is on WhatsApp); acks follow
      s1.directory.set(from, `${from}@s.whatsapp.net`);
      const send: WaOutboundSend = {
        companyId,
        connectionId: c.id,
        waMessageId: `3EB0${randomBytes(8).toString('hex').toUpperCase()}`,
        to: from,
        body: 'Temos sim!',
        ticketId: 3,
        messageId: 9,
      };
      await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
      await waitFor(async () => s1.sent.length === 1);
      expect(s1.sent[0]).toMatchObject({
        jid: `${from}@s.whatsapp.net`,
        content: { text: 'Temos sim!' },
        options: { messageId: send.waMessageId },
      });
      // Baileys echoes our own send as an upsert: it is not an inbound message
      s1.ev.emit('messages.upsert', {
        messages: [
          proto.WebMessageInfo.fromObject({
            key: { remoteJid: `${from}@s.whatsapp.net`, fromMe: true, id: send.waMessageId },
            message: { conversation: 'Temos sim!' },
          }),
        ],
        type: 'append',
      });
      s1.ev.emit('messages.update', [
        {
          key: { remoteJid: `${from}@s.whatsapp.net`, fromMe: true, id: send.waMessageId },
          update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK },
        },
      ]);
      const delivered = await acks.waitFor((a) => a.data.acks.some((x) => x.ack === 3));
      expect(delivered.data.acks).toEqual([{ waMessageId: send.waMessageId, ack: 3 }]);
      expect(delivered.subject).toBe(WaSubjects.acks(companyId, c.id));
      const row = await svc.db.query(`SELECT state, ack FROM whatsapp.sent_messages WHERE "connectionId" = $1 AND "waMessageId" = $2`, [
        c.id,
        send.waMessageId,
      ]);
      expect(row[0]).toEqual({ state: 'sent', ack: 3 });
      expect(await storedOn(svc.jsm, subject)).toBe(1);

      // a number check goes to WhatsApp through Baileys' onWhatsApp; WhatsApp answers its own jid (the
      // old form of a Brazilian mobile, without the 9th digit); a number it does not know is not on it
      s1.directory.set('5531987654321', '553187654321@s.whatsapp.net');
      const check = (number: string) => request(svc.bus, sessionCommandSubject(c.id), { action: 'check', number }, { timeoutMs: 5000 });
      expect(await check('5531987654321')).toEqual({ ok: true, result: { exists: true, jid: '553187654321@s.whatsapp.net' } });
      expect(await check('5531900000000')).toEqual({ ok: true, result: { exists: false, jid: null } });
      // (the send above was not looked up: its number had written)
      expect(s1.lookedUp).toEqual([['5531987654321'], ['5531900000000']]);

      // a Brazilian mobile WhatsApp knows by its old form is sent to that jid: the check above remembered it
      const again = (n: number): WaOutboundSend => ({
        ...send,
        waMessageId: `3EB0${randomBytes(8).toString('hex').toUpperCase()}`,
        to: '5531987654321',
        messageId: 10 + n,
      });
      for (const n of [1, 2]) await svc.bus.publish(WaSubjects.outbound(c.id), again(n), { msgId: `send-old-form-${n}-${c.id}` });
      await waitFor(async () => s1.sent.length === 3);
      expect(s1.sent.slice(1).map((x) => x.jid)).toEqual(['553187654321@s.whatsapp.net', '553187654321@s.whatsapp.net']);
      expect(s1.lookedUp.filter(([n]) => n === '5531987654321')).toHaveLength(1);

      // many numbers (a campaign's contact list) go to WhatsApp in one onWhatsApp query, each answered in the order
      // asked (one WhatsApp knows by its old form matched to the number asked); what cannot be a number is not asked
      const checkMany = (numbers: unknown) =>
        request(svc.bus, sessionCommandSubject(c.id), { action: 'checkMany', numbers }, { timeoutMs: 5000 });
      s1.directory.set('5511912345678', '5511912345678@s.whatsapp.net');
      // a Mexican mobile WhatsApp names without its old 1
      s1.directory.set('5215512345678', '525512345678@s.whatsapp.net');
      const lookups = s1.lookedUp.length;
      expect(await checkMany(['5531987654321', '5511912345678', '5531900000000', 'abc', '5215512345678'])).toEqual({
        ok: true,
        result: {
          results: [
            { number: '5531987654321', exists: true, jid: '553187654321@s.whatsapp.net' },
            { number: '5511912345678', exists: true, jid: '5511912345678@s.whatsapp.net' },
            { number: '5531900000000', exists: false, jid: null },
            { number: 'abc', exists: false, jid: null },
            { number: '5215512345678', exists: true, jid: '525512345678@s.whatsapp.net' },
          ],
        },
      });
      expect(s1.lookedUp.slice(lookups)).toEqual([['5531987654321', '5511912345678', '5531900000000', '5215512345678']]);
      // more than NUMBER_CHECK_MANY_MAX: refused, WhatsApp not asked
      expect(await checkMany(Array.from({ length: 101 }, (_, i) => `55119${String(10_000_000 + i)}`))).toMatchObject({
        ok: false,
        code: 'ERR_VALIDATION',
      });
      expect(s1.lookedUp).toHaveLength(lookups + 1);

      // the connection drops: TIMEOUT while reconnecting, CONNECTED again on the new socket
      s1.close(DisconnectReason.connectionLost);
      expect((await waitForStatus(svc, token, c.id, 'TIMEOUT')).retries).toBe(1);
      const s2 = await socketOf(sockets, c.id, 2);
      // the old socket is dead to us
      s1.ev.emit('messages.upsert', {
        messages: [
          proto.WebMessageInfo.fromObject({
            key: { remoteJid: `${from}@s.whatsapp.net`, id: 'LATE1' },
            message: { conversation: 'tarde' },
          }),
        ],
        type: 'notify',
      });
      s2.user = s1.user;
      s2.ev.emit('connection.update', { connection: 'open' });
      expect((await waitForStatus(svc, token, c.id, 'CONNECTED')).retries).toBe(0);
      expect(await storedOn(svc.jsm, subject)).toBe(1);

      // unpaired on the phone
      s2.close(DisconnectReason.loggedOut);
      await waitForStatus(svc, token, c.id, 'DISCONNECTED');
      expect(svc.runner.isRunning(c.id)).toBe(false);
      expect(await stateRows(c.id)).toBe(0);
      expect(events.items.map((e) => e.data.status)).toEqual([
        'OPENING',
        'qrcode',
        'PAIRING',
        'CONNECTED',
        'TIMEOUT',
        'CONNECTED',
        'DISCONNECTED',
      ]);

      const notSandbox = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { from, body: 'x' } });
      expect(notSandbox.status).toBe(400);
      expect(notSandbox.body.message).toMatch(/not a sandbox connection/);
      expect((await svc.http.get(`/whatsappsession/${c.id}/sandbox/outbox`, { token })).status).toBe(400);
    } finally {
      events.close();
      acks.close();
    }
  });

  it('keeps reconnecting a dropped session past five drops in a row, with its pairing; a logout while reconnecting stops it DISCONNECTED', async () => {
    const { companyId, token } = company();
    const events = new Collector<ConnectionSessionEvent>(svc.nc, `connection.session.${companyId}.>`);
    try {
      const c = await createConnection(svc, token, { name: 'Instável', channel: 'baileys' });
      created.push({ id: c.id, token });
      const s0 = await socketOf(sockets, c.id);
      s0.ev.emit('creds.update', {});
      await waitFor(async () => (await stateRows(c.id)) === 1);
      s0.user = { id: '5511966665555:3@s.whatsapp.net' };
      s0.ev.emit('connection.update', { connection: 'open' });
      await waitForStatus(svc, token, c.id, 'CONNECTED');

      // the network goes away: every new socket drops again before it opens
      const drops = 8;
      let current = s0;
      for (let n = 1; n <= drops; n++) {
        current.close(n % 2 ? DisconnectReason.connectionLost : DisconnectReason.timedOut);
        const nextSocket = await socketOf(sockets, c.id, n);
        expect(current.ended).toBe(true);
        // each reconnect opens with the stored pairing, not a new one
        expect(json(nextSocket.creds.noiseKey)).toBe(json(s0.creds.noiseKey));
        current = nextSocket;
      }
      expect(svc.runner.isRunning(c.id)).toBe(true);
      const reconnecting = await connectionOf(svc, token, c.id);
      expect(reconnecting).toMatchObject({ status: 'TIMEOUT', retries: drops });
      await waitFor(async () => events.items.length >= drops + 2);
      expect(events.items.map((e) => e.data.status)).toEqual(['OPENING', 'CONNECTED', ...Array<string>(drops).fill('TIMEOUT')]);

      // back online: CONNECTED, the count starts over
      current.user = s0.user;
      current.ev.emit('connection.update', { connection: 'open' });
      expect((await waitForStatus(svc, token, c.id, 'CONNECTED')).retries).toBe(0);
      current.close(DisconnectReason.connectionClosed);
      expect((await waitForStatus(svc, token, c.id, 'TIMEOUT')).retries).toBe(1);

      // unpaired on the phone while reconnecting: DISCONNECTED (the spec's "try again" / "new QR" state), pairing forgotten, no more sockets
      const last = await socketOf(sockets, c.id, drops + 1);
      last.close(DisconnectReason.loggedOut);
      const loggedOut = await waitForStatus(svc, token, c.id, 'DISCONNECTED');
      expect(loggedOut).toMatchObject({ retries: 0, qrcode: '' });
      expect(svc.runner.isRunning(c.id)).toBe(false);
      expect(await stateRows(c.id)).toBe(0);
      // told as a logout (campaigns stop on it); the drops before were no such end
      expect((await events.waitFor((e) => e.data.status === 'DISCONNECTED')).data.reason).toBe('logged_out');
      expect(events.items.filter((e) => e.data.status === 'TIMEOUT').every((e) => e.data.reason === null)).toBe(true);
      const socketsAfterLogout = socketsOf(sockets, c.id).length;
      await sleep(400); // five times the longest reconnect pause
      expect(socketsOf(sockets, c.id)).toHaveLength(socketsAfterLogout);
      expect((await connectionOf(svc, token, c.id)).status).toBe('DISCONNECTED');
    } finally {
      events.close();
    }
  });

  it('ends a banned session (403) as a logout, DISCONNECTED with its pairing forgotten, told with the reason banned', async () => {
    const { companyId, token } = company();
    const events = new Collector<ConnectionSessionEvent>(svc.nc, `connection.session.${companyId}.>`);
    try {
      const c = await createConnection(svc, token, { name: 'Banido', channel: 'baileys' });
      created.push({ id: c.id, token });
      const s0 = await socketOf(sockets, c.id);
      s0.ev.emit('creds.update', {});
      await waitFor(async () => (await stateRows(c.id)) === 1);
      s0.user = { id: '5511955554444:2@s.whatsapp.net' };
      s0.ev.emit('connection.update', { connection: 'open' });
      await waitForStatus(svc, token, c.id, 'CONNECTED');
      expect((await events.waitFor((e) => e.data.status === 'CONNECTED')).data.reason).toBeNull();

      s0.close(DisconnectReason.forbidden);
      expect(await waitForStatus(svc, token, c.id, 'DISCONNECTED')).toMatchObject({ retries: 0, qrcode: '' });
      const ended = await events.waitFor((e) => e.data.status === 'DISCONNECTED');
      expect(ended.data).toMatchObject({ connectionId: c.id, reason: 'banned', session: { id: c.id, status: 'DISCONNECTED' } });
      expect(svc.runner.isRunning(c.id)).toBe(false);
      expect(await stateRows(c.id)).toBe(0);
      await sleep(200);
      expect(socketsOf(sockets, c.id)).toHaveLength(1);
    } finally {
      events.close();
    }
  });

  it('gives up after the allowed QR codes (DISCONNECTED); "try again" opens a new socket', async () => {
    const { token } = company();
    const c = await createConnection(svc, token, { name: 'Sem leitura', channel: 'baileys' });
    created.push({ id: c.id, token });
    const s0 = await socketOf(sockets, c.id);
    s0.ev.emit('connection.update', { qr: 'QR-A' });
    await waitForStatus(svc, token, c.id, 'qrcode');
    s0.ev.emit('connection.update', { qr: 'QR-B' });
    await waitFor(async () => (await connectionOf(svc, token, c.id)).qrcode === 'QR-B');
    s0.ev.emit('connection.update', { qr: 'QR-C' }); // BAILEYS_MAX_QR=2
    expect((await waitForStatus(svc, token, c.id, 'DISCONNECTED')).qrcode).toBe('');
    expect(svc.runner.isRunning(c.id)).toBe(false);
    expect(s0.ended).toBe(true);

    expect((await svc.http.post(`/whatsappsession/${c.id}`, { token })).status).toBe(200);
    const s1 = await socketOf(sockets, c.id, 1);
    s1.ev.emit('connection.update', { qr: 'QR-D' });
    expect((await waitForStatus(svc, token, c.id, 'qrcode')).qrcode).toBe('QR-D');
  });
});

/** WhatsApp's media servers as this test runs them: encrypted files by path, on this machine. */
describe('baileys: fencing', () => {
  it("a session whose lease another replica took writes no credentials and no keys (the new holder's stay)", async () => {
    const { token } = company();
    const c = await createConnection(svc, token, { name: 'Fenced', channel: 'baileys' });
    created.push({ id: c.id, token });
    const s0 = await socketOf(sockets, c.id);
    s0.ev.emit('creds.update', {});
    await waitFor(async () => (await stateRows(c.id)) === 1);
    const stored = await svc.db.query(`SELECT value FROM whatsapp.session_state WHERE "connectionId" = $1`, [c.id]);

    // another replica takes the session over (a new epoch): this one may still run it until its renewal notices
    const redis = new Redis(TEST_REDIS_URL);
    try {
      await redis.set(SessionLeases.key(c.id), 'another-replica', 'PX', 30_000);
      await redis.incr(SessionLeases.epochKey(c.id));
      s0.config.auth.creds.registered = true;
      s0.ev.emit('creds.update', {});
      await expect(s0.config.auth.keys.set({ 'pre-key': { '1': { public: randomBytes(32), private: randomBytes(32) } } })).rejects.toThrow(
        /another replica's/,
      );
      await sleep(300);
      expect(await stateRows(c.id)).toBe(1);
      expect(await svc.db.query(`SELECT value FROM whatsapp.session_state WHERE "connectionId" = $1`, [c.id])).toEqual(stored);
    } finally {
      await redis.del(SessionLeases.key(c.id));
      redis.disconnect();
    }
  });
});

async function mediaServer(files: Map<string, Buffer>): Promise<{ server: Server; url: (path: string) => string }> {
  const server = createServer((req, res) => {
    const body = files.get(req.url ?? '');
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: (path) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}` };
}

/** A file encrypted as WhatsApp keeps it, with the fields a message carries to fetch and decrypt it. */
async function encrypted(data: Buffer, type: 'image' | 'document') {
  const enc = await encryptedStream(data, type);
  const bytes = await readFile(enc.encFilePath);
  await rm(enc.encFilePath, { force: true });
  return {
    bytes,
    fields: { mediaKey: enc.mediaKey, fileSha256: enc.fileSha256, fileEncSha256: enc.fileEncSha256, fileLength: enc.fileLength },
  };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('baileys: media both ways', () => {
  it('downloads and decrypts a received photo through Baileys before publishing it; a file WhatsApp will not give goes on as ERR_WAPP_DOWNLOAD_MEDIA; a sent file streams to the socket', async () => {
    const { companyId, token } = company();
    const files = new Map<string, Buffer>();
    const media = await mediaServer(files);
    try {
      const c = await createConnection(svc, token, { name: 'WhatsApp mídia', channel: 'baileys' });
      created.push({ id: c.id, token });
      const s0 = await socketOf(sockets, c.id);
      s0.user = { id: '5511977770000:1@s.whatsapp.net' };
      s0.ev.emit('connection.update', { connection: 'open' });
      await waitForStatus(svc, token, c.id, 'CONNECTED');
      const from = `55219${randomInt(10_000_000, 99_999_999)}`;
      s0.directory.set(from, `${from}@s.whatsapp.net`);

      const photo = pngFile({ size: 16, rgb: [10, 200, 30] });
      const photoEnc = await encrypted(photo, 'image');
      files.set('/v/t62.7118-24/photo.enc', photoEnc.bytes);
      const doc = await encrypted(pdfFile('pedido'), 'document');
      // the document's file is gone from the server (404) and the phone will not upload it again
      const at = (id: string) => ({ remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id });
      s0.ev.emit('messages.upsert', {
        type: 'notify',
        messages: [
          proto.WebMessageInfo.fromObject({
            key: at('BAE5PHOTO0001'),
            messageTimestamp: Math.floor(Date.now() / 1000),
            message: {
              imageMessage: { url: media.url('/v/t62.7118-24/photo.enc'), mimetype: 'image/png', caption: 'a peça', ...photoEnc.fields },
            },
          }),
          proto.WebMessageInfo.fromObject({
            key: at('BAE5DOC00002'),
            messageTimestamp: Math.floor(Date.now() / 1000),
            message: {
              documentMessage: { url: media.url('/v/gone.enc'), mimetype: 'application/pdf', fileName: 'Pedido 12.pdf', ...doc.fields },
            },
          }),
        ],
      });
      const subject = WaSubjects.inbound(companyId, c.id, from);
      await waitFor(async () => (await storedOn(svc.jsm, subject)) === 2, { timeoutMs: 15_000 });
      // one upsert of two: published together, in their order
      const [photoHeld, docHeld] = await heldOn<WaInboundMessage>(svc.jsm, subject);
      expect(photoHeld!.seq).toBe(docHeld!.seq);
      const docEvent = docHeld!.data;
      expect(docEvent).toMatchObject({
        waMessageId: 'BAE5DOC00002',
        mediaType: 'application',
        body: 'Pedido 12.pdf',
        mediaError: 'ERR_WAPP_DOWNLOAD_MEDIA',
      });
      expect(docEvent.media ?? null).toBeNull();
      const photoEvent = photoHeld!.data;
      expect(photoEvent).toMatchObject({
        waMessageId: 'BAE5PHOTO0001',
        mediaType: 'image',
        body: 'a peça',
        media: { key: `${companyId}/in-${c.id}-BAE5PHOTO0001/BAE5PHOTO0001.png`, mimetype: 'image/png', size: photo.length },
      });
      const storage = svc.app.get(MediaStorage);
      const kept = await storage.get(photoEvent.media!.key);
      expect((await readAll(kept!.stream)).equals(photo)).toBe(true);

      // a file sent by an agent: read from the media storage and handed to Baileys as a stream
      const key = `${companyId}/${randomBytes(8).toString('hex')}/orcamento.pdf`;
      await storage.put(key, Readable.from([pdfFile('orçamento')]));
      const send: WaOutboundSend = {
        companyId,
        connectionId: c.id,
        waMessageId: `3EB0${randomBytes(8).toString('hex').toUpperCase()}`,
        to: from,
        body: 'orcamento.pdf',
        ticketId: 3,
        messageId: 11,
        media: { key, mimetype: 'application/pdf', fileName: 'orcamento.pdf', size: pdfFile('orçamento').length, mediaType: 'application' },
      };
      await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
      await waitFor(async () => s0.sent.length === 1);
      const content = s0.sent[0]!.content as { mimetype: string; fileName: string; caption?: string };
      expect(content).toMatchObject({ mimetype: 'application/pdf', fileName: 'orcamento.pdf' });
      expect(content.caption).toBeUndefined();
      expect(s0.files[0]?.equals(pdfFile('orçamento'))).toBe(true);

      // an edit and a deletion for everyone go through Baileys' sendMessage with the message's key
      const ask = (cmd: object) => request(svc.bus, sessionCommandSubject(c.id), cmd, { timeoutMs: 5000 });
      expect(await ask({ action: 'edit', to: from, waMessageId: send.waMessageId, fromMe: true, text: 'orçamento corrigido' })).toEqual({
        ok: true,
      });
      expect(await ask({ action: 'delete', to: from, waMessageId: send.waMessageId, fromMe: true })).toEqual({ ok: true });
      const sentKey = { remoteJid: `${from}@s.whatsapp.net`, id: send.waMessageId, fromMe: true };
      expect(s0.sent.slice(1).map((x) => x.content)).toEqual([{ text: 'orçamento corrigido', edit: sentKey }, { delete: sentKey }]);

      // the address book as WhatsApp syncs it: phone numbers kept with their names, groups and LIDs without a number left out
      s0.ev.emit('contacts.upsert', [
        { id: '5511911112222@s.whatsapp.net', name: 'Fornecedor' },
        { id: '5511933334444@s.whatsapp.net', notify: 'Cliente VIP' },
        { id: '120363025246125486@g.us', name: 'Grupo' },
        { id: '123456789012345@lid', name: 'Sem número' },
        { id: '123456789012346@lid', phoneNumber: '5511955556666@s.whatsapp.net', name: 'Com LID' },
      ]);
      s0.ev.emit('contacts.update', [{ id: '5511933334444@s.whatsapp.net', name: 'Cliente VIP (Loja)' }]);
      expect(await ask({ action: 'contacts', page: 1, pageSize: 10 })).toEqual({
        ok: true,
        result: {
          contacts: [
            { number: '5511911112222', name: 'Fornecedor' },
            { number: '5511933334444', name: 'Cliente VIP (Loja)' },
            { number: '5511955556666', name: 'Com LID' },
          ],
          hasMore: false,
        },
      });
    } finally {
      media.server.close();
    }
  });
});

describe('baileys: a number not on WhatsApp', () => {
  it('fails a send at once with ERR_WAPP_INVALID_CONTACT when onWhatsApp does not know the number, never putting it on the socket; other chats go on; WhatsApp unreachable: sent as given', async () => {
    const { companyId, token } = company();
    const c = await createConnection(svc, token, { name: 'WhatsApp saiu', channel: 'baileys' });
    created.push({ id: c.id, token });
    const s0 = await socketOf(sockets, c.id);
    s0.user = { id: '5511955554444:1@s.whatsapp.net' };
    s0.ev.emit('connection.update', { connection: 'open' });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const acks = new Collector<WaAck>(svc.nc, `wa.ack.${companyId}.${c.id}.>`);
    const phone = () => `44${randomInt(1_000_000_000, 9_999_999_999)}`;
    const send = (to: string, body: string): WaOutboundSend => ({
      companyId,
      connectionId: c.id,
      waMessageId: `3EB0${randomBytes(8).toString('hex').toUpperCase()}`,
      to,
      body,
      ticketId: 5,
      messageId: randomInt(1e6),
    });
    const publish = (m: WaOutboundSend) =>
      svc.bus.publish(WaSubjects.outbound(c.id), m, { msgId: WaSubjects.outboundMsgId(m.waMessageId) });
    try {
      // WhatsApp knows one customer; the other left it (Baileys' onWhatsApp leaves such a number out of its answer)
      const known = phone();
      const gone = phone();
      s0.directory.set(known, `${known}@s.whatsapp.net`);
      const first = send(gone, 'Olá?');
      const reply = send(known, 'Resposta a outro cliente');
      const started = Date.now();
      await publish(first);
      await publish(reply);
      const failed = await acks.waitFor((a) => a.data.waMessageId === first.waMessageId && !!a.data.failed, 5_000);
      expect(failed.data).toMatchObject({ ack: 0 });
      expect(failed.data.failed).toMatch(/^ERR_WAPP_INVALID_CONTACT/);
      await waitFor(async () => s0.sent.some((x) => x.options?.messageId === reply.waMessageId), { timeoutMs: 5_000 });
      // at the first refusal, well before a retry's back-off
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(s0.sent.map((x) => x.jid)).toEqual([`${known}@s.whatsapp.net`]);
      // each number asked once, on its own (two chats' sends run side by side: either may ask first)
      expect([...s0.lookedUp].sort()).toEqual([[gone], [known]].sort());

      // the next send to it fails without asking WhatsApp again
      const again = send(gone, 'De novo?');
      await publish(again);
      expect((await acks.waitFor((a) => a.data.waMessageId === again.waMessageId && !!a.data.failed, 3_000)).data.failed).toMatch(
        /^ERR_WAPP_INVALID_CONTACT/,
      );
      expect(s0.lookedUp.filter(([n]) => n === gone)).toHaveLength(1);

      // WhatsApp cannot be asked: no verdict on the number, the message goes as given
      s0.lookupFails = true;
      const unknown = phone();
      const blind = send(unknown, 'Sem consulta');
      await publish(blind);
      await waitFor(async () => s0.sent.some((x) => x.options?.messageId === blind.waMessageId), { timeoutMs: 5_000 });
      expect(s0.sent.at(-1)?.jid).toBe(`${unknown}@s.whatsapp.net`);
      expect(acks.items.some((a) => a.data.waMessageId === blind.waMessageId && !!a.data.failed)).toBe(false);
    } finally {
      acks.close();
    }
  });
});

describe('baileys: the pairing code and profile pictures', () => {
  it("asks Baileys' requestPairingCode with the digits on a session showing its QR and answers XXXX-XXXX; a picture WhatsApp has none of or hides is none", async () => {
    const { token } = company();
    const c = await createConnection(svc, token, { name: 'WhatsApp por código', channel: 'baileys' });
    created.push({ id: c.id, token });
    const s0 = await socketOf(sockets, c.id);
    s0.ev.emit('connection.update', { qr: '2@QR-CODE,abc,def' });
    await waitForStatus(svc, token, c.id, 'qrcode');

    const number = `55119${randomInt(10_000_000, 99_999_999)}`;
    const res = await svc.http.post(`/whatsappsession/${c.id}/pairing-code`, { token, body: { number } });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { code: 'ABCD-1234' } });
    expect(s0.pairingAsked).toEqual([number]);
    // WhatsApp gives no code (the socket's query fails): a 4xx with the spec's code, never a 500
    s0.requestPairingCode = async () => {
      throw new Boom('Connection Closed', { statusCode: DisconnectReason.connectionClosed });
    };
    const refused = await svc.http.post(`/whatsappsession/${c.id}/pairing-code`, { token, body: { number } });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'ERR_WAPP_NOT_INITIALIZED' });

    // the phone took the code: it pairs as after a QR scan
    s0.user = { id: `${number}:3@s.whatsapp.net`, name: 'Loja' };
    s0.ev.emit('connection.update', { connection: 'open' });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const again = await svc.http.post(`/whatsappsession/${c.id}/pairing-code`, { token, body: { number } });
    expect({ status: again.status, error: again.body.error }).toEqual({ status: 400, error: 'ERR_WAPP_NOT_INITIALIZED' });
    expect(s0.pairingAsked).toEqual([number]);

    const ask = (to: string) =>
      request<{ ok: boolean; code?: string; result?: { url: string | null } }>(
        svc.bus,
        sessionCommandSubject(c.id),
        { action: 'profilePicture', to },
        { timeoutMs: 5000 },
      );
    // a customer WhatsApp knows without the 9th digit: asked under that jid, the full picture
    const customer = `55319${randomInt(10_000_000, 99_999_999)}`;
    const jid = `5531${customer.slice(5)}@s.whatsapp.net`;
    s0.directory.set(customer, jid);
    s0.pictures.set(jid, 'https://pps.whatsapp.net/v/t61/cliente.jpg');
    expect(await ask(customer)).toEqual({ ok: true, result: { url: 'https://pps.whatsapp.net/v/t61/cliente.jpg' } });
    expect(s0.picturesAsked.at(-1)).toEqual({ jid, type: 'image' });

    const without = `55119${randomInt(10_000_000, 99_999_999)}`;
    s0.directory.set(without, `${without}@s.whatsapp.net`);
    expect(await ask(without)).toEqual({ ok: true, result: { url: null } });
    s0.pictures.set(`${without}@s.whatsapp.net`, 'hidden');
    expect(await ask(without)).toEqual({ ok: true, result: { url: null } });
    // WhatsApp did not answer: not "none", the asker tries again later
    s0.pictures.set(`${without}@s.whatsapp.net`, 'slow');
    expect(await ask(without)).toMatchObject({ ok: false, code: 'ERR_SERVICE_UNAVAILABLE' });
    // a group's picture under its own jid
    const group = `120363${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}`;
    s0.pictures.set(`${group}@g.us`, 'https://pps.whatsapp.net/v/t61/grupo.jpg');
    expect(await ask(group)).toEqual({ ok: true, result: { url: 'https://pps.whatsapp.net/v/t61/grupo.jpg' } });
  });
});

describe('baileys: a message Baileys could not decrypt, then its resend', () => {
  it("publishes a CIPHERTEXT stub waiting (ciphertext, no body) and the same key with its content as the resend replacing it; Baileys' own retry manager is on", async () => {
    const { companyId, token } = company();
    const c = await createConnection(svc, token, { name: 'WhatsApp cifrado', channel: 'baileys' });
    created.push({ id: c.id, token });
    const s0 = await socketOf(sockets, c.id);
    // Baileys answers a decryption failure with a retry receipt to the sender and a placeholder resend asked of the
    // phone (messages-recv.js: sendRetryRequest, requestPlaceholderResend) through its retry manager: kept on
    expect(s0.config.enableRecentMessageCache).toBe(true);
    s0.user = { id: '5511977775555:3@s.whatsapp.net' };
    s0.ev.emit('connection.update', { connection: 'open' });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const from = `55219${randomInt(10_000_000, 99_999_999)}`;
    const key = { remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id: `3A${randomInt(1e9)}CIPHER` };
    const sentAt = Math.floor(Date.now() / 1000) - 30;
    const subject = WaSubjects.inbound(companyId, c.id, from);

    // as decode-wa-message.js leaves a message it could not decrypt: no content, the reason as the stub's parameter
    const stub = proto.WebMessageInfo.fromObject({
      key,
      messageTimestamp: sentAt,
      pushName: 'Cliente',
      messageStubType: WAMessageStubType.CIPHERTEXT,
      messageStubParameters: ['No session record'],
    });
    s0.ev.emit('messages.upsert', { type: 'notify', messages: [stub] });
    await waitFor(async () => (await storedOn(svc.jsm, subject)) === 1, { timeoutMs: 10_000 });
    const waiting = await lastOn<WaInboundMessage>(svc.jsm, subject);
    expect(waiting.msgId).toBe(WaSubjects.inboundMsgId(c.id, key.id));
    expect(waiting.data).toMatchObject({
      waMessageId: key.id,
      from,
      fromName: 'Cliente',
      body: '',
      mediaType: 'ciphertext',
      resend: 'waiting',
      timestamp: sentAt * 1000,
      fromMe: false,
      isGroup: false,
    });
    // the stub again (the sender's retry could not be decrypted either): the same event, dropped
    s0.ev.emit('messages.upsert', { type: 'notify', messages: [stub] });

    // the phone's resend: the same key, now with the content (a placeholder resend comes as a `notify` upsert)
    const resend = proto.WebMessageInfo.fromObject({
      key,
      messageTimestamp: sentAt,
      pushName: 'Cliente',
      message: { conversation: 'quero o boleto' },
    });
    s0.ev.emit('messages.upsert', { type: 'notify', messages: [resend] });
    await waitFor(async () => (await storedOn(svc.jsm, subject)) === 2, { timeoutMs: 10_000 });
    const replacing = await lastOn<WaInboundMessage>(svc.jsm, subject);
    expect(replacing.msgId).toBe(WaSubjects.resentMsgId(c.id, key.id));
    expect(replacing.data).toMatchObject({ waMessageId: key.id, from, body: 'quero o boleto', mediaType: 'chat', resend: 'replaces' });

    // both delivered again (the retry receipt's answer and the placeholder resend can both arrive): nothing new
    s0.ev.emit('messages.upsert', { type: 'notify', messages: [stub, resend] });
    const marker = proto.WebMessageInfo.fromObject({
      key: { ...key, id: `3A${randomInt(1e9)}AFTER` },
      messageTimestamp: sentAt + 1,
      message: { conversation: 'depois' },
    });
    s0.ev.emit('messages.upsert', { type: 'notify', messages: [marker] });
    await waitFor(async () => (await lastOn<WaInboundMessage>(svc.jsm, subject)).data.body === 'depois', { timeoutMs: 10_000 });
    expect(await storedOn(svc.jsm, subject)).toBe(3);
  });
});
