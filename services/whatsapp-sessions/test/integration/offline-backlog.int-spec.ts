import { EventEmitter } from 'node:events';
import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { proto, type UserFacingSocketConfig, type WAMessage } from '@whiskeysockets/baileys';
import { WaSubjects, type ConnectionSessionEvent, type WaInboundMessage } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import type { BaileysSocket } from '../../src/runtime/providers/baileys/baileys.provider.js';
import {
  Collector,
  cleanup,
  companyPool,
  createConnection,
  startSessions,
  storedOn,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
  socketOf,
} from './harness.js';

/**
 * The offline backlog (issue 42 §1, §4): what customers write while the phone has no network reaches the connection
 * on the reconnect, in the order written, each message with the time it was written (not of its arrival), each once,
 * and is counted per connection in /metrics. Through the sandbox phone (`POST …/sandbox/offline`) and at Baileys'
 * boundary (a `messages.upsert` of type `append`, as Baileys hands over the messages WhatsApp kept for an offline
 * phone), against the real PostgreSQL and NATS.
 */

/** Stands in for Baileys' socket: the test emits what WhatsApp would make it emit. */
class ScriptedSocket {
  readonly ev = new EventEmitter();
  user: { id: string; name?: string } | undefined;

  constructor(readonly config: UserFacingSocketConfig) {}

  async sendMessage(): Promise<WAMessage> {
    throw new Error('not sent in this test');
  }

  async onWhatsApp() {
    return [];
  }

  async updateMediaMessage(): Promise<never> {
    throw new Error('no media in this test');
  }

  async end() {}

  async logout() {}
}

const companies = companyPool(3);
let next = 0;
let svc: SessionsUnderTest;
const sockets: ScriptedSocket[] = [];
const created: Array<{ id: number; token: string }> = [];

