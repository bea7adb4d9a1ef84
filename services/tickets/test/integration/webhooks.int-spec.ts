import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@wa/testing';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;

/** A receiver as an integrator runs it: records every delivery; answers `failWith` while it is set. */
class Receiver {
  readonly got: Array<{
    id: string;
    event: string;
    ticketId: number;
    headers: Record<string, string>;
    raw: string;
    body: any;
    status: number;
  }> = [];
  failWith: number | null = null;
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const status = this.failWith ?? 200;
        const body = JSON.parse(raw);
        this.got.push({
          id: body.id,
          event: body.event,
          ticketId: body.ticketId,
          headers: req.headers as Record<string, string>,
          raw,
          body,
          status,
        });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  delivered() {
    return this.got.filter((g) => g.status === 200);
  }

  async stop(): Promise<void> {
    await new Promise((r) => this.server.close(r));
  }
}

const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
  // the receiver is on loopback: the operator allows private addresses here; retries come fast
  t = await startTickets({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_BACKOFF_MS: '100', WEBHOOK_POLL_MS: '100' });
});

afterAll(async () => {
  await t?.close();
  await receiver.stop();
});

const SECRET = 'segredo-da-loja-123456';

describe('outbound webhooks', () => {
  it('delivers signed events in order per ticket, each with an id; a failed delivery comes again after the receiver is back, and the log shows it', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const agent = await c.user('user');
    const conn = await c.connection({ status: 'CONNECTED' });
    const put = await t.http.put('/webhook-settings', {
      token: admin.token,
      body: { url: receiver.url, secret: SECRET, events: ['message.received', 'message.sent', 'ticket.status'] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      url: receiver.url,
      events: ['message.received', 'message.sent', 'ticket.status'],
      enabled: true,
      hasSecret: true,
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(put.body)).not.toContain(SECRET);
    // agents do not manage it
    expect((await t.http.get('/webhook-settings', { token: agent.token })).status).toBe(403);

    const number = randomNumber();
    await c.inbound(conn.id, number, 'quero comprar', { name: 'Rita' });
    const ticket = await ticketOfNumber(t, admin.token, number);
    const mine = () => receiver.got.filter((g) => g.ticketId === ticket.id);
    await waitFor(async () => mine().length >= 2);
    expect(mine().map((g) => g.event)).toEqual(['message.received', 'ticket.status']);
    expect(mine()[0]?.body).toMatchObject({
      event: 'message.received',
      companyId: ticket.companyId,
      ticketId: ticket.id,
      data: { message: { body: 'quero comprar', fromMe: false } },
    });
    expect(mine()[1]?.body.data.ticket).toMatchObject({ id: ticket.id, status: 'pending' });
    for (const g of mine()) {
      // the receiver checks the signature: HMAC-SHA256 of "<timestamp>.<body>" with the secret
      const expected = createHmac('sha256', SECRET).update(`${g.headers['x-webhook-timestamp']}.${g.raw}`).digest('hex');
      expect(g.headers['x-webhook-signature']).toBe(`sha256=${expected}`);
      expect(g.headers['x-webhook-id']).toBe(g.id);
      expect(g.headers['x-webhook-event']).toBe(g.event);
    }

    // the receiver goes down: the next events wait, in order, and come again once it is back
    receiver.failWith = 503;
    await c.inbound(conn.id, number, 'alô?', { name: 'Rita' });
    await c.inbound(conn.id, number, 'tem alguém?', { name: 'Rita' });
    await waitFor(async () => mine().filter((g) => g.status === 503).length >= 2);
    // only the first waiting one was tried: the later one of the same ticket waits behind it
    expect(
      new Set(
        mine()
          .filter((g) => g.status === 503)
          .map((g) => g.body.data.message.body),
      ),
    ).toEqual(new Set(['alô?']));
    const log = await t.http.get('/webhook-deliveries?status=pending', { token: admin.token });
    expect(log.status).toBe(200);
    expect(log.body.deliveries.find((d: { attempts: number }) => d.attempts >= 1)).toMatchObject({
      status: 'pending',
      lastStatus: 503,
      lastError: 'HTTP 503',
      event: 'message.received',
    });
    // the operators see the backlog in /metrics: at least these two waiting, the oldest for a while now
    const metrics = String((await t.http.get('/metrics')).body);
    const gauge = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(metrics)?.[1] ?? NaN);
    expect(gauge('webhook_deliveries_pending')).toBeGreaterThanOrEqual(2);
    expect(gauge('webhook_deliveries_oldest_pending_seconds')).toBeGreaterThan(0);
    receiver.failWith = null;
    const accepted = await t.http.put(`/tickets/${ticket.id}`, { token: admin.token, body: { status: 'open' } });
    expect(accepted.status).toBe(200);
    await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'Olá Rita!' } });
    await waitFor(async () => mine().filter((g) => g.status === 200).length >= 6, { timeoutMs: 15_000 });
    const delivered = mine().filter((g) => g.status === 200);
    expect(delivered.map((g) => [g.event, g.body.data.message?.body ?? g.body.data.ticket.status])).toEqual([
      ['message.received', 'quero comprar'],
      ['ticket.status', 'pending'],
      ['message.received', 'alô?'],
      ['message.received', 'tem alguém?'],
      ['ticket.status', 'open'],
      ['message.sent', 'Olá Rita!'],
    ]);
    // each delivery keeps its id across attempts (the receiver drops repeats by it)
    const retried = mine().filter((g) => g.body.data.message?.body === 'alô?');
    expect(new Set(retried.map((g) => g.id)).size).toBe(1);
    expect(new Set(delivered.map((g) => g.id)).size).toBe(delivered.length);
    const all = await t.http.get('/webhook-deliveries', { token: admin.token });
    expect(all.body.deliveries.filter((d: { status: string }) => d.status === 'delivered').length).toBeGreaterThanOrEqual(6);

    // another company sees none of it
    const b = new TestCompany(t);
    const adminB = await b.user('admin');
    expect((await t.http.get('/webhook-deliveries', { token: adminB.token })).body.deliveries).toEqual([]);
    expect((await t.http.get('/webhook-settings', { token: adminB.token })).body).toMatchObject({ url: null, hasSecret: false });

    // removed: nothing more is sent
    expect((await t.http.delete('/webhook-settings', { token: admin.token })).status).toBe(200);
    const before = receiver.got.length;
    await c.inbound(conn.id, number, 'depois do fim', { name: 'Rita' });
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.got.length).toBe(before);
  });

  it('refuses bad settings with clear texts', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ url: 'ftp://x.example.com/h', secret: SECRET, events: ['message.sent'] }, 'URL inválida'],
      [{ url: receiver.url, secret: 'curto', events: ['message.sent'] }, 'no mínimo 16'],
      [{ url: receiver.url, secret: SECRET, events: [] }, 'pelo menos um evento'],
      [{ url: receiver.url, secret: SECRET, events: ['tudo'] }, 'events'],
    ];
    for (const [body, text] of bad) {
      const res = await t.http.put('/webhook-settings', { token: admin.token, body });
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error: 'ERR_VALIDATION' });
      expect(JSON.stringify(res.body)).toContain(text);
    }
  });
});
