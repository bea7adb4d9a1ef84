import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDataSource, runMigrations } from '@wa/database';
import { EventBus } from '@wa/event-bus';
import { HttpClient, randomIp, TEST_DATABASE_URL, TEST_NATS_URL, TEST_REDIS_URL, uniqueEmail, waitFor } from '@wa/testing';
import { io, type Socket } from 'socket.io-client';
import type { DataSource } from 'typeorm';
import { createCompanyWithAdmin, ensureFullPlan, isoDateFromNow } from '../../services/auth/src/database/companies.js';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { whatsappDatabase } from '../../services/whatsapp-sessions/src/database/data-source.js';
import { CuttableProxy } from './cuttable-proxy.js';
import { startMessagePath, stopProcesses, type ServiceProcess } from './processes.js';

/**
 * Long outages under load: customers write at a steady ~100 messages/s while PostgreSQL, then NATS, then
 * Redis are unreachable for OUTAGE_S each (60 s by default) from tickets, whatsapp-sessions and
 * realtime-gateway (a proxy the test cuts; the machine's servers keep running). Every message the sandbox
 * accepted must be stored exactly once, in its conversation's order, none dead-lettered, and reach the
 * live socket.
 */
const OUTAGE_MS = Number(process.env.OUTAGE_S ?? 60) * 1000;
/** which servers go away, one after the other (OUTAGES=nats to try one) */
const OUTAGES = (process.env.OUTAGES ?? 'postgres,nats,redis').split(',') as Array<'postgres' | 'nats' | 'redis'>;
const CONTACTS = 50;
const PER_CONTACT_EVERY_MS = 500; // 50 contacts × 2 messages/s = 100 messages/s
const REQUEST_TIMEOUT_MS = 30_000;

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const running: ServiceProcess[] = [];
const proxies = {
  postgres: new CuttableProxy('127.0.0.1', Number(new URL(TEST_DATABASE_URL).port || 5432)),
  nats: new CuttableProxy('127.0.0.1', Number(new URL(TEST_NATS_URL).port || 4222)),
  redis: new CuttableProxy('127.0.0.1', Number(new URL(TEST_REDIS_URL).port || 6379)),
};
let http: HttpClient;
let socket: Socket | undefined;
let db: DataSource;
let bus: EventBus;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sent {
  body: string;
  status: number | 'timeout' | 'error';
  phase: string;
}

beforeAll(async () => {
  for (const d of [authDatabase, ticketsDatabase, whatsappDatabase]) await runMigrations(d(TEST_DATABASE_URL));
  for (const p of Object.values(proxies)) await p.start();
  const through = {
    DATABASE_URL: proxies.postgres.via(TEST_DATABASE_URL),
    NATS_URL: proxies.nats.via(TEST_NATS_URL),
    REDIS_URL: proxies.redis.via(TEST_REDIS_URL),
  };
  const services = await startMessagePath({ tickets: through, 'whatsapp-sessions': through, 'realtime-gateway': through });
  running.push(...Object.values(services));
  const gateway = services['messaging-gateway'];
  http = new HttpClient(gateway.url, { 'x-forwarded-for': randomIp() });
  db = createDataSource(ticketsDatabase(TEST_DATABASE_URL, 2));
  await db.initialize();
  bus = await EventBus.connect({ servers: TEST_NATS_URL, name: 'outage-test' });
}, 120_000);

afterAll(async () => {
  socket?.close();
  for (const p of Object.values(proxies)) await p.restore();
  // what the services counted and logged through the outages, for whoever reads a failure
  mkdirSync(join(root, 'reports/e2e-outage'), { recursive: true });
  for (const p of running) {
    const metrics = await fetch(`${p.url}/metrics`).then(
      (r) => r.text(),
      (err: unknown) => String(err),
    );
    writeFileSync(join(root, 'reports/e2e-outage', `${p.name}.metrics`), metrics);
  }
  await stopProcesses(running);
  for (const p of running) writeFileSync(join(root, 'reports/e2e-outage', `${p.name}.log`), p.output());
  for (const p of Object.values(proxies)) await p.close();
  await bus?.close();
  await db?.destroy();
});

