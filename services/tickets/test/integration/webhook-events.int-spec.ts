import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ConnectionSubjects,
  sessionCommandSubject,
  WaSubjects,
  type ConnectionSessionEvent,
  type ConnectionStatus,
  type NumberCheckCommand,
  type WhatsappDto,
} from '@wa/contracts';
import { serve } from '@wa/event-bus';
import { waitFor } from '@wa/testing';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * Issue 45 §3: the webhook events beside a message's and a ticket's — a connection's status and QR code (from
 * whatsapp-sessions' `connection.session` events on the bus), a contact made or changed, and the delivery status of
 * a message sent (its acks) — delivered signed to a real receiver on loopback, only to companies that listen for them.
 */

let t: TicketsUnderTest;

interface Got {
  id: string;
  event: string;
  companyId: number;
  headers: Record<string, string>;
  raw: string;
  body: any;
}

/** A receiver as an integrator runs it: keeps every delivery. */
class Receiver {
  readonly got: Got[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw);
        this.got.push({
          id: body.id,
          event: body.event,
          companyId: body.companyId,
          headers: req.headers as Record<string, string>,
          raw,
          body,
        });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  of(companyId: number, event?: string): Got[] {
    return this.got.filter((g) => g.companyId === companyId && (!event || g.event === event));
  }

  async stop(): Promise<void> {
    await new Promise((r) => this.server.close(r));
  }
}

const receiver = new Receiver();
const SECRET = 'segredo-dos-eventos-123456';

beforeAll(async () => {
  await receiver.start();
  t = await startTickets({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_BACKOFF_MS: '100', WEBHOOK_POLL_MS: '100' });
});

/** What a test leaves running (a session stand-in), stopped at the end. */
const afterThis: Array<() => void> = [];

afterAll(async () => {
  afterThis.forEach((stop) => stop());
  await t?.close();
  await receiver.stop();
});

/** Signed with the company's secret: HMAC-SHA256 of "<timestamp>.<body>", in the headers with the delivery's id and event. */
function expectSigned(g: Got): void {
  const expected = createHmac('sha256', SECRET).update(`${g.headers['x-webhook-timestamp']}.${g.raw}`).digest('hex');
  expect([g.headers['x-webhook-signature'], g.headers['x-webhook-id'], g.headers['x-webhook-event']]).toEqual([
    `sha256=${expected}`,
    g.id,
    g.event,
  ]);
}

async function listenFor(token: string, events: string[]): Promise<void> {
  const put = await t.http.put('/webhook-settings', { token, body: { url: receiver.url, secret: SECRET, events } });
  expect({ status: put.status, events: put.body.events }).toEqual({ status: 200, events });
}

/** A session event exactly as whatsapp-sessions' outbox publishes it (`connection.session.<company>.<connection>`). */
async function sessionEvent(
  companyId: number,
  connection: WhatsappDto,
  status: ConnectionStatus,
  qrcode = '',
  number: string | null = null,
): Promise<void> {
  const session = { ...connection, status, qrcode, number, updatedAt: new Date().toISOString() } as WhatsappDto;
  const event: ConnectionSessionEvent = { companyId, connectionId: connection.id, status, qrcode, session, reason: null };
  await t.bus.publish(ConnectionSubjects.session(companyId, connection.id), event, {
    msgId: `connection-session:${connection.id}:${randomUUID()}`,
  });
}

