import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { signApiIdentity } from '@wa/auth';
import { SecretBox } from '@wa/server-kit';
import { TEST_JWT_SECRET, waitFor } from '@wa/testing';
import type { DataSource } from 'typeorm';
import { ApiMessagesAndSealedSecrets1732240000030 } from '../../src/database/migrations/1732240000030-api-messages-and-sealed-secrets.js';
import { WebhookRecorder } from '../../src/webhooks/webhook-recorder.js';
import { WebhooksService } from '../../src/webhooks/webhooks.service.js';
import { newQueue, randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * Issue 38, tickets' side: ids of another company are refused (item 8); the public API answers only the
 * messages it sent, agents do not delete tags (item 10); the webhook signing secret and prompts' voice keys
 * are sealed at rest, the voice key answered masked (item 11).
 */

let t: TicketsUnderTest;

/** A receiver as an integrator runs it: keeps every delivery with its headers and raw body. */
class Receiver {
  readonly got: Array<{ headers: Record<string, string>; raw: string; body: any }> = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        this.got.push({ headers: req.headers as Record<string, string>, raw, body: JSON.parse(raw) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async stop(): Promise<void> {
    await new Promise((r) => this.server.close(r));
  }
}

const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
  // the receiver is on loopback: the operator allows private addresses here
  t = await startTickets({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_BACKOFF_MS: '100', WEBHOOK_POLL_MS: '100' });
});

afterAll(async () => {
  await t?.close();
  await receiver.stop();
});

const db = () => t.app.get(getDataSourceToken()) as DataSource;
const PROMPT_TEXT = 'Você é um atendente cordial da loja. Responda em português, em poucas frases, e nunca invente preços.';

async function ticketOf(c: TestCompany, connId: number, token: string): Promise<{ id: number }> {
  const from = randomNumber();
  await c.inbound(connId, from, 'oi');
  return ticketOfNumber(t, token, from);
}

describe('ids of another company (issue 38 item 8)', () => {
  it("company B's admin cannot put company A's prompt, integration, queue or tag on B's ticket: 400 and nothing stored", async () => {
    const a = new TestCompany(t);
    const adminA = await a.user('admin');
    const queueA = await newQueue(t, adminA.token);
    const promptA = await t.http.post('/prompt', {
      token: adminA.token,
      body: { name: 'Agente A', prompt: PROMPT_TEXT, queueId: queueA.id, apiKey: 'sk-company-a-0123456789' },
    });
    expect(promptA.status).toBe(201);
    const integrationA = await t.http.post('/queueIntegration', {
      token: adminA.token,
      body: { type: 'webhook', name: 'Fluxo A', urlN8N: 'http://8.8.8.8/hook' },
    });
    expect(integrationA.status).toBe(201);
    const tagA = await t.http.post('/tags', { token: adminA.token, body: { name: 'Tag da A' } });
    expect(tagA.status).toBe(201);

    const b = new TestCompany(t);
    const adminB = await b.user('admin');
    const connB = await b.connection();
    const ticket = await ticketOf(b, connB.id, adminB.token);
    const stored = async () =>
      (await db().query(`SELECT "promptId", "integrationId", "queueId" FROM tickets.tickets WHERE id = $1`, [ticket.id]))[0];
    const before = await stored();

    for (const [field, id] of [
      ['promptId', promptA.body.id],
      ['integrationId', integrationA.body.id],
      ['queueId', queueA.id],
    ] as Array<[string, number]>) {
      const res = await t.http.put(`/tickets/${ticket.id}`, { token: adminB.token, body: { [field]: id } });
      expect({ field, status: res.status, error: res.body.error }).toEqual({ field, status: 400, error: 'ERR_VALIDATION' });
      expect(res.body.details).toEqual([expect.objectContaining({ field })]);
    }
    // one refused id in a body refuses the whole change
    const mixed = await t.http.put(`/tickets/${ticket.id}`, { token: adminB.token, body: { status: 'open', promptId: promptA.body.id } });
    expect(mixed.status).toBe(400);
    expect(await stored()).toEqual(before);
    expect((await db().query(`SELECT status FROM tickets.tickets WHERE id = $1`, [ticket.id]))[0].status).toBe('pending');
    const tagged = await t.http.post('/tags/sync', { token: adminB.token, body: { ticketId: ticket.id, tags: [{ id: tagA.body.id }] } });
    expect(tagged.status).toBeGreaterThanOrEqual(400);
    expect(tagged.status).toBeLessThan(500);
    expect(await db().query(`SELECT 1 FROM tickets.ticket_tags WHERE "ticketId" = $1`, [ticket.id])).toEqual([]);

    // B's own prompt and integration are taken
    const queueB = await newQueue(t, adminB.token);
    const promptB = await t.http.post('/prompt', {
      token: adminB.token,
      body: { name: 'Agente B', prompt: PROMPT_TEXT, queueId: queueB.id },
    });
    const integrationB = await t.http.post('/queueIntegration', {
      token: adminB.token,
      body: { type: 'webhook', name: 'Fluxo B', urlN8N: 'http://8.8.8.8/hook' },
    });
    const own = await t.http.put(`/tickets/${ticket.id}`, {
      token: adminB.token,
      body: { promptId: promptB.body.id, integrationId: integrationB.body.id },
    });
    expect(own.status).toBe(200);
    expect(await stored()).toMatchObject({ promptId: promptB.body.id, integrationId: integrationB.body.id });
  });
});

describe('scopes (issue 38 item 10)', () => {
  it("GET /api/messages/{id} answers the messages the API sent, not an agent's or the bot's replies (404)", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const sales = await newQueue(t, admin.token, 'Vendas');
    const support = await newQueue(t, admin.token, 'Suporte');
    // a greeting with a menu: the customer's first message gets the bot's reply
    const conn = await c.connection({ queueIds: [sales.id, support.id], greetingMessage: 'Olá! Escolha:' });
    const to = randomNumber();
    await c.inbound(conn.id, to, 'oi');
    const ticket = await ticketOfNumber(t, admin.token, to);
    const [botReply] = await waitFor(async () => {
      const rows = (await db().query(`SELECT id::int FROM tickets.messages WHERE "ticketId" = $1 AND "isBot"`, [ticket.id])) as Array<{
        id: number;
      }>;
      return rows.length ? rows : undefined;
    });
    const api = { authorization: `Bearer ${signApiIdentity({ companyId: c.companyId, connectionId: conn.id }, TEST_JWT_SECRET)}` };
    const sent = await t.http.post('/api/messages/send', { headers: api, body: { number: to, body: 'Seu pedido saiu' } });
    expect(sent.status).toBe(202);
    // the long way too (a file, or an Idempotency-Key, goes through one transaction)
    const keyed = await t.http.post('/api/messages/send', {
      headers: { ...api, 'idempotency-key': `k-${to}` },
      body: { number: to, body: 'Chega amanhã' },
    });
    expect(keyed.status).toBe(202);
    expect((await t.http.put(`/tickets/${ticket.id}`, { token: admin.token, body: { status: 'open' } })).status).toBe(200);
    const reply = await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'Resposta do atendente' } });
    expect(reply.status).toBeLessThan(300);

    for (const [id, body] of [
      [sent.body.id, 'Seu pedido saiu'],
      [keyed.body.id, 'Chega amanhã'],
    ]) {
      const res = await t.http.get(`/api/messages/${id}`, { headers: api });
      expect({ id, status: res.status }).toEqual({ id, status: 200 });
      // the message as the integrator sent it, with its contact's number
      expect(res.body).toMatchObject({ id, ticketId: ticket.id, number: to, body });
    }
    // another connection of the same company does not see them
    const other = await c.connection({});
    const otherApi = { authorization: `Bearer ${signApiIdentity({ companyId: c.companyId, connectionId: other.id }, TEST_JWT_SECRET)}` };
    const elsewhere = await t.http.get(`/api/messages/${sent.body.id}`, { headers: otherApi });
    expect({ status: elsewhere.status, error: elsewhere.body.error }).toEqual({ status: 404, error: 'ERR_NO_MESSAGE_FOUND' });
    for (const id of [reply.body.id, botReply!.id]) {
      const res = await t.http.get(`/api/messages/${id}`, { headers: api });
      expect({ id, status: res.status, error: res.body.error }).toEqual({ id, status: 404, error: 'ERR_NO_MESSAGE_FOUND' });
      expect(JSON.stringify(res.body)).not.toMatch(/Resposta do atendente|Escolha/);
    }
  });

  it('agents cannot delete tags (403, the tag stays); supervisors and admins can', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const agent = await c.user('user');
    const supervisor = await c.user('supervisor');
    const one = (await t.http.post('/tags', { token: admin.token, body: { name: 'Urgente' } })).body;
    const two = (await t.http.post('/tags', { token: admin.token, body: { name: 'Atacado' } })).body;
    const refused = await t.http.delete(`/tags/${one.id}`, { token: agent.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');
    expect((await t.http.get(`/tags/${one.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.http.delete(`/tags/${one.id}`, { token: supervisor.token })).status).toBe(200);
    expect((await t.http.delete(`/tags/${two.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.http.get('/tags/list', { token: admin.token })).body).toEqual([]);
  });
});

describe('secrets at rest (issue 38 item 11)', () => {
  it('keeps the webhook signing secret sealed in PostgreSQL; deliveries are still signed with it (the receiver checks the HMAC)', async () => {
    const SECRET = 'segredo-da-loja-abcdef-987654';
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const put = await t.http.put('/webhook-settings', {
      token: admin.token,
      body: { url: receiver.url, secret: SECRET, events: ['message.received'] },
    });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain(SECRET);
    const [row] = await db().query(`SELECT secret FROM tickets.webhook_settings WHERE "companyId" = $1`, [c.companyId]);
    expect(row.secret).not.toContain(SECRET);
    expect(SecretBox.isSealed(row.secret)).toBe(true);

    await c.inbound(conn.id, randomNumber(), 'quero comprar');
    const got = await waitFor(async () => receiver.got.find((g) => g.body.companyId === c.companyId));
    const expected = createHmac('sha256', SECRET).update(`${got.headers['x-webhook-timestamp']}.${got.raw}`).digest('hex');
    expect(got.headers['x-webhook-signature']).toBe(`sha256=${expected}`);
  });

  it('the migration seals a secret stored in clear before, and its deliveries keep the same signature', async () => {
    const SECRET = 'segredo-antigo-em-claro-123456';
    const c = new TestCompany(t);
    const conn = await c.connection();
    // a row as tickets wrote it before secrets were sealed
    await db().query(`INSERT INTO tickets.webhook_settings ("companyId", url, secret, events, enabled) VALUES ($1, $2, $3, $4, true)`, [
      c.companyId,
      receiver.url,
      SECRET,
      ['message.received'],
    ]);
    const runner = db().createQueryRunner();
    const saved = process.env.TICKETS_SECRETS_KEY;
    // the key the service seals with (here derived from JWT_SECRET), given to the migration as an operator does
    process.env.TICKETS_SECRETS_KEY = `dev-only:${TEST_JWT_SECRET}`;
    try {
      await new ApiMessagesAndSealedSecrets1732240000030().up(runner);
    } finally {
      if (saved === undefined) delete process.env.TICKETS_SECRETS_KEY;
      else process.env.TICKETS_SECRETS_KEY = saved;
      await runner.release();
    }
    const [row] = await db().query(`SELECT secret FROM tickets.webhook_settings WHERE "companyId" = $1`, [c.companyId]);
    expect(row.secret).not.toContain(SECRET);
    expect(SecretBox.isSealed(row.secret)).toBe(true);

    // the row was written behind the service's back: it reads the endpoints again (as after a save)
    await t.app.get(WebhookRecorder).reload();
    await c.inbound(conn.id, randomNumber(), 'bom dia');
    const got = await waitFor(async () => receiver.got.find((g) => g.body.companyId === c.companyId));
    const expected = createHmac('sha256', SECRET).update(`${got.headers['x-webhook-timestamp']}.${got.raw}`).digest('hex');
    expect(got.headers['x-webhook-signature']).toBe(`sha256=${expected}`);
  });

  it("keeps a prompt's voice key sealed and answers it masked; the masked value sent back keeps it, a new one replaces it", async () => {
    const KEY = 'chave-do-servico-de-voz-AB12';
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const queue = await newQueue(t, admin.token);
    const created = await t.http.post('/prompt', {
      token: admin.token,
      body: {
        name: 'Agente de voz',
        prompt: PROMPT_TEXT,
        queueId: queue.id,
        voice: 'pt-BR-AntonioNeural',
        voiceKey: KEY,
        voiceRegion: 'brazilsouth',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.voiceKey).toBe('••••••••AB12');
    expect(JSON.stringify(created.body)).not.toContain(KEY);
    const stored = async () =>
      (await db().query(`SELECT "voiceKey" FROM tickets.prompts WHERE id = $1`, [created.body.id]))[0].voiceKey as string;
    const sealed = await stored();
    expect(sealed).not.toContain(KEY);
    expect(SecretBox.isSealed(sealed)).toBe(true);
    expect((await t.http.get(`/prompt/${created.body.id}`, { token: admin.token })).body.voiceKey).toBe('••••••••AB12');
    expect(JSON.stringify((await t.http.get('/prompt', { token: admin.token })).body)).not.toContain(KEY);

    // the dialog sends the form back as shown: the masked key keeps the stored one
    const kept = await t.http.put(`/prompt/${created.body.id}`, {
      token: admin.token,
      body: { name: 'Agente de voz 2', voiceKey: '••••••••AB12' },
    });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ name: 'Agente de voz 2', voiceKey: '••••••••AB12' });
    expect(await stored()).toBe(sealed);
    const replaced = await t.http.put(`/prompt/${created.body.id}`, { token: admin.token, body: { voiceKey: 'outra-chave-de-voz-CD34' } });
    expect(replaced.body.voiceKey).toBe('••••••••CD34');
    expect(await stored()).not.toContain('outra-chave');

    // a key stored in clear before this is sealed when the service starts
    await db().query(`UPDATE tickets.prompts SET "voiceKey" = 'chave-antiga-em-claro-EF56' WHERE id = $1`, [created.body.id]);
    await t.app.get(WebhooksService).onApplicationBootstrap();
    expect(SecretBox.isSealed(await stored())).toBe(true);
    expect((await t.http.get(`/prompt/${created.body.id}`, { token: admin.token })).body.voiceKey).toBe('••••••••EF56');
  });
});