async function newCompany() {
  const admin = { email: uniqueEmail('outage-admin'), password: 'secret123' };
  const ds = createDataSource(authDatabase(TEST_DATABASE_URL, 1));
  await ds.initialize();
  await ds.transaction(async (tx) => {
    const plan = await ensureFullPlan(tx);
    await createCompanyWithAdmin(tx, {
      name: 'Outage Co',
      dueDate: isoDateFromNow(30),
      planId: plan.id,
      admin: { name: 'Outage Admin', ...admin },
    });
  });
  await ds.destroy();
  const login = await http.post('/auth/login', { body: admin });
  expect(login.status).toBe(200);
  return { token: login.body.token as string, companyId: login.body.user.companyId as number };
}

/** A company with a connected sandbox connection and a queue, through the gateway. */
async function connectedCompany() {
  const { token, companyId } = await newCompany();
  const queue = await http.post('/queue', { token, body: { name: 'Atendimento', color: '#123456' } });
  expect(queue.status).toBe(201);
  const created = await http.post('/whatsapp', {
    token,
    body: { name: `Sandbox ${Date.now()}`, channel: 'sandbox', queueIds: [queue.body.id], isDefault: true },
  });
  expect(created.status).toBe(201);
  const connectionId = created.body.id as number;
  expect((await http.post(`/whatsappsession/${connectionId}`, { token })).status).toBeLessThan(300);
  await waitFor(async () => (await http.get(`/whatsapp/${connectionId}`, { token })).body.status === 'CONNECTED', { timeoutMs: 20_000 });
  return { token, companyId, connectionId };
}

describe('a reply while NATS is away', () => {
  it('answers success without waiting for NATS, and reaches the sandbox outbox exactly once after NATS returns', async () => {
    const { token, connectionId } = await connectedCompany();
    const from = `5511966${String(Date.now()).slice(-6)}`;
    expect(
      (await http.post(`/whatsappsession/${connectionId}/sandbox/inbound`, { token, body: { from, name: 'Rita', body: 'Oi' } })).status,
    ).toBeLessThan(300);
    const ticket = await waitFor(
      async () =>
        (await http.get('/tickets?status=pending', { token })).body.tickets?.find(
          (t: { contact?: { number?: string } }) => t.contact?.number === from,
        ),
      { timeoutMs: 20_000 },
    );
    expect((await http.put(`/tickets/${ticket.id}`, { token, body: { status: 'open' } })).status).toBe(200);
    // tickets hears that the connection is up through NATS too, maybe after the customer's message: a reply
    // goes through once it has (a cut before that would leave tickets thinking the connection is still opening)
    await waitFor(async () => (await http.post(`/messages/${ticket.id}`, { token, body: { body: 'Olá, Rita' } })).status === 201, {
      timeoutMs: 20_000,
    });

    await proxies.nats.cut();
    let reply: { status: number; body: { wid: string; ack: number } };
    try {
      // NATS stays away until the answer is in: an answer that waited for NATS would never come
      reply = await http.post(`/messages/${ticket.id}`, { token, body: { body: 'Respondendo sem NATS' } });
    } finally {
      await proxies.nats.restore();
    }
    expect(reply.status).toBe(201);
    expect(reply.body.ack).toBe(0);

    const sentOnce = async () =>
      ((await http.get(`/whatsappsession/${connectionId}/sandbox/outbox`, { token })).body.items as Array<{ waMessageId: string }>).filter(
        (i) => i.waMessageId === reply.body.wid,
      ).length;
    await waitFor(async () => (await sentOnce()) === 1, { timeoutMs: 60_000, intervalMs: 250 });
    // and the acks come back as for any reply
    await waitFor(
      async () =>
        ((await http.get(`/messages/${ticket.id}`, { token })).body.messages as Array<{ wid: string; ack: number }>).some(
          (m) => m.wid === reply.body.wid && m.ack >= 2,
        ),
      {
        timeoutMs: 30_000,
      },
    );
    await sleep(3000);
    expect(await sentOnce()).toBe(1);
  }, 120_000);
});

