import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { WaInboundMessage, WhatsappDto } from '@wa/contracts';
import { randomInt } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  contactNameAfter,
  contactsOfBatch,
  initialStateOf,
  lastMessageOf,
  queueForNewTicket,
  unreadIncrement,
  type InboundItem,
} from '../../src/inbound/inbound-rules.js';
import { storeInbound, type StoredMessage } from '../../src/inbound/store-inbound.js';
import { randomNumber, startTickets, TestCompany, type TicketsUnderTest } from './harness.js';

/**
 * `tickets.store_inbound` is the fast implementation of the rules in `src/inbound/inbound-rules.ts`: the
 * rows it leaves must be the ones those rules say, batch after batch.
 */

let t: TicketsUnderTest;
let db: DataSource;

beforeAll(async () => {
  t = await startTickets();
  db = t.app.get(getDataSourceToken()) as DataSource;
});

afterAll(async () => {
  await t?.close();
});

describe('store_inbound follows the inbound rules', () => {
  it('names contacts, places new tickets, counts unread and picks the last message as inbound-rules.ts says', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const queue = async (name: string) => {
      const res = await t.http.post('/queue', {
        token: admin.token,
        body: { name: `${name} ${randomInt(1e6)}`, color: `#${randomInt(0xffffff).toString(16).padStart(6, '0')}` },
      });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    const [q1, q2] = [await queue('Vendas'), await queue('Suporte')];
    const oneQueue = await c.connection({ queueIds: [q1] });
    const twoQueues = await c.connection({ queueIds: [q1, q2] });
    const connections = new Map([oneQueue, twoQueues].map((w) => [w.id, w] as const));
    const ana = randomNumber();
    const bruno = randomNumber();
    const T = Date.now() - 60_000;
    let seq = randomInt(1_000_000, 1_000_000_000);
    let n = 0;
    const item = (conn: WhatsappDto, from: string, body: string, fields: Partial<WaInboundMessage>): InboundItem => ({
      data: {
        companyId: c.companyId,
        connectionId: conn.id,
        waMessageId: `RULES${c.companyId}X${++n}`,
        from,
        fromName: '',
        body,
        mediaType: 'chat',
        fromMe: false,
        isGroup: false,
        timestamp: T,
        ...fields,
      },
      seq: ++seq,
    });

    const batch1 = [
      item(oneQueue, ana, 'a1', { fromName: 'Ana' }),
      item(oneQueue, ana, 'a2 (nós)', { fromMe: true, fromName: 'Agente', timestamp: T + 1000 }),
      item(oneQueue, ana, 'a3', { fromName: '  Ana Lima ', timestamp: T + 1000 }), // same instant as a2, arrives later
      item(twoQueues, bruno, 'b1', {}),
    ];
    const batch2 = [
      item(oneQueue, ana, 'a0 atrasada', { timestamp: T - 5000 }), // arrives late with an older clock
      batch1[0], // a replay
      item(twoQueues, bruno, 'b2', { fromName: 'Bruno', timestamp: T + 2000 }),
      item(twoQueues, bruno, 'b3 (nós)', { fromMe: true, timestamp: T + 3000 }),
    ];

    // what the rules say, batch by batch
    const names = new Map<string, string>();
    const unread = new Map<string, number>();
    const store = async (batch: InboundItem[]): Promise<StoredMessage[]> => {
      for (const contact of contactsOfBatch(batch.map((i) => i.data)))
        names.set(contact.number, contactNameAfter(names.get(contact.number), contact));
      const stored = await storeInbound(db, batch, connections);
      const fresh = stored.filter((s) => s.isNew);
      for (const ticketId of new Set(fresh.map((s) => s.ticketId))) {
        unread.set(String(ticketId), (unread.get(String(ticketId)) ?? 0) + unreadIncrement(fresh.filter((s) => s.ticketId === ticketId)));
      }
      return stored;
    };
    const first = await store(batch1);
    expect(first.map((s) => s.isNew)).toEqual([true, true, true, true]);
    const contactsAfterFirst = await contactNames(c.companyId);
    expect(contactsAfterFirst).toEqual(Object.fromEntries(names));
    expect(contactsAfterFirst).toEqual({ [ana]: 'Ana Lima', [bruno]: bruno });

    const second = await store(batch2);
    expect(second.map((s) => s.isNew)).toEqual([true, false, true, true]);
    expect(await contactNames(c.companyId)).toEqual(Object.fromEntries(names));
    // the replay gives its push name again: the upsert runs before the message is found stored
    expect(names).toEqual(
      new Map([
        [ana, 'Ana'],
        [bruno, 'Bruno'],
      ]),
    );

    const tickets: Array<{
      id: number;
      number: string;
      whatsappId: number;
      queueId: number | null;
      status: string;
      unreadMessages: number;
      lastMessage: string;
    }> = await db.query(
      `SELECT t.id, c.number, t."whatsappId", t."queueId", t.status, t."unreadMessages", t."lastMessage"
         FROM tickets.tickets t JOIN tickets.contacts c ON c.id = t."contactId" WHERE t."companyId" = $1 ORDER BY c.number = $2 DESC`,
      [c.companyId, ana],
    );
    const messages: Array<{
      id: string;
      ticketId: number;
      body: string;
      fromMe: boolean;
      ack: number;
      read: boolean;
      sentAt: Date;
      seq: string | null;
    }> = await db.query(
      `SELECT id, "ticketId", body, "fromMe", ack, read, "sentAt", seq FROM tickets.messages WHERE "companyId" = $1 ORDER BY id`,
      [c.companyId],
    );
    // one open ticket per conversation, pending, in the queue its connection gives a new ticket
    expect(tickets.map((x) => [x.number, x.whatsappId, x.status, x.queueId])).toEqual([
      [ana, oneQueue.id, 'pending', queueForNewTicket(oneQueue.queueIds)],
      [bruno, twoQueues.id, 'pending', queueForNewTicket(twoQueues.queueIds)],
    ]);
    expect(tickets.map((x) => x.queueId)).toEqual([q1, null]);
    // every message stored once, as the rules store it
    expect(messages).toHaveLength(7);
    for (const m of messages) expect({ body: m.body, ack: m.ack, read: m.read }).toEqual({ body: m.body, ...initialStateOf(m) });
    for (const ticket of tickets) {
      expect(ticket.unreadMessages).toBe(unread.get(String(ticket.id)));
      const last = lastMessageOf(
        messages.filter((m) => m.ticketId === ticket.id).map((m) => ({ ...m, seq: m.seq === null ? null : Number(m.seq) })),
      );
      expect(ticket.lastMessage).toBe(last?.body);
    }
    expect(tickets.map((x) => [x.unreadMessages, x.lastMessage])).toEqual([
      [3, 'a3'],
      [2, 'b3 (nós)'],
    ]);
  });
});

async function contactNames(companyId: number): Promise<Record<string, string>> {
  const rows: Array<{ number: string; name: string }> = await db.query(`SELECT number, name FROM tickets.contacts WHERE "companyId" = $1`, [
    companyId,
  ]);
  return Object.fromEntries(rows.map((r) => [r.number, r.name]));
}