beforeAll(async () => {
  svc = await startSessions(
    companies,
    // a dropped session tries again within 0.3 s, then 0.6 s apart at most: it comes back soon after the outage
    { BAILEYS_RECONNECT_BASE_MS: '300', BAILEYS_RECONNECT_MAX_MS: '600' },
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** WhatsApp's clock: whole seconds */
const second = (ms: number) => Math.floor(ms / 1000) * 1000;
const customer = () => `55119${randomInt(10_000_000, 99_999_999)}`;

/** The connection's backlog counter in this process' /metrics (0 before its first backlog). */
async function backlogOf(connectionId: number): Promise<number> {
  const res = await svc.http.get('/metrics');
  const line = new RegExp(`^whatsapp_sessions_backlog_messages_total\\{[^}]*connectionId="${connectionId}"[^}]*\\} (\\d+)`, 'm').exec(
    String(res.body),
  );
  return line ? Number(line[1]) : 0;
}

describe('the offline backlog through the sandbox phone: POST /whatsappsession/{id}/sandbox/offline {seconds}', () => {
  it('drops the session like a network loss, holds what customers write, and delivers it on the reconnect in the order written, with its own times, each once', async () => {
    const companyId = companies[next++]!;
    const token = tokenFor(companyId);
    const events = new Collector<ConnectionSessionEvent>(svc.nc, `connection.session.${companyId}.>`);
    const c = await createConnection(svc, token, { name: 'Sandbox' });
    created.push({ id: c.id, token });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const inbound = new Collector<WaInboundMessage>(svc.nc, `wa.inbound.${companyId}.${c.id}.>`);
    const [ana, bia] = [customer(), customer()];
    const write = async (from: string, body: string, id?: string) => {
      const before = Date.now();
      const res = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { from, body, ...(id ? { id } : {}) } });
      return { res, before, after: Date.now() };
    };
    try {
      const live = await write(ana, 'antes da queda');
      expect(live.res.status).toBe(202);
      await inbound.waitFor((m) => m.data.waMessageId === live.res.body.id);

      // not a number of seconds, or too long: 400s naming the field
      for (const seconds of [0, 601, 1.5, 'dois']) {
        const bad = await svc.http.post(`/whatsappsession/${c.id}/sandbox/offline`, { token, body: { seconds } });
        expect(bad.status).toBe(400);
        expect(JSON.stringify(bad.body)).toMatch(/seconds/);
      }

      const cut = await svc.http.post(`/whatsappsession/${c.id}/sandbox/offline`, { token, body: { seconds: 2 } });
      expect(cut).toMatchObject({ status: 200, body: { seconds: 2 } });
      const offlineAt = Date.now();
      expect((await waitForStatus(svc, token, c.id, 'TIMEOUT', 5000)).retries).toBeGreaterThanOrEqual(1);
      // already cut off: a second outage cannot begin
      expect(await svc.http.post(`/whatsappsession/${c.id}/sandbox/offline`, { token, body: { seconds: 2 } })).toMatchObject({
        status: 400,
        body: { error: 'ERR_WAPP_NOT_INITIALIZED' },
      });

      // customers write meanwhile: accepted (202 with the ids), held by WhatsApp for the phone
      const um = await write(ana, 'um');
      await sleep(1100);
      const dois = await write(bia, 'dois');
      const tres = await write(ana, 'três');
      // the phone's WhatsApp handed the same message over twice (a replay of its id)
      const replay = await write(ana, 'um', um.res.body.id);
      for (const w of [um, dois, tres, replay]) expect(w.res.status).toBe(202);
      expect(replay.res.body.id).toBe(um.res.body.id);
      // nothing reached the connection while it had no network
      expect(inbound.items.map((m) => m.data.body)).toEqual(['antes da queda']);
      expect((await svc.http.get(`/whatsapp/${c.id}`, { token })).body.status).toBe('TIMEOUT');

      await waitForStatus(svc, token, c.id, 'CONNECTED', 15_000);
      const reconnectedAt = Date.now();
      expect(reconnectedAt - offlineAt).toBeGreaterThanOrEqual(2000);
      // the live one and the three written meanwhile (the replay, handed over with them, is a repeat: never published)
      await waitFor(async () => inbound.items.length === 4, { timeoutMs: 10_000 });
      await sleep(300);
      expect(inbound.items).toHaveLength(4);

      // each conversation in the order written, each message with the second it was written (WhatsApp's clock)
      const of = (from: string) => inbound.items.filter((m) => m.data.from === from).map((m) => m.data);
      expect(of(ana).map((m) => m.body)).toEqual(['antes da queda', 'um', 'três']);
      expect(of(bia).map((m) => m.body)).toEqual(['dois']);
      const backlog = [
        { w: um, m: of(ana)[1]! },
        { w: dois, m: of(bia)[0]! },
        { w: tres, m: of(ana)[2]! },
      ];
      for (const { w, m } of backlog) {
        expect(m.waMessageId).toBe(w.res.body.id);
        expect(m.timestamp).toBeGreaterThanOrEqual(second(w.before));
        expect(m.timestamp).toBeLessThanOrEqual(w.after);
      }
      // written a second and more before it arrived (the outage), not stamped with its arrival
      expect(backlog[0]!.m.timestamp).toBeLessThan(reconnectedAt - 1000);
      expect(backlog[0]!.m.timestamp).toBeLessThan(backlog[1]!.m.timestamp);

      // stored once each on JetStream (the replay is the same message), counted once each as the connection's backlog
      expect(await storedOn(svc.jsm, WaSubjects.inbound(companyId, c.id, ana))).toBe(3);
      expect(await storedOn(svc.jsm, WaSubjects.inbound(companyId, c.id, bia))).toBe(1);
      await waitFor(async () => (await backlogOf(c.id)) === 3);

      // back online: a message goes through at once, and is no backlog
      const depois = await write(bia, 'depois da volta');
      expect(depois.res.status).toBe(202);
      await inbound.waitFor((m) => m.data.waMessageId === depois.res.body.id);
      // another drop and reconnect hands nothing over again
      const connectedSoFar = events.items.filter((e) => e.data.status === 'CONNECTED').length;
      expect(await svc.http.post(`/whatsappsession/${c.id}/sandbox/disconnect`, { token, body: { code: 408 } })).toMatchObject({
        status: 200,
      });
      await waitFor(async () => events.items.filter((e) => e.data.status === 'CONNECTED').length > connectedSoFar, { timeoutMs: 10_000 });
      await sleep(500);
      expect(await storedOn(svc.jsm, WaSubjects.inbound(companyId, c.id, ana))).toBe(3);
      expect(await storedOn(svc.jsm, WaSubjects.inbound(companyId, c.id, bia))).toBe(2);
      expect(await backlogOf(c.id)).toBe(3);
      // (each failed attempt during the outage tells TIMEOUT again)
      const statuses = events.items.map((e) => e.data.status).filter((s, i, all) => s !== 'OPENING' && s !== all[i - 1]);
      expect(statuses).toEqual(['CONNECTED', 'TIMEOUT', 'CONNECTED', 'TIMEOUT', 'CONNECTED']);
    } finally {
      events.close();
      inbound.close();
    }
  });

  it('keeps the backlog across a "try again" during the outage, and an unpaired phone gets nothing of it', async () => {
    const companyId = companies[next++]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Sandbox' });
    created.push({ id: c.id, token });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const from = customer();
    const subject = WaSubjects.inbound(companyId, c.id, from);
    const write = (body: string) => svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { from, body } });

    expect((await svc.http.post(`/whatsappsession/${c.id}/sandbox/offline`, { token, body: { seconds: 2 } })).status).toBe(200);
    await waitForStatus(svc, token, c.id, 'TIMEOUT', 5000);
    expect((await write('segurada')).status).toBe(202);
    // "try again": a new session while the phone still has no network; it comes back once the network does
    expect((await svc.http.post(`/whatsappsession/${c.id}`, { token })).status).toBe(200);
    await waitForStatus(svc, token, c.id, 'CONNECTED', 15_000);
    await waitFor(async () => (await storedOn(svc.jsm, subject)) === 1, { timeoutMs: 10_000 });
    await waitFor(async () => (await backlogOf(c.id)) === 1);

    // held during an outage, then the phone is unpaired (logout): the new pairing does not get it
    expect((await svc.http.post(`/whatsappsession/${c.id}/sandbox/offline`, { token, body: { seconds: 1 } })).status).toBe(200);
    await waitForStatus(svc, token, c.id, 'TIMEOUT', 5000);
    expect((await write('perdida com o pareamento')).status).toBe(202);
    expect((await svc.http.delete(`/whatsappsession/${c.id}`, { token })).status).toBe(200);
    await sleep(1200);
    expect((await svc.http.post(`/whatsappsession/${c.id}`, { token })).status).toBe(200);
    await waitForStatus(svc, token, c.id, 'CONNECTED', 15_000);
    await sleep(500);
    expect(await storedOn(svc.jsm, subject)).toBe(1);
  });
});

