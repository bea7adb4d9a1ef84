import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { signApiIdentity } from '@wa/auth';
import { WaSubjects, type MessageEvent, type TicketUpdatedEvent, type WaOutboundSend } from '@wa/contracts';
import { TEST_JWT_SECRET, TEST_NATS_URL, waitFor } from '@wa/testing';
import { connect, type NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { ConversationSender } from '../../src/conversation/sending/conversation-sender.js';
import { WebhookRecorder } from '../../src/webhooks/webhook-recorder.js';
import { listen, randomNumber, startTickets, TestCompany, type TicketsUnderTest } from './harness.js';

/**
 * The public API's send of a text into a ticket that exists goes in one statement, against the ticket row
 * it read a moment before; a ticket changed in between makes it go the long way (one transaction), so the
 * announcement never carries the ticket as it was.
 */

let t: TicketsUnderTest;
let nc: NatsConnection;

beforeAll(async () => {
  t = await startTickets();
  nc = await connect({ servers: TEST_NATS_URL });
});
afterAll(async () => {
  await nc?.close();
  await t?.close();
});

const db = () => t.app.get(getDataSourceToken()) as DataSource;

async function setUp() {
  const c = new TestCompany(t);
  const admin = await c.user('admin');
  const conn = await c.connection();
  const to = randomNumber();
  await c.inbound(conn.id, to, 'oi');
  const ticket = await waitFor(
    async () =>
      (await t.http.get(`/tickets?showAll=true&searchParam=${to}`, { token: admin.token })).body.tickets?.[0] as
        { id: number; status: string } | undefined,
  );
  // the bot has had its turn with the customer's message (it writes the ticket; a write after the send's
  // read sends it the long way)
  await waitFor(
    async () => (await db().query(`SELECT 1 FROM tickets.tickets WHERE id = $1 AND "botState" IS NOT NULL`, [ticket.id])).length > 0,
  );
  const api = `Bearer ${signApiIdentity({ companyId: c.companyId, connectionId: conn.id }, TEST_JWT_SECRET)}`;
  const send = (body: string) => t.http.post('/api/messages/send', { headers: { authorization: api }, body: { number: to, body } });
  const created = listen<MessageEvent>(nc.subscribe(`message.created.${c.companyId}.${ticket.id}`));
  const updated = listen<TicketUpdatedEvent>(nc.subscribe(`ticket.updated.${c.companyId}.${ticket.id}`));
  return { c, admin, conn, to, ticket, send, created, updated };
}

describe('POST /api/messages/send into a ticket that exists', () => {
  it('stores the text once, sets the ticket’s last message, queues the send and announces it once, with the ticket as it left it', async () => {
    const { conn, to, ticket, send, created, updated } = await setUp();
    const sends = listen<WaOutboundSend>(nc.subscribe(WaSubjects.outbound(conn.id)));
    const messages = t.app.get(ConversationSender);
    const once = messages.sendTextAtOnce.bind(messages);
    const answers: unknown[] = [];
    messages.sendTextAtOnce = async (item) => {
      const answer = await once(item);
      answers.push(answer);
      return answer;
    };
    const res = await send('Seu pedido saiu').finally(() => (messages.sendTextAtOnce = once));
    // it went in one statement
    expect(answers).toEqual([expect.objectContaining({ message: expect.objectContaining({ body: 'Seu pedido saiu' }) })]);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ ticketId: ticket.id, body: 'Seu pedido saiu', state: 'queued', ack: 0 });
    const id = res.body.id as number;
    const rows = await db().query(
      `SELECT id::int, body, "fromMe", ack, wid, "createdAt" FROM tickets.messages WHERE "ticketId" = $1 AND "fromMe"`,
      [ticket.id],
    );
    expect(rows).toEqual([expect.objectContaining({ id, body: 'Seu pedido saiu', fromMe: true, ack: 0 })]);
    const [row] = await db().query(`SELECT "lastMessage" FROM tickets.tickets WHERE id = $1`, [ticket.id]);
    expect(row.lastMessage).toBe('Seu pedido saiu');
    const event = await waitFor(async () => created.find((e) => e.message.id === id));
    expect(event).toMatchObject({
      message: { id, body: 'Seu pedido saiu', fromMe: true, wid: rows[0].wid },
      ticket: { id: ticket.id, lastMessage: 'Seu pedido saiu', status: 'pending' },
    });
    // the send for the connection's session, with the message's id and WhatsApp id
    const out = await waitFor(async () => sends.find((e) => e.waMessageId === rows[0].wid));
    expect(out).toMatchObject({ connectionId: conn.id, messageId: id, to, body: 'Seu pedido saiu', ticketId: ticket.id });
    // the message's event is the ticket's announcement too (issue 44): no ticket.updated beside it
    expect(updated.filter((e) => e.ticket.lastMessage === 'Seu pedido saiu')).toEqual([]);
  });

  it('goes the long way when the ticket changed after it was read: the announcement has the ticket as it is', async () => {
    const { admin, ticket, send, created } = await setUp();
    const messages = t.app.get(ConversationSender);
    const once = messages.sendTextAtOnce.bind(messages);
    let tried = 0;
    // an agent accepts the ticket between the send's read and its write
    messages.sendTextAtOnce = async (item) => {
      tried++;
      await db().query(`UPDATE tickets.tickets SET status = 'open', "userId" = $2, "updatedAt" = now() WHERE id = $1`, [
        ticket.id,
        admin.id,
      ]);
      return once(item);
    };
    try {
      const res = await send('Já vamos atender');
      expect(res.status).toBe(202);
      expect(tried).toBe(1);
      const id = res.body.id as number;
      const event = await waitFor(async () => created.find((e) => e.message.id === id));
      expect(event.ticket).toMatchObject({ id: ticket.id, status: 'open', userId: admin.id, lastMessage: 'Já vamos atender' });
      const rows = await db().query(`SELECT id::int FROM tickets.messages WHERE "ticketId" = $1 AND body = $2`, [
        ticket.id,
        'Já vamos atender',
      ]);
      expect(rows).toEqual([{ id }]);
    } finally {
      messages.sendTextAtOnce = once;
    }
  });

  it('goes in one statement with the company’s webhook on too, and the delivery its event makes is written with it', async () => {
    const { c, ticket, send } = await setUp();
    // a receiver nobody listens on: the delivery is recorded, its dispatch fails and waits (not looked at here)
    await db().query(
      `INSERT INTO tickets.webhook_settings ("companyId", url, secret, events, enabled) VALUES ($1, 'http://127.0.0.1:9/hook', 'x', '{message.sent}', true)`,
      [c.companyId],
    );
    await t.app.get(WebhookRecorder).reload();
    const messages = t.app.get(ConversationSender);
    const once = messages.sendTextAtOnce.bind(messages);
    const answers: unknown[] = [];
    messages.sendTextAtOnce = async (item) => {
      const answer = await once(item);
      answers.push(answer);
      return answer;
    };
    try {
      const res = await send('Com webhook');
      expect(res.status).toBe(202);
      expect(answers).toEqual([expect.objectContaining({ message: expect.objectContaining({ body: 'Com webhook' }) })]);
      const deliveries = await db().query(
        `SELECT event, payload FROM tickets.webhook_deliveries WHERE "companyId" = $1 AND "ticketId" = $2`,
        [c.companyId, ticket.id],
      );
      expect(deliveries).toEqual([
        expect.objectContaining({
          event: 'message.sent',
          payload: expect.objectContaining({
            data: expect.objectContaining({ message: expect.objectContaining({ id: res.body.id, body: 'Com webhook' }) }),
          }),
        }),
      ]);
    } finally {
      messages.sendTextAtOnce = once;
      await db().query(`DELETE FROM tickets.webhook_settings WHERE "companyId" = $1`, [c.companyId]);
      await t.app.get(WebhookRecorder).reload();
    }
  });
});
