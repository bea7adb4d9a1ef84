import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { waitFor } from '@wa/testing';
import type { DataSource } from 'typeorm';
import { newQueue, randomNumber, startTickets, TestCompany, type TicketsUnderTest } from './harness.js';

/**
 * Every answer tickets reads from a peer (queue integrations, AI models, webhook receivers) is capped in
 * bytes and bounded by an overall deadline on top of the idle timeouts (issue 38 item 2). The peers are
 * this test's own HTTP servers: one streams a huge answer as fast as it can, one trickles a byte every
 * 100 ms forever (never idle long enough for an idle timeout).
 */

const TIMEOUT_MS = 1500;
/** What the flooding peer sends at most, if nobody stops reading (200 MB). */
const FLOOD_BYTES = 200 * 1024 * 1024;

interface Exchange {
  path: string;
  sent: number;
  closedAt: number | null;
  startedAt: number;
}

/** A peer whose every answer is a 200 that floods or trickles, as its path says (`/flood…`, `/trickle…`, `/model/…` as the model's mode says). */
class Peer {
  readonly exchanges: Exchange[] = [];
  modelMode: 'flood' | 'trickle' = 'flood';
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.answer(req, res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      const x: Exchange = { path, sent: 0, closedAt: null, startedAt: Date.now() };
      this.exchanges.push(x);
      res.on('close', () => (x.closedAt = Date.now()));
      const mode = path.startsWith('/model') ? this.modelMode : path.includes('flood') ? 'flood' : 'trickle';
      res.writeHead(200, { 'content-type': path.startsWith('/model') ? 'application/json' : 'text/plain' });
      if (mode === 'flood') {
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const pump = () => {
          while (!res.destroyed && x.sent < FLOOD_BYTES) {
            x.sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        pump();
      } else {
        const timer = setInterval(() => {
          if (res.destroyed) return void clearInterval(timer);
          x.sent += 1;
          res.write(' ');
        }, 100);
        res.on('close', () => clearInterval(timer));
      }
    });
  }

  of(prefix: string): Exchange[] {
    return this.exchanges.filter((x) => x.path.startsWith(prefix));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

const peer = new Peer();
let t: TicketsUnderTest;
let db: DataSource;

beforeAll(async () => {
  await peer.start();
  // the peers are on loopback: the operator allows private addresses here
  t = await startTickets({
    WEBHOOK_ALLOW_PRIVATE: 'true',
    INTEGRATION_TIMEOUT_MS: String(TIMEOUT_MS),
    OPENAI_TIMEOUT_MS: String(TIMEOUT_MS),
    OPENAI_BASE_URL: `${peer.url}/model/v1`,
    OPENAI_API_KEY: 'sk-test-outbound-reads',
    // Dialogflow's stand-in: the peer trickles every detectIntent answer
    DIALOGFLOW_API_ENDPOINT: peer.url,
    WEBHOOK_BACKOFF_MS: '60000',
    WEBHOOK_POLL_MS: '100',
  });
  db = t.app.get(getDataSourceToken()) as DataSource;
});

afterAll(async () => {
  await t?.close();
  await peer.stop();
});

/** Samples this process's memory (tickets runs in it) until stopped: the most it grew by, in MB. */
function memoryWatch() {
  const before = process.memoryUsage();
  let rss = before.rss;
  let heap = before.heapUsed + before.arrayBuffers;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed + m.arrayBuffers);
  }, 5);
  return () => {
    clearInterval(timer);
    return {
      rssMB: Math.round((rss - before.rss) / 1048576),
      heapMB: Math.round((heap - before.heapUsed - before.arrayBuffers) / 1048576),
    };
  };
}

/** The customer's ticket once the bot is done with it (handed to the queue's agents). */
async function handedOver(companyId: number, from: string, timeoutMs: number) {
  return waitFor(
    async () => {
      const [row] = await db.query(
        `SELECT t.id, t."queueId", t.chatbot, t.status, t."botState" FROM tickets.tickets t JOIN tickets.contacts c ON c.id = t."contactId"
          WHERE c."companyId" = $1 AND c.number = $2 ORDER BY t.id DESC LIMIT 1`,
        [companyId, from],
      );
      return row?.botState?.step === 'done' ? (row as { id: number; queueId: number; chatbot: boolean; status: string }) : undefined;
    },
    { timeoutMs },
  );
}

