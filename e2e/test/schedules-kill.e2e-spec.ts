import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signAccessToken } from '@wa/auth';
import { createDataSource, runMigrations } from '@wa/database';
import { HttpClient, TEST_DATABASE_URL, TEST_JWT_SECRET, waitFor } from '@wa/testing';
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { whatsappDatabase } from '../../services/whatsapp-sessions/src/database/data-source.js';
import { startProcess, startProcesses, stopProcesses, type ServiceProcess } from './processes.js';

const companyId = 500_000 + randomInt(1, 99_999_999);
// a user id far from auth's: revocations in Redis are per user id, and other suites revoke their users' tokens
const token = signAccessToken({ id: 1_999_999_002, companyId, profile: 'admin', super: false, sid: randomUUID() }, TEST_JWT_SECRET);
const sessionsEnv = { SESSION_COMPANY_IDS: String(companyId), SESSION_LEASE_TTL_MS: '3000', SESSION_LEASE_RENEW_MS: '1000' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let workers: ServiceProcess[] = [];
let sessions: ServiceProcess | undefined;
let db: DataSource;
let connectionId: number;
let contactId: number;

const api = () => new HttpClient((workers.find((w) => w.child.exitCode === null && w.child.signalCode === null) as ServiceProcess).url);

/** How many times each text was stored in tickets and handed to the phone (the sandbox's outbox). */
async function countsOf(prefix: string): Promise<{ stored: Map<string, number>; sent: Map<string, number> }> {
  const stored: Array<{ body: string; n: number }> = await db.query(
    `SELECT body, count(*)::int AS n FROM tickets.messages WHERE "companyId" = $1 AND "fromMe" AND body LIKE $2 GROUP BY body`,
    [companyId, `${prefix}%`],
  );
  const sent: Array<{ body: string; n: number }> = await db.query(
    `SELECT body, count(*)::int AS n FROM whatsapp.sandbox_outbox WHERE "connectionId" = $1 AND body LIKE $2 GROUP BY body`,
    [connectionId, `${prefix}%`],
  );
  return { stored: new Map(stored.map((r) => [r.body, r.n])), sent: new Map(sent.map((r) => [r.body, r.n])) };
}

async function scheduleMany(prefix: string, n: number, firstInMs: number, spreadMs: number): Promise<number[]> {
  const ids: number[] = [];
  const base = Date.now() + firstInMs;
  for (let i = 0; i < n; i++) {
    const res = await api().post('/schedules', {
      token,
      body: { body: `${prefix} ${i}`, contactId, sendAt: new Date(base + Math.round((spreadMs * i) / n)).toISOString() },
    });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

async function expectSentOnce(prefix: string, ids: number[]): Promise<void> {
  await waitFor(
    async () => {
      const rows: Array<{ n: number }> = await db.query(
        `SELECT count(*)::int AS n FROM tickets.schedules WHERE id = ANY($1::int[]) AND status = 'ENVIADA'`,
        [ids],
      );
      return rows[0]?.n === ids.length;
    },
    { timeoutMs: 50_000, intervalMs: 250 },
  );
  // every one reached the phone: nothing lost, nothing twice
  const counts = await waitFor(
    async () => {
      const c = await countsOf(prefix);
      return c.sent.size === ids.length ? c : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 250 },
  );
  await sleep(1500);
  const settled = await countsOf(prefix);
  expect([...settled.stored.values()].filter((n) => n !== 1)).toEqual([]);
  expect([...settled.sent.values()].filter((n) => n !== 1)).toEqual([]);
  expect(settled.stored.size).toBe(ids.length);
  expect(counts.sent.size).toBe(ids.length);
}

beforeAll(async () => {
  await runMigrations(ticketsDatabase(TEST_DATABASE_URL));
  await runMigrations(whatsappDatabase(TEST_DATABASE_URL));
  db = createDataSource(whatsappDatabase(TEST_DATABASE_URL, 1));
  await db.initialize();
  // two tickets processes: two workers of the schedules queue
  const started = await startProcesses({
    one: { service: 'tickets', env: {} },
    two: { service: 'tickets', env: {} },
    sessions: { service: 'whatsapp-sessions', env: sessionsEnv },
  });
  workers = [started.one, started.two];
  sessions = started.sessions;
  const http = new HttpClient(sessions.url);
  const created = await http.post('/whatsapp', { token, body: { name: 'Agenda', channel: 'sandbox' } });
  connectionId = created.body.id;
  await waitFor(async () => (await http.get(`/whatsapp/${connectionId}`, { token })).body.status === 'CONNECTED');
  const from = `5511${randomInt(100_000_000, 999_999_999)}`;
  await http.post(`/whatsappsession/${connectionId}/sandbox/inbound`, { token, body: { from, name: 'Cliente Agenda', body: 'oi' } });
  const ticket = await waitFor(async () => (await api().get(`/tickets?showAll=true&searchParam=${from}`, { token })).body.tickets?.[0]);
  contactId = ticket.contact.id;
  // tickets knows the connection is up before anything is due
  await waitFor(
    async () => (await db.query(`SELECT status FROM tickets.connections WHERE id = $1`, [connectionId]))[0]?.status === 'CONNECTED',
  );
}, 120_000);

afterAll(async () => {
  await stopProcesses([sessions, ...workers], 'SIGKILL');
  await db?.destroy();
});

describe('scheduled messages under kills (BullMQ delayed jobs)', () => {
  it('30 schedules due around 2 s, two workers, one SIGKILLed at their time and restarted: each sent exactly once', async () => {
    const ids = await scheduleMany('kill-at-due', 30, 1500, 1000);
    await sleep(2000);
    await workers[0]!.stop('SIGKILL');
    await sleep(500);
    workers[0] = await startProcess('tickets');
    await expectSentOnce('kill-at-due', ids);
  }, 120_000);

  it('schedules survive a restart of every service: killed before their time, restarted after it, each sent exactly once', async () => {
    const ids = await scheduleMany('all-restarted', 10, 3000, 500);
    await stopProcesses([sessions, ...workers], 'SIGKILL');
    // everything is down when they fall due
    await sleep(4500);
    const restarted = await startProcesses({ tickets: {}, 'whatsapp-sessions': sessionsEnv });
    sessions = restarted['whatsapp-sessions'];
    workers = [restarted.tickets];
    await expectSentOnce('all-restarted', ids);
    // sent late, but sent: after their time, never before
    const early: Array<{ n: number }> = await db.query(
      `SELECT count(*)::int AS n FROM tickets.schedules WHERE id = ANY($1::int[]) AND "sentAt" < "sendAt"`,
      [ids],
    );
    expect(early[0]?.n).toBe(0);
  }, 120_000);
});
