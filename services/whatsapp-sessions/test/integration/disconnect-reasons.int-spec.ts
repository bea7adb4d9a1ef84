import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BufferJSON, DisconnectReason } from '@whiskeysockets/baileys';
import type { ConnectionSessionEvent } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import type { BaileysSocket } from '../../src/runtime/providers/baileys/baileys.provider.js';
import {
  Collector,
  cleanup,
  companyPool,
  connectionOf,
  createConnection,
  startSessions,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
  socketOf,
  socketsOf,
} from './harness.js';
import { ScriptedSocket } from './scripted-socket.js';

/**
 * The disconnect table (issue 42 §7) through the session runner: a Baileys session whose socket closes as Baileys'
 * closes (`connection.update` with `lastDisconnect.error` a Boom carrying WhatsApp's code), against the real
 * PostgreSQL (auth state, status) and NATS (`connection.session` events).
 */
const BASE_MS = 100;
const MAX_MS = 400;
const FAST_TRIES = 6;
const SLOW_MS = 1000;

const companies = companyPool(8);
let next = 0;
let svc: SessionsUnderTest;
const sockets: ScriptedSocket[] = [];
const created: Array<{ id: number; token: string }> = [];

beforeAll(async () => {
  svc = await startSessions(
    companies,
    {
      BAILEYS_RECONNECT_BASE_MS: String(BASE_MS),
      BAILEYS_RECONNECT_MAX_MS: String(MAX_MS),
      BAILEYS_RECONNECT_FAST_TRIES: String(FAST_TRIES),
      BAILEYS_RECONNECT_SLOW_MS: String(SLOW_MS),
      BAILEYS_BAD_SESSION_RETRIES: '2',
      BAILEYS_FALSE_LOGOUT_WINDOW_MS: '5000',
    },
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
const json = (v: unknown) => JSON.stringify(v, BufferJSON.replacer);
const stateRows = async (connectionId: number) =>
  (await svc.db.query(`SELECT count(*)::int AS n FROM whatsapp.session_state WHERE "connectionId" = $1`, [connectionId]))[0].n as number;

/** A Baileys connection whose first socket saved its pairing (one auth-state row), with its events collected. */
async function pairedConnection(name: string) {
  const companyId = companies[next++]!;
  const token = tokenFor(companyId);
  const events = new Collector<ConnectionSessionEvent>(svc.nc, `connection.session.${companyId}.>`);
  const c = await createConnection(svc, token, { name, channel: 'baileys' });
  created.push({ id: c.id, token });
  const s0 = await socketOf(sockets, c.id);
  s0.ev.emit('creds.update', {});
  await waitFor(async () => (await stateRows(c.id)) === 1);
  return { c, token, events, s0 };
}

describe('disconnect reasons: what a session does when WhatsApp closes it', () => {
  it('reopens at once on a 515; a 401 right after it is a false logout (restarted, pairing kept); the next 401 logs out', async () => {
    const { c, token, events, s0 } = await pairedConnection('Reinício');
    try {
      s0.ev.emit('connection.update', { isNewLogin: true });
      await waitForStatus(svc, token, c.id, 'PAIRING');

      // after pairing WhatsApp asks for a new connection: a new socket at once, same pairing, no retry counted
      s0.close(DisconnectReason.restartRequired);
      const s1 = await socketOf(sockets, c.id, 1);
      expect(json(s1.config.auth.creds.noiseKey)).toBe(json(s0.config.auth.creds.noiseKey));
      s1.open('5511944443333');
      expect(await waitForStatus(svc, token, c.id, 'CONNECTED')).toMatchObject({ retries: 0, number: '5511944443333' });

      // the reopened session hears a 401 within seconds: the known false logout, restarted with its pairing
      s1.close(DisconnectReason.loggedOut);
      const s2 = await socketOf(sockets, c.id, 2);
      expect(s1.ended).toBe(true);
      expect(json(s2.config.auth.creds.noiseKey)).toBe(json(s0.config.auth.creds.noiseKey));
      expect(await stateRows(c.id)).toBe(1);
      expect(svc.runner.isRunning(c.id)).toBe(true);
      s2.open('5511944443333');
      await waitFor(async () => events.items.filter((e) => e.data.status === 'CONNECTED').length === 2);
      expect((await connectionOf(svc, token, c.id)).status).toBe('CONNECTED');

      // one 515 excuses one 401: the next one is the phone logging out
      s2.close(DisconnectReason.loggedOut);
      await waitForStatus(svc, token, c.id, 'DISCONNECTED');
      expect(await stateRows(c.id)).toBe(0);
      expect((await events.waitFor((e) => e.data.status === 'DISCONNECTED')).data.reason).toBe('logged_out');
      expect(events.items.map((e) => [e.data.status, e.data.reason])).toEqual([
        ['OPENING', null],
        ['PAIRING', null],
        ['CONNECTED', null],
        ['CONNECTED', null],
        ['DISCONNECTED', 'logged_out'],
      ]);
      await sleep(3 * BASE_MS);
      expect(socketsOf(sockets, c.id)).toHaveLength(3);
    } finally {
      events.close();
    }
  });

  it('logs out on a lone 401: DISCONNECTED, pairing forgotten, told as logged_out, no reconnect', async () => {
    const { c, token, events, s0 } = await pairedConnection('Saiu');
    try {
      s0.open('5511944442222');
      await waitForStatus(svc, token, c.id, 'CONNECTED');
      s0.close(DisconnectReason.loggedOut);
      expect(await waitForStatus(svc, token, c.id, 'DISCONNECTED')).toMatchObject({ retries: 0, qrcode: '' });
      expect(await stateRows(c.id)).toBe(0);
      expect((await events.waitFor((e) => e.data.status === 'DISCONNECTED')).data.reason).toBe('logged_out');
      expect(svc.runner.isRunning(c.id)).toBe(false);
      await sleep(3 * BASE_MS);
      expect(socketsOf(sockets, c.id)).toHaveLength(1);
    } finally {
      events.close();
    }
  });

  it('stops on a 440 (another client took the session) with the reason replaced, keeping the pairing; starting again takes it back', async () => {
    const { c, token, events, s0 } = await pairedConnection('Tomada');
    try {
      s0.open('5511944441111');
      await waitForStatus(svc, token, c.id, 'CONNECTED');
      s0.close(DisconnectReason.connectionReplaced);
      // the connection keeps why it ended (the page shows it after a reload too)
      expect(await waitForStatus(svc, token, c.id, 'DISCONNECTED')).toMatchObject({ retries: 0, endReason: 'replaced' });
      const ended = await events.waitFor((e) => e.data.status === 'DISCONNECTED');
      expect(ended.data).toMatchObject({ connectionId: c.id, reason: 'replaced', session: { id: c.id, status: 'DISCONNECTED' } });
      expect(svc.runner.isRunning(c.id)).toBe(false);
      expect(await stateRows(c.id)).toBe(1);
      await sleep(3 * BASE_MS);
      expect(socketsOf(sockets, c.id)).toHaveLength(1);

      // the admin starts it again: the same pairing, no new QR code
      expect((await svc.http.post(`/whatsappsession/${c.id}`, { token })).status).toBe(200);
      const s1 = await socketOf(sockets, c.id, 1);
      expect(json(s1.config.auth.creds.noiseKey)).toBe(json(s0.config.auth.creds.noiseKey));
      // until it is back
      expect((await waitForStatus(svc, token, c.id, 'OPENING')).endReason).toBe('replaced');
      s1.open('5511944441111');
      expect((await waitForStatus(svc, token, c.id, 'CONNECTED')).endReason).toBeNull();
    } finally {
      events.close();
    }
  });

  it('retries a bad session (500) twice, then forgets the pairing (DISCONNECTED, logged_out)', async () => {
    const { c, token, events, s0 } = await pairedConnection('Sessão ruim');
    try {
      s0.open('5511944440000');
      await waitForStatus(svc, token, c.id, 'CONNECTED');
      s0.close(DisconnectReason.badSession);
      const s1 = await socketOf(sockets, c.id, 1);
      expect(await stateRows(c.id)).toBe(1);
      s1.close(DisconnectReason.badSession);
      const s2 = await socketOf(sockets, c.id, 2);
      expect((await connectionOf(svc, token, c.id)).retries).toBe(2);
      s2.close(DisconnectReason.badSession);
      await waitForStatus(svc, token, c.id, 'DISCONNECTED');
      expect(await stateRows(c.id)).toBe(0);
      expect(events.items.map((e) => [e.data.status, e.data.reason])).toEqual([
        ['OPENING', null],
        ['CONNECTED', null],
        ['TIMEOUT', null],
        ['TIMEOUT', null],
        ['DISCONNECTED', 'logged_out'],
      ]);
      await sleep(3 * MAX_MS);
      expect(socketsOf(sockets, c.id)).toHaveLength(3);
    } finally {
      events.close();
    }
  });

  it('keeps retrying any other close with growing, jittered pauses capped at the maximum, then slower, never giving up', async () => {
    const { c, token, events, s0 } = await pairedConnection('Instável');
    try {
      s0.open('5511944449999');
      await waitForStatus(svc, token, c.id, 'CONNECTED');
      // codes the table has no rule for, Baileys' own and not: 408, 428, 503, 499, none
      const codes = [
        DisconnectReason.connectionLost,
        DisconnectReason.connectionClosed,
        DisconnectReason.unavailableService,
        499,
        undefined,
        DisconnectReason.timedOut,
        DisconnectReason.connectionClosed,
        DisconnectReason.unavailableService,
      ];
      const pauses: number[] = [];
      let current = s0;
      for (const [i, code] of codes.entries()) {
        const closedAt = current.close(code);
        const nextSocket = await socketOf(sockets, c.id, i + 1);
        pauses.push(nextSocket.createdAt - closedAt);
        expect(json(nextSocket.config.auth.creds.noiseKey)).toBe(json(s0.config.auth.creds.noiseKey));
        current = nextSocket;
      }
      // attempt n waits between half its ceiling and the ceiling: 100, 200, 400 (the cap), 400, 400, 400; then 1000
      const ceilings = [BASE_MS, 2 * BASE_MS, MAX_MS, MAX_MS, MAX_MS, MAX_MS, SLOW_MS, SLOW_MS];
      pauses.forEach((pause, i) =>
        expect({ attempt: i + 1, atLeast: pause >= ceilings[i]! / 2 - 5 }).toEqual({ attempt: i + 1, atLeast: true }),
      );
      // capped: without the cap attempts 5 and 6 would wait 800 and 1600 ms at least
      expect(Math.max(...pauses.slice(2, FAST_TRIES))).toBeLessThan(2 * MAX_MS);
      expect(svc.runner.isRunning(c.id)).toBe(true);
      expect(await connectionOf(svc, token, c.id)).toMatchObject({ status: 'TIMEOUT', retries: codes.length });
      expect(await stateRows(c.id)).toBe(1);

      // back online: CONNECTED, the count starts over
      current.open('5511944449999');
      expect((await waitForStatus(svc, token, c.id, 'CONNECTED')).retries).toBe(0);
      expect(events.items.filter((e) => e.data.status === 'TIMEOUT').every((e) => e.data.reason === null)).toBe(true);
      expect(events.items.some((e) => e.data.status === 'DISCONNECTED')).toBe(false);
    } finally {
      events.close();
    }
  });
});

describe('disconnect reasons on the sandbox phone: POST /whatsappsession/{id}/sandbox/disconnect {code}', () => {
  async function sandboxConnection(name: string) {
    const companyId = companies[next++]!;
    const token = tokenFor(companyId);
    const events = new Collector<ConnectionSessionEvent>(svc.nc, `connection.session.${companyId}.>`);
    const c = await createConnection(svc, token, { name, channel: 'sandbox' });
    created.push({ id: c.id, token });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const disconnect = (code: unknown) => svc.http.post(`/whatsappsession/${c.id}/sandbox/disconnect`, { token, body: { code } });
    const connected = (n: number) => waitFor(async () => events.items.filter((e) => e.data.status === 'CONNECTED').length >= n);
    return { c, token, events, disconnect, connected };
  }

  it('reopens on a 515 and on a 401 right after it, logs out on the next 401', async () => {
    const { c, token, events, disconnect, connected } = await sandboxConnection('Sandbox reinício');
    try {
      await connected(1);
      expect(await disconnect(515)).toMatchObject({ status: 200, body: { code: 515 } });
      await connected(2);
      expect(await disconnect(401)).toMatchObject({ status: 200 });
      await connected(3);
      expect(await connectionOf(svc, token, c.id)).toMatchObject({ status: 'CONNECTED', retries: 0 });
      expect(await disconnect(401)).toMatchObject({ status: 200 });
      await waitForStatus(svc, token, c.id, 'DISCONNECTED');
      expect((await events.waitFor((e) => e.data.status === 'DISCONNECTED')).data.reason).toBe('logged_out');
      expect(events.items.map((e) => e.data.status)).toEqual(['OPENING', 'CONNECTED', 'CONNECTED', 'CONNECTED', 'DISCONNECTED']);
      // nothing left to close
      expect(await disconnect(401)).toMatchObject({ status: 400, body: { error: 'ERR_WAPP_NOT_INITIALIZED' } });
    } finally {
      events.close();
    }
  });

  it('reconnects after a drop (408) with a retry counted, stops on a 440 with the reason replaced, refuses a code that is none', async () => {
    const { c, token, events, disconnect, connected } = await sandboxConnection('Sandbox tomada');
    try {
      await connected(1);
      for (const code of ['515', 200, 600, 440.5, null]) {
        const res = await disconnect(code);
        expect({ code, status: res.status, error: res.body.error }).toEqual({ code, status: 400, error: 'ERR_VALIDATION' });
      }
      expect(await disconnect(408)).toMatchObject({ status: 200 });
      await connected(2);
      expect(events.items.map((e) => [e.data.status, e.data.session.retries])).toEqual([
        ['OPENING', 0],
        ['CONNECTED', 0],
        ['TIMEOUT', 1],
        ['CONNECTED', 0],
      ]);
      expect(await disconnect(440)).toMatchObject({ status: 200 });
      await waitForStatus(svc, token, c.id, 'DISCONNECTED');
      expect((await events.waitFor((e) => e.data.status === 'DISCONNECTED')).data.reason).toBe('replaced');
      expect(svc.runner.isRunning(c.id)).toBe(false);
    } finally {
      events.close();
    }
  });
});