/** The bot's messages on a ticket. */
async function botSaid(ticketId: number): Promise<string[]> {
  const rows = await db.query(`SELECT body FROM tickets.messages WHERE "ticketId" = $1 AND "fromMe" ORDER BY id`, [ticketId]);
  return rows.map((r: { body: string }) => r.body.slice(0, 50));
}

async function integratedCompany(path: string) {
  const c = new TestCompany(t);
  const admin = await c.user('admin');
  const queue = await newQueue(t, admin.token);
  const made = await t.http.post('/queueIntegration', {
    token: admin.token,
    body: { type: 'webhook', name: `Fluxo ${path.slice(1)}`, urlN8N: `${peer.url}${path}` },
  });
  expect(made.status).toBe(201);
  expect((await t.http.put(`/queue/${queue.id}`, { token: admin.token, body: { integrationId: made.body.id } })).status).toBe(200);
  const conn = await c.connection({ queueIds: [queue.id] });
  return { c, admin, queue, conn };
}

async function promptCompany() {
  const c = new TestCompany(t);
  const admin = await c.user('admin');
  const queue = await newQueue(t, admin.token);
  const prompt = 'Você é o assistente da loja. Responda com educação e em poucas palavras, sempre em português.';
  const made = await t.http.post('/prompt', { token: admin.token, body: { name: 'Assistente', prompt, queueId: queue.id } });
  expect(made.status).toBe(201);
  const conn = await c.connection({ queueIds: [queue.id] });
  return { c, admin, queue, conn };
}

describe('a queue integration’s answer is read with a cap and a deadline', () => {
  it('a flow streaming a huge answer fast is cut at 256 KB: the ticket goes to the queue’s agents at once and tickets’ memory does not grow', async () => {
    const { c, queue, conn } = await integratedCompany('/flood-flow');
    const from = randomNumber();
    const grew = memoryWatch();
    const started = Date.now();
    await c.inbound(conn.id, from, 'tem pizza?');
    const ticket = await handedOver(c.companyId, from, 10_000);
    const memory = grew();
    expect(ticket).toMatchObject({ status: 'pending', queueId: queue.id, chatbot: false });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 2);
    expect(await botSaid(ticket.id)).toEqual([]);
    // one try (an answer too large is not tried again), closed by tickets long before the peer was done
    const [x] = peer.of('/flood-flow');
    expect(peer.of('/flood-flow')).toHaveLength(1);
    await waitFor(async () => x?.closedAt !== null || undefined);
    expect(x!.sent).toBeLessThan(16 * 1024 * 1024);
    expect(memory.rssMB).toBeLessThan(100);
    expect(memory.heapMB).toBeLessThan(100);
  });

  it('a flow trickling its answer forever (never idle for the idle timeout) is cut at the deadline: the ticket goes to the queue’s agents', async () => {
    const { c, queue, conn } = await integratedCompany('/trickle-flow');
    const from = randomNumber();
    const started = Date.now();
    await c.inbound(conn.id, from, 'tem pizza?');
    const ticket = await handedOver(c.companyId, from, 15_000);
    const took = Date.now() - started;
    expect(ticket).toMatchObject({ status: 'pending', queueId: queue.id, chatbot: false });
    // two tries (the retry after a failure), each cut at INTEGRATION_TIMEOUT_MS
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS * 2 - 100);
    expect(took).toBeLessThan(TIMEOUT_MS * 2 + 3000);
    const tries = peer.of('/trickle-flow');
    expect(tries).toHaveLength(2);
    await waitFor(async () => tries.every((x) => x.closedAt !== null) || undefined);
    for (const x of tries) expect(x.closedAt! - x.startedAt).toBeLessThan(TIMEOUT_MS + 1000);
    expect(await botSaid(ticket.id)).toEqual([]);
  });
});

