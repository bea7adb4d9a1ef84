import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { TicketSubjects, WaSubjects, type MessageEvent, type WaInboundMessage } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { randomUUID } from 'node:crypto';
import type { Msg, Subscription } from 'nats';
import type { DataSource } from 'typeorm';
import { newQueue, randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * History sync in tickets (issue 42 §9): a message of WhatsApp's history sync (published by whatsapp-sessions marked
 * `history`, with its own time) is stored only into its conversation's ticket that is not closed: read, in its place by
 * its own time, announced as message.created, without the bot and without raising the unread count; replays store
 * nothing. One whose conversation has no open ticket is dropped: no contact, no ticket. Against the real PostgreSQL
 * and NATS.
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

/** WhatsApp's clock: whole seconds */
const second = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * A history message as whatsapp-sessions publishes it. `redelivered`: a msg id of its own, as a copy handed over again
 * past JetStream's duplicate window.
 */
async function history(
  c: TestCompany,
  connectionId: number,
  from: string,
  body: string,
  timestamp: number,
  opts: { id?: string; fromMe?: boolean; redelivered?: boolean } = {},
): Promise<string> {
  const msg: WaInboundMessage = {
    companyId: c.companyId,
    connectionId,
    waMessageId: opts.id ?? `HS${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`,
    from,
    fromName: 'Nome do histórico',
    body,
    mediaType: 'chat',
    fromMe: opts.fromMe ?? false,
    isGroup: false,
    timestamp,
    history: true,
  };
  const msgId = WaSubjects.inboundMsgId(connectionId, msg.waMessageId);
  await t.bus.publish(WaSubjects.inbound(c.companyId, connectionId, from), msg, {
    msgId: opts.redelivered ? `${msgId}:${randomUUID()}` : msgId,
  });
  return msg.waMessageId;
}

/** This process' history counter (its /metrics): stored or dropped. */
async function historySoFar(outcome: 'stored' | 'dropped'): Promise<number> {
  const res = await t.http.get('/metrics');
  const line = new RegExp(`^tickets_inbound_history_messages_total\\{[^}]*outcome="${outcome}"[^}]*\\} (\\d+)`, 'm').exec(String(res.body));
  return line ? Number(line[1]) : 0;
}

/** What tickets holds of a number in a company: its contacts and tickets (with their status). */
async function heldOf(companyId: number, number: string): Promise<{ contacts: number; tickets: string[] }> {
  const [row] = (await db.query(
    `SELECT (SELECT count(*)::int FROM tickets.contacts k WHERE k."companyId" = $1 AND k.number = $2) AS contacts,
            ARRAY(SELECT x.status FROM tickets.tickets x JOIN tickets.contacts k ON k.id = x."contactId"
                   WHERE x."companyId" = $1 AND k.number = $2 ORDER BY x.id) AS tickets`,
    [companyId, number],
  )) as Array<{ contacts: number; tickets: string[] }>;
  return row!;
}