describe('webhook events of connections, contacts and delivery statuses (issue 45 §3)', () => {
  it("tells a connection's status when it changes and each new QR code, in order, signed; a company not listening hears nothing", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection({ status: 'CONNECTED', name: 'Vendas' });
    // another company listens only for messages: its connection's changes are not told to it
    const other = new TestCompany(t);
    const otherAdmin = await other.user('admin');
    const otherConn = await other.connection({ status: 'CONNECTED' });
    await listenFor(otherAdmin.token, ['message.received']);
    await listenFor(admin.token, ['connection.status', 'connection.qrcode']);

    // the phone is unlinked: the session waits for a pairing and shows a QR, then a new one, then it is paired
    await sessionEvent(c.companyId, conn, 'qrcode', 'QR-um');
    await sessionEvent(c.companyId, conn, 'qrcode', 'QR-dois');
    await sessionEvent(c.companyId, conn, 'PAIRING');
    await sessionEvent(c.companyId, conn, 'CONNECTED', '', '5511987650001');
    await sessionEvent(other.companyId, otherConn, 'DISCONNECTED');
    await waitFor(async () => receiver.of(c.companyId).length >= 5);
    const got = receiver.of(c.companyId);
    expect(got.map((g) => [g.event, g.body.data])).toEqual([
      ['connection.status', { connectionId: conn.id, name: 'Vendas', status: 'qrcode', number: null }],
      ['connection.qrcode', { connectionId: conn.id, qrcode: 'QR-um' }],
      // a new QR code: its status is the same, told once
      ['connection.qrcode', { connectionId: conn.id, qrcode: 'QR-dois' }],
      ['connection.status', { connectionId: conn.id, name: 'Vendas', status: 'PAIRING', number: null }],
      ['connection.status', { connectionId: conn.id, name: 'Vendas', status: 'CONNECTED', number: '5511987650001' }],
    ]);
    for (const g of got) {
      expectSigned(g);
      expect(g.body).toMatchObject({ companyId: c.companyId, ticketId: null, occurredAt: expect.any(String) });
    }
    // the same status again (a reconnect that ends where it was) is not told twice
    await sessionEvent(c.companyId, conn, 'CONNECTED', '', '5511987650001');
    await sessionEvent(c.companyId, conn, 'DISCONNECTED', '', '5511987650001');
    await waitFor(async () => receiver.of(c.companyId).length >= 6);
    await new Promise((r) => setTimeout(r, 500));
    expect(
      receiver
        .of(c.companyId)
        .slice(5)
        .map((g) => [g.event, g.body.data.status]),
    ).toEqual([['connection.status', 'DISCONNECTED']]);
    // the delivery log has them, newest first
    const log = await t.http.get('/webhook-deliveries', { token: admin.token });
    expect(log.body.deliveries.map((d: { event: string; status: string }) => [d.event, d.status])).toEqual([
      ['connection.status', 'delivered'],
      ['connection.status', 'delivered'],
      ['connection.status', 'delivered'],
      ['connection.qrcode', 'delivered'],
      ['connection.qrcode', 'delivered'],
      ['connection.status', 'delivered'],
    ]);
    // a connection's event tells of no ticket (its lane's key is no ticket's id)
    expect(log.body.deliveries.every((d: { ticketId: unknown }) => d.ticketId === null)).toBe(true);
    expect(receiver.of(other.companyId)).toEqual([]);
    await t.http.delete('/webhook-settings', { token: admin.token });
    await t.http.delete('/webhook-settings', { token: otherAdmin.token });
  });

  it("tells a contact made or changed (its view), and a sent message's delivery status once per status as its acks rise", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection({ status: 'CONNECTED', isDefault: true });
    // the connection's session, as whatsapp-sessions holds it: a new contact's number is checked with it
    const stop = serve(t.bus, sessionCommandSubject(conn.id), (payload) => {
      const cmd = payload as NumberCheckCommand;
      return { ok: true, result: { exists: true, jid: `${cmd.number}@s.whatsapp.net` } };
    });
    afterThis.push(stop);
    await listenFor(admin.token, ['contact.updated', 'message.status']);

    // made in the console, then renamed
    const number = randomNumber();
    const made = await t.http.post('/contacts', { token: admin.token, body: { name: 'Rita', number } });
    expect(made.status).toBe(200);
    await waitFor(async () => receiver.of(c.companyId, 'contact.updated').length >= 1);
    const renamed = await t.http.put(`/contacts/${made.body.id}`, { token: admin.token, body: { name: 'Rita Souza', number } });
    expect(renamed.status).toBe(200);
    await waitFor(async () => receiver.of(c.companyId, 'contact.updated').length >= 2);
    const contacts = receiver.of(c.companyId, 'contact.updated');
    expect(contacts.map((g) => [g.body.ticketId, g.body.data.id, g.body.data.name, g.body.data.number])).toEqual([
      [null, made.body.id, 'Rita', made.body.number],
      [null, made.body.id, 'Rita Souza', made.body.number],
    ]);
    contacts.forEach(expectSigned);

    // a customer writes (a new contact: told too), an agent answers; WhatsApp's receipts come in
    const customer = randomNumber();
    await c.inbound(conn.id, customer, 'oi, tudo bem?', { name: 'Caio' });
    const ticket = await ticketOfNumber(t, admin.token, customer);
    await waitFor(async () => receiver.of(c.companyId, 'contact.updated').some((g) => g.body.data.number === customer));
    expect((await t.http.put(`/tickets/${ticket.id}`, { token: admin.token, body: { status: 'open' } })).status).toBe(200);
    const sent = await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'Olá Caio!' } });
    expect(sent.status).toBeLessThan(300);
    const message = await waitFor(async () => {
      const res = await t.http.get(`/messages/${ticket.id}`, { token: admin.token });
      return (res.body.messages as Array<{ id: number; wid: string; body: string }> | undefined)?.find((m) => m.body === 'Olá Caio!');
    });
    const ack = async (value: number) => {
      await t.bus.publish(
        WaSubjects.acks(c.companyId, conn.id),
        { companyId: c.companyId, connectionId: conn.id, at: Date.now(), acks: [{ waMessageId: message.wid, ack: value }] },
        { msgId: WaSubjects.ackMsgId(conn.id, message.wid, value) },
      );
      await waitFor(async () => {
        const res = await t.http.get(`/messages/${ticket.id}`, { token: admin.token });
        return (res.body.messages as Array<{ id: number; ack: number }>).find((m) => m.id === message.id)!.ack >= value;
      });
    };
    // sent, server (still "sent": told once), delivered, read
    for (const value of [1, 2, 3, 4]) await ack(value);
    await waitFor(async () => receiver.of(c.companyId, 'message.status').length >= 3);
    await new Promise((r) => setTimeout(r, 500));
    const statuses = receiver.of(c.companyId, 'message.status');
    expect(statuses.map((g) => [g.body.ticketId, g.body.data])).toEqual([
      [ticket.id, { messageId: message.id, ticketId: ticket.id, ack: 1, status: 'sent' }],
      [ticket.id, { messageId: message.id, ticketId: ticket.id, ack: 3, status: 'delivered' }],
      [ticket.id, { messageId: message.id, ticketId: ticket.id, ack: 4, status: 'read' }],
    ]);
    statuses.forEach(expectSigned);
    // the customer's own message has no delivery status of ours; the events not asked for are not sent
    expect(
      receiver
        .of(c.companyId)
        .map((g) => g.event)
        .filter((e) => e !== 'contact.updated' && e !== 'message.status'),
    ).toEqual([]);
    await t.http.delete('/webhook-settings', { token: admin.token });
  });
});
