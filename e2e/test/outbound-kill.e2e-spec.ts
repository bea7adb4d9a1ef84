import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signAccessToken } from '@wa/auth';
import { createDataSource, runMigrations } from '@wa/database';
import { HttpClient, TEST_DATABASE_URL, TEST_JWT_SECRET, waitFor } from '@wa/testing';
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { whatsappDatabase } from '../../services/whatsapp-sessions/src/database/data-source.js';
import { startProcess, startProcesses, stopProcesses, type ServiceProcess } from './processes.js';

const REPLIES = 200;
const companyId = 500_000 + randomInt(1, 99_999_999);
// a user id far from auth's: revocations in Redis are per user id, and other suites revoke their users' tokens
const token = signAccessToken({ id: 1_999_999_001, companyId, profile: 'admin', super: false, sid: randomUUID() }, TEST_JWT_SECRET);
const sessionsEnv = { SESSION_COMPANY_IDS: String(companyId), SESSION_LEASE_TTL_MS: '3000', SESSION_LEASE_RENEW_MS: '1000' };

let tickets: ServiceProcess;
let sessions: ServiceProcess | undefined;
let db: DataSource;

beforeAll(async () => {
  await runMigrations(ticketsDatabase(TEST_DATABASE_URL));
  await runMigrations(whatsappDatabase(TEST_DATABASE_URL));
  db = createDataSource(whatsappDatabase(TEST_DATABASE_URL, 1));
  await db.initialize();
  ({ tickets, 'whatsapp-sessions': sessions } = await startProcesses({ tickets: {}, 'whatsapp-sessions': sessionsEnv }));
});

afterAll(async () => {
  await stopProcesses([sessions, tickets], 'SIGKILL');
  await db?.destroy();
});

describe('outbound under a kill', () => {
  it('every one of 200 replies reaches the outbox while whatsapp-sessions is SIGKILLed and restarted', async () => {
    const http = () => new HttpClient((sessions as ServiceProcess).url);
    const ticketsHttp = new HttpClient(tickets.url);
    const created = await http().post('/whatsapp', { token, body: { name: 'Kill Test', channel: 'sandbox' } });
    expect(created.status).toBe(201);
    const connectionId = created.body.id as number;
    await waitFor(async () => (await http().get(`/whatsapp/${connectionId}`, { token })).body.status === 'CONNECTED');
    const from = `5511${randomInt(100_000_000, 999_999_999)}`;
    await http().post(`/whatsappsession/${connectionId}/sandbox/inbound`, { token, body: { from, name: 'Cliente', body: 'oi' } });
    const ticket = await waitFor(
      async () => (await ticketsHttp.get(`/tickets?showAll=true&searchParam=${from}`, { token })).body.tickets?.[0],
    );

    const accepted: string[] = [];
    let refusals = 0;
    for (let i = 0; i < REPLIES; i++) {
      if (i === 60) {
        await (sessions as ServiceProcess).stop('SIGKILL');
        // a new process takes the session over once the dead one's lease runs out
        sessions = await startProcess('whatsapp-sessions', sessionsEnv);
      }
      for (;;) {
        const res = await ticketsHttp.post(`/messages/${ticket.id}`, { token, body: { body: `resposta ${i}` } });
        if (res.status === 201) {
          accepted.push(res.body.wid);
          break;
        }
        // while the session is being resumed tickets refuses the send, as the app would show
        expect(res.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
        refusals++;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(accepted).toHaveLength(REPLIES);

    const sent = await waitFor(
      async () => {
        const rows: Array<{ waMessageId: string; n: number }> = await db.query(
          `SELECT "waMessageId", sum(transmissions)::int AS n FROM whatsapp.sandbox_outbox WHERE "connectionId" = $1 GROUP BY 1`,
          [connectionId],
        );
        return rows.length >= REPLIES ? rows : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const ids = new Set(sent.map((r) => r.waMessageId));
    expect(accepted.every((wid) => ids.has(wid))).toBe(true);
    // transmitted twice (WhatsApp delivers an id once: the customer sees one message either way)
    const twice = sent.filter((r) => r.n > 1).length;
    process.stderr.write(`outbound-kill: ${REPLIES} replies, ${refusals} refused while the session resumed, ${twice} transmitted twice\n`);
    // one send is in flight per connection at a time, so a kill can repeat at most that one
    expect(twice).toBeLessThanOrEqual(1);
    // and the outbox API a client reads lists them
    const page = await http().get(`/whatsappsession/${connectionId}/sandbox/outbox`, { token });
    expect(page.status).toBe(200);
    expect(page.body.items[0].body).toMatch(/^resposta \d+$/);
    // 200 sends one after another and a restart: about 30 s here, more on a slower machine
  }, 180_000);
});