describe('history sync in tickets', () => {
  it("stores a history message into the conversation's open ticket: read, in its place by its own time, announced, no bot, once", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const sales = await newQueue(t, admin.token, 'Vendas');
    const support = await newQueue(t, admin.token, 'Suporte');
    // two queues and a greeting: a customer's message on the waiting ticket gets the bot's menu, a number picks a queue
    const conn = await c.connection({ queueIds: [sales.id, support.id], greetingMessage: 'Olá! Escolha:' });
    const from = randomNumber();

    await c.inbound(conn.id, from, 'oi');
    const ticket = await ticketOfNumber(t, admin.token, from);
    const listed = async () =>
      (await t.http.get(`/messages/${ticket.id}`, { token: admin.token })).body.messages as Array<{
        id: number;
        wid: string;
        body: string;
        isBot: boolean;
        fromMe: boolean;
        read: boolean;
        createdAt: string;
      }>;
    await waitFor(async () => (await listed()).some((m) => m.isBot));

    const created: MessageEvent[] = [];
    const sub: Subscription = t.bus.connection.subscribe(TicketSubjects.messageCreated(c.companyId, ticket.id), {
      callback: (err, msg: Msg) => {
        if (!err) created.push(JSON.parse(new TextDecoder().decode(msg.data)) as MessageEvent);
      },
    });
    const storedBefore = await historySoFar('stored');
    try {
      const [twoHoursAgo, oneHourAgo] = [second(Date.now() - 2 * 3_600_000), second(Date.now() - 3_600_000)];
      // '2' would pick a queue if the bot read it; the phone's own answer an hour later
      const asked = await history(c, conn.id, from, '2', twoHoursAgo);
      const answered = await history(c, conn.id, from, 'respondido no celular', oneHourAgo, { fromMe: true });
      // WhatsApp repeats a chunk of history, past the bus' duplicate window
      await history(c, conn.id, from, '2', twoHoursAgo, { id: asked, redelivered: true });
      // a live message of the phone's after them, in the same conversation's lane: once it is stored, so are they
      const barrier = await c.inbound(conn.id, from, 'já volto', { fromMe: true });
      // (seen through its announcement: reading the chat would mark the ticket read)
      await waitFor(async () => created.some((e) => e.message.wid === barrier), { timeoutMs: 15_000 });
      // the bot took no turn on them (no queue picked), and the customer's '2' raised no unread count (0 since the chat was read)
      const after = (await t.http.get(`/tickets/${ticket.id}`, { token: admin.token })).body;
      expect(after).toMatchObject({ status: 'pending', queueId: null, unreadMessages: 0, lastMessage: 'já volto' });

      const messages = await listed();
      expect(messages.filter((m) => !m.isBot).map((m) => m.body)).toEqual(['2', 'respondido no celular', 'oi', 'já volto']);
      expect(messages.filter((m) => m.wid === asked)).toHaveLength(1);
      expect(messages.find((m) => m.wid === asked)).toMatchObject({
        fromMe: false,
        read: true,
        createdAt: new Date(twoHoursAgo).toISOString(),
      });
      expect(messages.find((m) => m.wid === answered)).toMatchObject({ fromMe: true, createdAt: new Date(oneHourAgo).toISOString() });
      // still the bot's one menu
      expect(messages.filter((m) => m.isBot)).toHaveLength(1);

      // announced once each, so an open chat shows them
      await waitFor(async () => created.some((e) => e.message.wid === answered));
      expect(created.filter((e) => e.message.wid === asked)).toHaveLength(1);
      expect(created.find((e) => e.message.wid === asked)?.ticket.id).toBe(ticket.id);
      expect(await historySoFar('stored')).toBe(storedBefore + 2);
    } finally {
      sub.unsubscribe();
    }
  });

  it('drops a history message whose conversation has no open ticket: no contact made, no ticket opened or reopened', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const stranger = randomNumber();
    const closedOne = randomNumber();

    await c.inbound(conn.id, closedOne, 'obrigado, era só isso');
    const ticket = await ticketOfNumber(t, admin.token, closedOne);
    expect((await t.http.put(`/tickets/${ticket.id}`, { token: admin.token, body: { status: 'closed' } })).status).toBe(200);

    const droppedBefore = await historySoFar('dropped');
    await history(c, conn.id, stranger, 'mensagem antiga de um desconhecido', Date.now() - 3_600_000);
    await history(c, conn.id, closedOne, 'antes de fechar', Date.now() - 3_600_000);
    await waitFor(async () => (await historySoFar('dropped')) >= droppedBefore + 2, { timeoutMs: 15_000 });

    expect(await heldOf(c.companyId, stranger)).toEqual({ contacts: 0, tickets: [] });
    expect(await heldOf(c.companyId, closedOne)).toEqual({ contacts: 1, tickets: ['closed'] });
    const messages = (await t.http.get(`/messages/${ticket.id}`, { token: admin.token })).body.messages as Array<{ body: string }>;
    expect(messages.map((m) => m.body)).not.toContain('antes de fechar');
  });
});