describe('a Dialogflow agent’s answer has a deadline', () => {
  it('an agent trickling its answer forever is cut at INTEGRATION_TIMEOUT_MS per try: the ticket goes to the queue’s agents', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const queue = await newQueue(t, admin.token);
    const key = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const jsonContent = JSON.stringify({
      type: 'service_account',
      project_id: 'loja-df',
      client_email: 'bot@loja-df.iam.gserviceaccount.com',
      private_key: key.privateKey,
    });
    const made = await t.http.post('/queueIntegration', {
      token: admin.token,
      body: { type: 'dialogflow', name: 'Atendente virtual', projectName: 'loja-df', language: 'pt-BR', jsonContent },
    });
    expect(made.status).toBe(201);
    expect((await t.http.put(`/queue/${queue.id}`, { token: admin.token, body: { integrationId: made.body.id } })).status).toBe(200);
    const conn = await c.connection({ queueIds: [queue.id] });
    const from = randomNumber();
    const started = Date.now();
    await c.inbound(conn.id, from, 'quero ver meu pedido');
    const ticket = await handedOver(c.companyId, from, 15_000);
    expect(ticket).toMatchObject({ status: 'pending', queueId: queue.id, chatbot: false });
    // the client's first call also makes its token (an RSA signature): a second or so more
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 2 + 5000);
    const tries = await waitFor(async () => (peer.of('/v2/projects/loja-df/').length >= 2 ? peer.of('/v2/projects/loja-df/') : undefined));
    expect(tries).toHaveLength(2);
    await waitFor(async () => tries.every((x) => x.closedAt !== null) || undefined);
    for (const x of tries) expect(x.closedAt! - x.startedAt).toBeLessThan(TIMEOUT_MS + 1000);
    expect(await botSaid(ticket.id)).toEqual([]);
  });
});

describe('an AI model’s answer is read with a cap and a deadline', () => {
  it('a model streaming a huge answer fast is cut at 1 MB, one trickling is cut at its deadline: the ticket goes to the queue’s agents, memory does not grow', async () => {
    const { c, queue, conn } = await promptCompany();
    for (const mode of ['flood', 'trickle'] as const) {
      peer.modelMode = mode;
      const already = peer.of('/model').length;
      const from = randomNumber();
      const grew = memoryWatch();
      const started = Date.now();
      await c.inbound(conn.id, from, 'qual o horário?');
      const ticket = await handedOver(c.companyId, from, 15_000);
      const memory = grew();
      const took = Date.now() - started;
      expect({ mode, ticket }).toMatchObject({ mode, ticket: { status: 'pending', queueId: queue.id, chatbot: false } });
      expect(await botSaid(ticket.id)).toEqual([]);
      const tries = peer.of('/model').slice(already);
      // the client tries twice at most (maxRetries 1), each cut at OPENAI_TIMEOUT_MS
      expect(tries.length).toBeGreaterThanOrEqual(1);
      expect(tries.length).toBeLessThanOrEqual(2);
      expect(took).toBeLessThan(TIMEOUT_MS * 2 + 3000);
      await waitFor(async () => tries.every((x) => x.closedAt !== null) || undefined);
      for (const x of tries) expect(x.sent).toBeLessThan(16 * 1024 * 1024);
      expect({ mode, memory: memory.rssMB < 100 && memory.heapMB < 100 }).toEqual({ mode, memory: true });
    }
  });
});

describe('a webhook receiver’s answer is read with a cap and a deadline', () => {
  it('a receiver that answers 200 and trickles its body forever has its delivery cut at the deadline, recorded as not answering', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const put = await t.http.put('/webhook-settings', {
      token: admin.token,
      body: { url: `${peer.url}/trickle-webhook`, secret: 'segredo-da-loja-123456', events: ['message.received'] },
    });
    expect(put.status).toBe(200);
    await c.inbound(conn.id, randomNumber(), 'quero comprar');
    // the dispatcher's deadline is 10 s
    const tried = await waitFor(
      async () => {
        const log = await t.http.get('/webhook-deliveries', { token: admin.token });
        return (log.body.deliveries as Array<{ attempts: number; lastError: string | null; status: string }>).find((d) => d.attempts >= 1);
      },
      { timeoutMs: 20_000 },
    );
    expect(tried).toMatchObject({ status: 'pending', lastError: expect.stringContaining('did not answer within') });
    const [x] = peer.of('/trickle-webhook');
    await waitFor(async () => x?.closedAt !== null || undefined);
    expect(x!.closedAt! - x!.startedAt).toBeLessThan(12_000);
  }, 40_000);
});
