import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WaSubjects, type WaInboundMessage } from '@wa/contracts';
import { createDataSource, runMigrations } from '@wa/database';
import { EventBus } from '@wa/event-bus';
import { TEST_DATABASE_URL, TEST_NATS_URL, waitFor } from '@wa/testing';
import { randomInt } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { startProcess, type ServiceProcess } from './processes.js';

const CONTACTS = 50;
const MESSAGES = 1000;
const companyId = 600_000 + randomInt(1, 99_999_999);
const connectionId = randomInt(1, 2_000_000_000);
const base = Date.now();

let bus: EventBus;
let db: DataSource;
let tickets: ServiceProcess | undefined;

function message(i: number): WaInboundMessage {
  const contact = i % CONTACTS;
  return {
    companyId,
    connectionId,
    waMessageId: `NL${companyId}X${i}`,
    from: `5511900${String(contact).padStart(6, '0')}`,
    fromName: `Cliente ${contact}`,
    body: `c${contact}-m${Math.floor(i / CONTACTS)}`,
    mediaType: 'chat',
    fromMe: false,
    isGroup: false,
    // the order the customer sent them in; several share a second, as WhatsApp's clock allows
    timestamp: Math.floor((base + i) / 1000) * 1000,
  };
}

function publish(m: WaInboundMessage, msgId = WaSubjects.inboundMsgId(m.connectionId, m.waMessageId)) {
  return bus.publish(WaSubjects.inbound(m.companyId, m.connectionId, m.from), m, { msgId });
}

async function count(sql: string): Promise<number> {
  return Number((await db.query(sql, [companyId]))[0].n);
}

beforeAll(async () => {
  await runMigrations(ticketsDatabase(TEST_DATABASE_URL));
  db = createDataSource(ticketsDatabase(TEST_DATABASE_URL, 2));
  await db.initialize();
  bus = await EventBus.connect({ servers: TEST_NATS_URL, name: 'no-loss-test' });
});

afterAll(async () => {
  await tickets?.stop('SIGKILL');
  await bus?.close();
  await db?.destroy();
});

describe('no loss, no duplicates', () => {
  it('stores 1,000 inbound messages exactly once, in order, while tickets is SIGKILLed and restarted midway', async () => {
    const env = { INBOUND_ACK_WAIT_MS: '3000' };
    tickets = await startProcess('tickets', env);
    let killedAt = -1;
    for (let i = 0; i < MESSAGES; i++) {
      await publish(message(i));
      if (i % 10 === 9) await new Promise((r) => setTimeout(r, 5));
      if (i === 400) {
        // mid-stream, with work in flight: no goodbye, no ack
        const stored = await count(`SELECT count(*) AS n FROM tickets.messages WHERE "companyId" = $1`);
        expect(stored).toBeLessThan(MESSAGES);
        await tickets.stop('SIGKILL');
        process.stderr.write(`no-loss: SIGKILL after ${i + 1} published, ${stored} stored\n`);
        killedAt = i;
        void startProcess('tickets', env).then((p) => (tickets = p));
      }
    }
    expect(killedAt).toBe(400);
    await waitFor(async () => (await count(`SELECT count(*) AS n FROM tickets.messages WHERE "companyId" = $1`)) >= MESSAGES, {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    expect(tickets?.child.exitCode).toBeNull();
    process.stderr.write(
      `no-loss: restarted process redelivered: ${/redelivered messages announced again/.test(tickets?.output() ?? '')}\n`,
    );

    expect(await count(`SELECT count(*) AS n FROM tickets.messages WHERE "companyId" = $1`)).toBe(MESSAGES);
    expect(await count(`SELECT count(DISTINCT wid) AS n FROM tickets.messages WHERE "companyId" = $1`)).toBe(MESSAGES);
    expect(await count(`SELECT count(*) AS n FROM tickets.contacts WHERE "companyId" = $1`)).toBe(CONTACTS);
    expect(await count(`SELECT count(*) AS n FROM tickets.tickets WHERE "companyId" = $1`)).toBe(CONTACTS);
    // each message counted once as unread
    const unread: Array<{ unreadMessages: number }> = await db.query(
      `SELECT "unreadMessages" FROM tickets.tickets WHERE "companyId" = $1`,
      [companyId],
    );
    expect(unread.every((t) => t.unreadMessages === MESSAGES / CONTACTS)).toBe(true);
    // each conversation in the order it was sent
    const rows: Array<{ number: string; body: string }> = await db.query(
      `SELECT c.number, m.body FROM tickets.messages m JOIN tickets.contacts c ON c.id = m."contactId"
        WHERE m."companyId" = $1 ORDER BY c.number, m."sentAt", m.seq, m.id`,
      [companyId],
    );
    const byContact = new Map<string, string[]>();
    for (const r of rows) byContact.set(r.number, [...(byContact.get(r.number) ?? []), r.body]);
    for (const [number, bodies] of byContact) {
      const contact = Number(number.slice(-6));
      expect(bodies).toEqual(Array.from({ length: MESSAGES / CONTACTS }, (_, j) => `c${contact}-m${j}`));
    }
    const lastMessages: Array<{ number: string; lastMessage: string }> = await db.query(
      `SELECT c.number, t."lastMessage" FROM tickets.tickets t JOIN tickets.contacts c ON c.id = t."contactId" WHERE t."companyId" = $1`,
      [companyId],
    );
    for (const t of lastMessages) expect(t.lastMessage).toBe(`c${Number(t.number.slice(-6))}-m${MESSAGES / CONTACTS - 1}`);
  });

  it('stores nothing new when every message is replayed three times with the same WhatsApp id', async () => {
    // once inside the duplicate window (the stream drops it), twice as a late replay the database must catch
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < MESSAGES; i++) {
        const m = message(i);
        await publish(m, round === 0 ? undefined : `replay-${round}:${m.waMessageId}`);
      }
    }
    const jsm = await bus.connection.jetstreamManager();
    await waitFor(
      async () => {
        const info = await jsm.consumers.info('WA', 'tickets-inbound');
        return info.num_pending === 0 && info.num_ack_pending === 0;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(await count(`SELECT count(*) AS n FROM tickets.messages WHERE "companyId" = $1`)).toBe(MESSAGES);
    expect(await count(`SELECT count(*) AS n FROM tickets.tickets WHERE "companyId" = $1`)).toBe(CONTACTS);
    const unread: Array<{ unreadMessages: number }> = await db.query(
      `SELECT "unreadMessages" FROM tickets.tickets WHERE "companyId" = $1`,
      [companyId],
    );
    expect(unread.every((t) => t.unreadMessages === MESSAGES / CONTACTS)).toBe(true);
  });
});