describe("the offline backlog at Baileys' boundary", () => {
  it('publishes the messages of an `append` upsert (what WhatsApp kept for an offline phone) in their order, with their own times, each once', async () => {
    const companyId = companies[next++]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'WhatsApp real', channel: 'baileys' });
    created.push({ id: c.id, token });
    const s0 = await socketOf(sockets, c.id);
    s0.user = { id: '5511977776666:4@s.whatsapp.net', name: 'Loja' };
    s0.ev.emit('connection.update', { connection: 'open' });
    await waitForStatus(svc, token, c.id, 'CONNECTED');

    const from = customer();
    const subject = WaSubjects.inbound(companyId, c.id, from);
    const writtenAt = Math.floor(Date.now() / 1000) - 120;
    // as Baileys builds them from the offline nodes (`t` is the time written, in seconds)
    const offline = (n: number, text: string): WAMessage =>
      proto.WebMessageInfo.fromObject({
        key: { remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id: `3A${randomBytes(9).toString('hex').toUpperCase()}` },
        pushName: 'Cliente',
        messageTimestamp: writtenAt + n * 30,
        message: n === 1 ? { conversation: text } : { extendedTextMessage: { text } },
      }) as WAMessage;
    const messages = [offline(0, 'oi, estão aí?'), offline(1, 'preciso de ajuda'), offline(2, 'alô?')];
    const inbound = new Collector<WaInboundMessage>(svc.nc, `wa.inbound.${companyId}.${c.id}.>`);
    try {
      s0.ev.emit('messages.upsert', { messages, type: 'append' });
      await waitFor(async () => (await storedOn(svc.jsm, subject)) === 3, { timeoutMs: 10_000 });
      // WhatsApp hands the same backlog over again (the phone had not acked it): nothing is stored twice
      s0.ev.emit('messages.upsert', { messages: messages.slice(1), type: 'append' });
      await sleep(500);
      expect(await storedOn(svc.jsm, subject)).toBe(3);
      // repeats, never published (this process published them a moment ago, in one batch)
      expect(inbound.items).toHaveLength(3);
      expect(new Set(inbound.items.map((i) => i.batchMsgId)).size).toBe(1);
      // the connection's backlog counts each once (the repeat was not new)
      expect(await backlogOf(c.id)).toBe(3);
      expect(inbound.items.slice(0, 3).map((m) => m.data)).toEqual(
        messages.map((m, n) =>
          expect.objectContaining({
            waMessageId: m.key.id,
            from,
            fromName: 'Cliente',
            body: ['oi, estão aí?', 'preciso de ajuda', 'alô?'][n],
            timestamp: (writtenAt + n * 30) * 1000,
          }),
        ),
      );
    } finally {
      inbound.close();
    }
  });
});