describe('long outages under a steady 100 messages/s', () => {
  it(
    'PostgreSQL, then NATS, then Redis unreachable: every accepted message stored once, in order, none dead-lettered, all seen live',
    async () => {
      const { token, companyId, connectionId } = await connectedCompany();

      // the live socket: straight to realtime-gateway, reconnecting as the console does
      const realtime = running.find((p) => p.name === 'realtime-gateway')!;
      const live = new Set<string>();
      socket = io(realtime.url, { path: '/socket.io', transports: ['websocket'], auth: { token } });
      socket.on('connect', () => {
        socket?.emit('joinTickets', 'pending');
        socket?.emit('joinNotification');
      });
      socket.on(`company-${companyId}-appMessage`, (p: { action: string; message?: { body?: string } }) => {
        if (p.action === 'create' && p.message?.body) live.add(p.message.body);
      });
      await waitFor(async () => socket?.connected, { timeoutMs: 10_000 });

      const dlqBefore = await deadLetters(companyId);
      const number = (k: number) => `5511977${String(companyId % 1000).padStart(3, '0')}${String(k).padStart(3, '0')}`;
      const sent: Sent[][] = Array.from({ length: CONTACTS }, () => []);
      let phase = 'before';
      let sending = true;

      // each contact writes every 500 ms, one message after the other (as a person does)
      const writers = Array.from({ length: CONTACTS }, async (_, k) => {
        await sleep((k * PER_CONTACT_EVERY_MS) / CONTACTS);
        for (let j = 0; sending; j++) {
          const started = Date.now();
          const at = phase; // the phase the message was sent in
          const body = `c${k}-m${j}`;
          let status: Sent['status'];
          try {
            const res = await fetch(
              `${running.find((p) => p.name === 'whatsapp-sessions')!.url}/whatsappsession/${connectionId}/sandbox/inbound`,
              {
                method: 'POST',
                headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
                body: JSON.stringify({ from: number(k), name: `Cliente ${k}`, body }),
                signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
              },
            );
            status = res.status;
            await res.arrayBuffer();
          } catch (err) {
            status = (err as Error).name === 'TimeoutError' ? 'timeout' : 'error';
          }
          sent[k].push({ body, status, phase: at });
          const wait = PER_CONTACT_EVERY_MS - (Date.now() - started);
          if (wait > 0) await sleep(wait);
        }
      });

      const accepted = () => sent.flat().filter((s) => typeof s.status === 'number' && s.status >= 200 && s.status < 300);
      const log = (text: string) => process.stderr.write(`outage: ${text}\n`);
      await sleep(5000);
      for (const name of OUTAGES) {
        phase = `${name} down`;
        const before = accepted().length;
        log(`${name} unreachable for ${OUTAGE_MS / 1000} s (accepted so far: ${before})`);
        await proxies[name].cut();
        await sleep(OUTAGE_MS);
        await proxies[name].restore();
        phase = `after ${name}`;
        log(`${name} back; accepted during the outage: ${accepted().length - before}`);
        await sleep(10_000);
      }
      sending = false;
      await Promise.all(writers);
      await waitFor(async () => socket?.connected, { timeoutMs: 30_000 });

      const ok = accepted();
      const byPhase = new Map<string, number>();
      for (const s of sent.flat()) byPhase.set(`${s.phase} ${s.status}`, (byPhase.get(`${s.phase} ${s.status}`) ?? 0) + 1);
      log(`sent ${sent.flat().length}, accepted ${ok.length}; ${[...byPhase].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
      expect(ok.length).toBeGreaterThan(500);
      // customers went on writing while PostgreSQL was away: the sandbox accepted, JetStream kept them
      if (OUTAGES.includes('postgres')) {
        expect(
          sent.flat().filter((s) => s.phase === 'postgres down' && typeof s.status === 'number' && s.status < 300).length,
        ).toBeGreaterThan((OUTAGE_MS / 1000) * 50);
      }

      // every accepted message stored, within two minutes of the end
      const storedBodies = async () =>
        new Set(
          ((await db.query(`SELECT body FROM tickets.messages WHERE "companyId" = $1`, [companyId])) as Array<{ body: string }>).map(
            (r) => r.body,
          ),
        );
      await waitFor(
        async () => {
          const stored = await storedBodies();
          return ok.every((s) => stored.has(s.body));
        },
        { timeoutMs: 120_000, intervalMs: 1000 },
      ).catch(async () => {
        const stored = await storedBodies();
        throw new Error(
          `not stored: ${ok
            .filter((s) => !stored.has(s.body))
            .map((s) => `${s.body} (${s.phase})`)
            .slice(0, 20)
            .join(', ')}`,
        );
      });

      // exactly once: no body twice, and nothing stored that was never sent
      const rows: Array<{ number: string; body: string }> = await db.query(
        `SELECT c.number, m.body FROM tickets.messages m JOIN tickets.contacts c ON c.id = m."contactId"
          WHERE m."companyId" = $1 ORDER BY c.number, m."sentAt", m.seq, m.id`,
        [companyId],
      );
      const bodies = rows.map((r) => r.body);
      expect(new Set(bodies).size).toBe(bodies.length);
      const everySent = new Set(sent.flat().map((s) => s.body));
      expect(bodies.filter((b) => !everySent.has(b))).toEqual([]);
      expect(Number((await db.query(`SELECT count(*) AS n FROM tickets.tickets WHERE "companyId" = $1`, [companyId]))[0].n)).toBe(CONTACTS);

      // each conversation in the order its customer wrote (over what the sandbox accepted)
      const acceptedSet = new Set(ok.map((s) => s.body));
      for (let k = 0; k < CONTACTS; k++) {
        const storedOrder = rows.filter((r) => r.number === number(k) && acceptedSet.has(r.body)).map((r) => r.body);
        const sentOrder = sent[k].filter((s) => acceptedSet.has(s.body)).map((s) => s.body);
        expect(storedOrder).toEqual(sentOrder);
      }

      // nothing dead-lettered for an outage
      const dlqAfter = await deadLetters(companyId);
      // on a failure, say why each was dead-lettered (its Dlq-* headers)
      expect({ deadLettered: dlqAfter - dlqBefore, why: dlqAfter === dlqBefore ? [] : await deadLetterReasons(companyId) }).toEqual({
        deadLettered: 0,
        why: [],
      });

      // the live socket got every accepted message once things were back
      await waitFor(async () => ok.every((s) => live.has(s.body)), { timeoutMs: 60_000, intervalMs: 500 }).catch(() => {
        throw new Error(
          `not seen live: ${ok.filter((s) => !live.has(s.body)).length} of ${ok.length}, e.g. ${ok
            .filter((s) => !live.has(s.body))
            .slice(0, 10)
            .map((s) => `${s.body} (${s.phase})`)
            .join(', ')}`,
        );
      });
      socket.close();
      socket = undefined;

      // and the product works as before: a new message is stored and seen live
      const after = await fetch(
        `${running.find((p) => p.name === 'whatsapp-sessions')!.url}/whatsappsession/${connectionId}/sandbox/inbound`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ from: number(0), name: 'Cliente 0', body: 'depois de tudo' }),
        },
      );
      expect(after.status).toBeLessThan(300);
      await waitFor(async () => (await storedBodies()).has('depois de tudo'), { timeoutMs: 20_000 });
    },
    OUTAGE_MS * 3 + 10 * 60_000,
  );
});

/** Why each dead letter of the company's inbound conversations was set aside: its subject and Dlq-* headers. */
async function deadLetterReasons(companyId: number): Promise<string[]> {
  const jsm = await bus.connection.jetstreamManager();
  const reasons: string[] = [];
  const { state } = await jsm.streams.info('DLQ');
  const prefix = /^dlq\.[^.]+\.wa\.[^.]+\./;
  // the newest few thousand dead letters are enough to find this run's
  for (let seq = state.last_seq; seq >= Math.max(state.first_seq, state.last_seq - 5000) && reasons.length < 50; seq--) {
    const m = await jsm.streams.getMessage('DLQ', { seq }).catch(() => null);
    if (!m || !prefix.test(m.subject) || m.subject.replace(prefix, '').split('.')[0] !== String(companyId)) continue;
    const h = (name: string) => m.header?.get(name) ?? '';
    reasons.push(
      `${m.subject}: ${h('Dlq-Error')} (durable ${h('Dlq-Durable')}, attempts ${h('Dlq-Attempts')}, deliveries ${h('Dlq-Delivery-Count')}, at ${h('Dlq-At')})`,
    );
  }
  return reasons;
}

/** Dead letters of the company's inbound conversations (subjects carry the company). */
async function deadLetters(companyId: number): Promise<number> {
  const jsm = await bus.connection.jetstreamManager();
  const info = await jsm.streams.info('DLQ', { subjects_filter: `dlq.*.wa.*.${companyId}.>` });
  return Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
}
