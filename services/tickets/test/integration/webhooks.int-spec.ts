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

/** Whether a delivery the receiver got is signed with `secret` (HMAC-SHA256 of "<timestamp>.<body>"). */
const signedWith = (g: { headers: Record<string, string>; raw: string }, secret: string) =>
  g.headers['x-webhook-signature'] ===
  `sha256=${createHmac('sha256', secret).update(`${g.headers['x-webhook-timestamp']}.${g.raw}`).digest('hex')}`;

describe('the signing secret made by the server, and deliveries sent again', () => {
  it('shows the secret it made once, never again; a new secret replaces the old one at once', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const agent = await c.user('user');
    const conn = await c.connection({ status: 'CONNECTED' });
    // the console saves without a secret: the first save makes one and answers it, this once
    const put = await t.http.put('/webhook-settings', { token: admin.token, body: { url: receiver.url, events: ['message.received'] } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      url: receiver.url,
      events: ['message.received'],
      enabled: true,
      hasSecret: true,
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    const first: string = put.body.secret;
    // never again: not when read, not when saved again (the webhook keeps its secret)
    const read = await t.http.get('/webhook-settings', { token: admin.token });
    expect(read.body).toEqual({
      url: receiver.url,
      events: ['message.received'],
      enabled: true,
      hasSecret: true,
      updatedAt: expect.any(String),
    });
    const again = await t.http.put('/webhook-settings', {
      token: admin.token,
      body: { url: receiver.url, events: ['message.received', 'message.sent'] },
    });
    expect(again.status).toBe(200);
    expect(again.body).not.toHaveProperty('secret');
    expect(JSON.stringify([read.body, again.body])).not.toContain(first);

    const number = randomNumber();
    await c.inbound(conn.id, number, 'primeira', { name: 'Rita' });
    const ticket = await ticketOfNumber(t, admin.token, number);
    const mine = () => receiver.delivered().filter((g) => g.ticketId === ticket.id);
    await waitFor(async () => mine().length >= 1);
    expect(signedWith(mine()[0]!, first)).toBe(true);

    // a new secret, shown once; what goes out from now on is signed with it, and not with the old one
    expect((await t.http.post('/webhook-settings/secret', { token: agent.token })).status).toBe(403);
    const made = await t.http.post('/webhook-settings/secret', { token: admin.token });
    expect(made.status).toBe(200);
    expect(made.body).toEqual({ secret: expect.stringMatching(/^whsec_/) });
    const second: string = made.body.secret;
    expect(second).not.toBe(first);
    expect(JSON.stringify((await t.http.get('/webhook-settings', { token: admin.token })).body)).not.toContain(second);
    await c.inbound(conn.id, number, 'segunda', { name: 'Rita' });
    await waitFor(async () => mine().some((g) => g.body.data.message?.body === 'segunda'));
    const after = mine().find((g) => g.body.data.message?.body === 'segunda')!;
    expect([signedWith(after, second), signedWith(after, first)]).toEqual([true, false]);

    // a company with no webhook has no secret to renew
    const b = new TestCompany(t);
    const adminB = await b.user('admin');
    const none = await t.http.post('/webhook-settings/secret', { token: adminB.token });
    expect([none.status, none.body.error]).toEqual([404, 'ERR_NOT_FOUND']);
    await t.http.delete('/webhook-settings', { token: admin.token });
  });

  it("replays a delivery: the same event and payload again, a new delivery signed with today's secret; another company's cannot be", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection({ status: 'CONNECTED' });
    const put = await t.http.put('/webhook-settings', { token: admin.token, body: { url: receiver.url, events: ['message.received'] } });
    const number = randomNumber();
    await c.inbound(conn.id, number, 'pedido 42', { name: 'Rita' });
    const ticket = await ticketOfNumber(t, admin.token, number);
    const mine = () => receiver.delivered().filter((g) => g.ticketId === ticket.id);
    await waitFor(async () => mine().length >= 1);
    const original = mine()[0]!;
    expect(signedWith(original, put.body.secret)).toBe(true);
    const log = await t.http.get('/webhook-deliveries', { token: admin.token });
    expect(log.body.deliveries[0]).toMatchObject({ id: original.id, event: 'message.received', status: 'delivered', replayOf: null });

    const renewed = (await t.http.post('/webhook-settings/secret', { token: admin.token })).body.secret as string;
    const replay = await t.http.post(`/webhook-deliveries/${original.id}/replay`, { token: admin.token });
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({
      id: expect.any(String),
      event: 'message.received',
      ticketId: ticket.id,
      status: 'pending',
      attempts: 0,
      lastStatus: null,
      lastError: null,
      createdAt: expect.any(String),
      deliveredAt: null,
      nextAttemptAt: expect.any(String),
      replayOf: original.id,
    });
    expect(replay.body.id).not.toBe(original.id);
    await waitFor(async () => mine().some((g) => g.id === replay.body.id));
    const again = mine().find((g) => g.id === replay.body.id)!;
    // the receiver gets the same event and payload under the new delivery's id, signed with the secret of now
    const { id: _originalId, ...originalPayload } = original.body;
    const { id: _againId, ...againPayload } = again.body;
    expect(againPayload).toEqual(originalPayload);
    expect(again.headers['x-webhook-id']).toBe(replay.body.id);
    expect(again.headers['x-webhook-event']).toBe('message.received');
    expect([signedWith(again, renewed), signedWith(again, put.body.secret)]).toEqual([true, false]);
    // the log has it on top, delivered, saying which one it replays
    await waitFor(async () => (await t.http.get('/webhook-deliveries', { token: admin.token })).body.deliveries[0]?.status === 'delivered');
    const now = (await t.http.get('/webhook-deliveries', { token: admin.token })).body.deliveries;
    expect(now.slice(0, 2)).toMatchObject([
      { id: replay.body.id, status: 'delivered', attempts: 1, lastStatus: 200, replayOf: original.id },
      { id: original.id, replayOf: null },
    ]);
    expect((await t.http.get('/webhook-deliveries?status=failed', { token: admin.token })).body.deliveries).toEqual([]);

    // another company's admin cannot replay it (nor an id that does not exist): nothing more is sent
    const b = new TestCompany(t);
    const adminB = await b.user('admin');
    await t.http.put('/webhook-settings', { token: adminB.token, body: { url: receiver.url, events: ['message.received'] } });
    const before = receiver.got.length;
    for (const id of [original.id, '999999999999', 'abc']) {
      const res = await t.http.post(`/webhook-deliveries/${id}/replay`, { token: adminB.token });
      expect({ id, status: res.status, error: res.body.error }).toEqual({ id, status: 404, error: 'ERR_NOT_FOUND' });
    }
    expect((await t.http.get('/webhook-deliveries', { token: adminB.token })).body.deliveries).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.got.length).toBe(before);
    await t.http.delete('/webhook-settings', { token: admin.token });
    await t.http.delete('/webhook-settings', { token: adminB.token });
  });
});
