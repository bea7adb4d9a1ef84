import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import {
  PlanSubjects,
  Subjects,
  type CompanyUpdatedEvent,
  type PlanChangedEvent,
  type PlanFlags,
  type ScheduleDto,
  type WaOutboundSend,
  WaSubjects,
} from '@wa/contracts';
import { TEST_REDIS_URL, waitFor } from '@wa/testing';
import type { DataSource } from 'typeorm';
import { newQueue, randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * Plans and company status hold off tickets' background paths too (issue 38 item 9): after a downgrade, an
 * expiry or a disabling (published as auth and billing publish them), the bot does not ask the queue's flow
 * or AI model and hands the conversation to the queue's agents, a due schedule is marked ERRO unsent, a
 * webhook delivery is marked failed unsent; while the company is active and its plan allows, they run. A
 * company tickets has heard nothing of is asked of auth (here a local peer standing in for it). The flow,
 * the model, the webhook receiver and auth are this test's own HTTP server, counting what it is asked.
 */

const ALL: PlanFlags = {
  useCampaigns: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
};
const FAR = '2099-12-31';

class Peer {
  readonly calls: string[] = [];
  /** what auth answers about a company (absent: 404) */
  readonly companies = new Map<number, { status: boolean; dueDate: string; planId: number; plan: PlanFlags }>();
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
      this.calls.push(path);
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const asked = /^\/auth\/internal\/companies\/(\d+)\/api-access$/.exec(path);
      if (asked) {
        const c = this.companies.get(Number(asked[1]));
        if (!c) return json(404, { error: 'ERR_NOT_FOUND' });
        return json(200, {
          companyId: Number(asked[1]),
          active: c.status && c.dueDate >= '2026-01-01',
          useExternalApi: c.plan.useExternalApi,
          plan: c.plan,
          status: c.status,
          dueDate: c.dueDate,
          planId: c.planId,
        });
      }
      if (path.startsWith('/flow')) return json(200, { reply: 'Olá do fluxo' });
      if (path.startsWith('/model/')) {
        return json(200, {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'gpt-test',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Olá da IA' }, finish_reason: 'stop' }],
        });
      }
      return json(200, { ok: true });
    });
  }

  count(prefix: string): number {
    return this.calls.filter((c) => c.startsWith(prefix)).length;
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
  t = await startTickets({
    // a Redis database of its own: the schedules' BullMQ queue is shared by every tickets process on one Redis
    // database, and another suite's tickets (running while this one does) would send this file's schedules
    REDIS_URL: TEST_REDIS_URL.replace(/\/\d*$/, '/5'),
    AUTH_URL: `${peer.url}/auth`,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_POLL_MS: '100',
    WEBHOOK_BACKOFF_MS: '60000',
    OPENAI_BASE_URL: `${peer.url}/model/v1`,
    OPENAI_API_KEY: 'sk-test-plan-standing',
    SCHEDULE_ATTEMPTS: '2',
    SCHEDULE_BACKOFF_MS: '200',
  });
  db = t.app.get(getDataSourceToken()) as DataSource;
});

afterAll(async () => {
  await t?.close();
  await peer.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let clock = Date.now();
/** Each event of this file a moment after the one before (the copy keeps the latest). */
const at = () => new Date((clock = Math.max(Date.now(), clock + 1))).toISOString();

/** billing's `plan.updated`; waits until tickets' copy has it. */
async function plan(id: number, flags: Partial<PlanFlags> = {}): Promise<void> {
  const p = { ...ALL, ...flags };
  const event: PlanChangedEvent = {
    plan: { id, name: `Plano ${id}`, users: 0, connections: 0, queues: 0, value: 0, isPublic: true, trialDays: 0, ...p },
    at: at(),
  };
  await t.bus.publish(PlanSubjects.updated(id), event, { msgId: `test-plan:${id}:${event.at}` });
  await waitFor(async () => {
    const [row] = await db.query(`SELECT flags FROM tickets.plans WHERE id = $1`, [id]);
    return row && (Object.keys(p) as Array<keyof PlanFlags>).every((k) => row.flags[k] === p[k]) ? true : undefined;
  });
}

/** auth's `company.updated`; waits until tickets' copy has it. */
async function standing(c: TestCompany, planId: number, fields: { status?: boolean; dueDate?: string } = {}): Promise<void> {
  const event: CompanyUpdatedEvent = {
    companyId: c.companyId,
    name: `Empresa ${c.companyId}`,
    planId,
    status: fields.status ?? true,
    dueDate: fields.dueDate ?? FAR,
    at: at(),
  };
  await t.bus.publish(Subjects.companyUpdated(c.companyId), event, { msgId: `test-company:${c.companyId}:${event.at}` });
  await waitFor(async () => {
    const [row] = await db.query(
      `SELECT status, "dueDate"::text AS "dueDate", "planId" FROM tickets.company_standings WHERE "companyId" = $1`,
      [c.companyId],
    );
    return row && row.status === event.status && row.dueDate === event.dueDate && row.planId === planId ? true : undefined;
  });
}

const newPlanId = () => randomInt(1_000_000, 2_000_000_000);

/** The newest ticket of a customer, once the bot has said something on it or handed it over. */
async function botOutcome(c: TestCompany, from: string): Promise<{ said: string[]; handedOver: boolean; queueId: number | null }> {
  return waitFor(
    async () => {
      const [row] = await db.query(
        `SELECT t.id, t."queueId", t."botState" FROM tickets.tickets t JOIN tickets.contacts c ON c.id = t."contactId"
          WHERE c."companyId" = $1 AND c.number = $2 ORDER BY t.id DESC LIMIT 1`,
        [c.companyId, from],
      );
      if (!row) return undefined;
      const said = (await db.query(`SELECT body FROM tickets.messages WHERE "ticketId" = $1 AND "fromMe" ORDER BY id`, [row.id])).map(
        (m: { body: string }) => m.body,
      );
      const handedOver = row.botState?.step === 'done';
      return said.length > 0 || handedOver ? { said, handedOver, queueId: row.queueId as number | null } : undefined;
    },
    { timeoutMs: 10_000 },
  );
}

async function flowCompany() {
  const c = new TestCompany(t);
  const admin = await c.user('admin');
  const queue = await newQueue(t, admin.token);
  const made = await t.http.post('/queueIntegration', {
    token: admin.token,
    body: { type: 'webhook', name: 'Fluxo da loja', urlN8N: `${peer.url}/flow/${c.companyId}` },
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
  const made = await t.http.post('/prompt', {
    token: admin.token,
    body: { name: 'Assistente', prompt: 'Você é o assistente da loja. Responda em poucas palavras.', queueId: queue.id },
  });
  expect(made.status).toBe(201);
  const conn = await c.connection({ queueIds: [queue.id] });
  return { c, admin, queue, conn };
}

/**
 * What the bot did with a customer's message once a later customer of an active company (in the same inbound
 * lane: one by default, in order) has been answered: the replies on the conversation and its bot state.
 */
async function botAfterWitness(c: TestCompany, from: string): Promise<{ said: string[]; botState: unknown }> {
  const w = await witness();
  const n = randomNumber();
  await w.c.inbound(w.conn.id, n, 'tem pizza?');
  expect(await botOutcome(w.c, n)).toMatchObject({ said: ['Olá do fluxo'] });
  const [row] = await db.query(
    `SELECT t.id, t."botState" FROM tickets.tickets t JOIN tickets.contacts c ON c.id = t."contactId" WHERE c."companyId" = $1 AND c.number = $2 ORDER BY t.id DESC LIMIT 1`,
    [c.companyId, from],
  );
  expect(row).toBeDefined();
  const said = (await db.query(`SELECT body FROM tickets.messages WHERE "ticketId" = $1 AND "fromMe" ORDER BY id`, [row.id])).map(
    (m: { body: string }) => m.body,
  );
  return { said, botState: row.botState };
}

let witnessCompany: Awaited<ReturnType<typeof flowCompany>> | undefined;
async function witness() {
  if (!witnessCompany) {
    witnessCompany = await flowCompany();
    const planId = newPlanId();
    await plan(planId);
    await standing(witnessCompany.c, planId);
  }
  return witnessCompany;
}

describe('the bot asks a queue’s flow or AI model only while the company may', () => {
  it('a flow runs while the plan has useIntegrations; after a downgrade the flow is not asked and the ticket goes to the queue’s agents; a disabled company gets no bot at all', async () => {
    const { c, queue, conn } = await flowCompany();
    const planId = newPlanId();
    await plan(planId);
    await standing(c, planId);
    const flow = `/flow/${c.companyId}`;

    const first = randomNumber();
    await c.inbound(conn.id, first, 'tem pizza?');
    expect(await botOutcome(c, first)).toMatchObject({ said: ['Olá do fluxo'], handedOver: false });
    expect(peer.count(flow)).toBe(1);

    // billing takes useIntegrations off the plan
    await plan(planId, { useIntegrations: false });
    const second = randomNumber();
    await c.inbound(conn.id, second, 'tem pizza?');
    expect(await botOutcome(c, second)).toEqual({ said: [], handedOver: true, queueId: queue.id });
    expect(peer.count(flow)).toBe(1);

    // the plan has it again, but the provider disables the company: its customers' messages are stored, and the
    // bot says nothing at all (no menu, no flow, no hand-over)
    await plan(planId);
    await standing(c, planId, { status: false });
    const third = randomNumber();
    await c.inbound(conn.id, third, 'tem pizza?');
    expect(await botAfterWitness(c, third)).toEqual({ said: [], botState: null });
    expect(peer.count(flow)).toBe(1);
  });

  it('the menu bot answers no customer of a disabled company, and answers again once it is enabled', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const sales = await newQueue(t, admin.token, 'Vendas');
    const support = await newQueue(t, admin.token, 'Suporte');
    const conn = await c.connection({ queueIds: [sales.id, support.id], greetingMessage: 'Bem-vindo!' });
    const planId = newPlanId();
    await plan(planId);
    await standing(c, planId, { status: false });
    const off = randomNumber();
    await c.inbound(conn.id, off, 'oi');
    expect(await botAfterWitness(c, off)).toEqual({ said: [], botState: null });

    await standing(c, planId);
    const on = randomNumber();
    await c.inbound(conn.id, on, 'oi');
    const menu = await botOutcome(c, on);
    expect(menu.said.join('\n')).toContain('Vendas');
  });

  it('an AI prompt runs on the operator’s key while the company is active; past its due date the bot says nothing at all; on a plan without useOpenAi the model is not asked and the ticket goes to the queue’s agents', async () => {
    const { c, queue, conn } = await promptCompany();
    const planId = newPlanId();
    await plan(planId);
    await standing(c, planId);
    const before = peer.count('/model/');

    const first = randomNumber();
    await c.inbound(conn.id, first, 'qual o horário?');
    expect(await botOutcome(c, first)).toMatchObject({ said: ['Olá da IA'], handedOver: false });
    expect(peer.count('/model/')).toBe(before + 1);

    // the subscription ran out (its due date is past): no bot at all
    await standing(c, planId, { dueDate: '2020-01-31' });
    const second = randomNumber();
    await c.inbound(conn.id, second, 'qual o horário?');
    expect(await botAfterWitness(c, second)).toEqual({ said: [], botState: null });

    // and on a plan without useOpenAi, renewed: still not asked
    const noAi = newPlanId();
    await plan(noAi, { useOpenAi: false });
    await standing(c, noAi);
    const third = randomNumber();
    await c.inbound(conn.id, third, 'qual o horário?');
    expect(await botOutcome(c, third)).toEqual({ said: [], handedOver: true, queueId: queue.id });
    expect(peer.count('/model/')).toBe(before + 1);
  });

  it('a company tickets has heard nothing of is asked of auth once: one auth disabled gets no bot, one it knows active runs', async () => {
    const planId = newPlanId();
    const off = await flowCompany();
    peer.companies.set(off.c.companyId, { status: false, dueDate: FAR, planId, plan: ALL });
    const on = await flowCompany();
    peer.companies.set(on.c.companyId, { status: true, dueDate: FAR, planId, plan: ALL });

    // (creating the queue asked auth for the plan's counts)
    const asked = peer.count(`/auth/internal/companies/${off.c.companyId}/`);
    const a = randomNumber();
    await off.c.inbound(off.conn.id, a, 'tem pizza?');
    expect(await botAfterWitness(off.c, a)).toEqual({ said: [], botState: null });
    expect(peer.count(`/flow/${off.c.companyId}`)).toBe(0);

    const b = randomNumber();
    await on.c.inbound(on.conn.id, b, 'tem pizza?');
    expect(await botOutcome(on.c, b)).toMatchObject({ said: ['Olá do fluxo'], handedOver: false });
    expect(peer.count(`/flow/${on.c.companyId}`)).toBe(1);

    // kept in tickets' copy: a second conversation does not ask auth again
    const d = randomNumber();
    await off.c.inbound(off.conn.id, d, 'tem pizza?');
    expect(await botAfterWitness(off.c, d)).toEqual({ said: [], botState: null });
    expect(peer.count(`/auth/internal/companies/${off.c.companyId}/`)).toBe(asked + 1);
    expect(peer.count(`/flow/${off.c.companyId}`)).toBe(0);
  });
});

describe('scheduled sends and webhooks hold off too', () => {
  /** A company with a connected connection and a customer whose conversation is closed. */
  async function scheduleCompany() {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection({ status: 'CONNECTED' });
    const number = randomNumber();
    await c.inbound(conn.id, number, 'oi', { name: 'Joana Prado' });
    const first = await ticketOfNumber(t, admin.token, number);
    expect((await t.http.put(`/tickets/${first.id}`, { token: admin.token, body: { status: 'closed' } })).status).toBe(200);
    return { c, admin, conn, contactId: first.contact.id as number };
  }

  async function scheduled(token: string, contactId: number, body: string, final: string[]): Promise<ScheduleDto> {
    const res = await t.http.post('/schedules', { token, body: { body, contactId, sendAt: new Date(Date.now() + 500).toISOString() } });
    expect(res.status).toBe(201);
    return waitFor(
      async () => {
        const s = (await t.http.get(`/schedules/${res.body.id}`, { token })).body as ScheduleDto;
        return final.includes(s.status) ? s : undefined;
      },
      { timeoutMs: 15_000 },
    );
  }

  it('a due schedule is sent while the plan has useSchedules; after a downgrade it is marked ERRO with the reason and nothing is sent; after disabling too', async () => {
    const { c, admin, conn, contactId } = await scheduleCompany();
    const planId = newPlanId();
    await plan(planId);
    await standing(c, planId);
    const sent: WaOutboundSend[] = [];
    const sub = t.bus.connection.subscribe(WaSubjects.outbound(conn.id));
    void (async () => {
      for await (const m of sub) sent.push(m.json());
    })();
    try {
      expect(await scheduled(admin.token, contactId, 'seu pedido saiu', ['ENVIADA', 'ERRO'])).toMatchObject({ status: 'ENVIADA' });
      await waitFor(async () => sent.some((s) => s.body === 'seu pedido saiu') || undefined);

      await plan(planId, { useSchedules: false });
      const refused = await scheduled(admin.token, contactId, 'promoção de ontem', ['ENVIADA', 'ERRO']);
      expect(refused).toMatchObject({ status: 'ERRO', sentAt: null });
      expect((refused as ScheduleDto & { reason?: string }).reason).toMatch(/ERR_NO_PERMISSION.*useSchedules/);

      await plan(planId);
      await standing(c, planId, { status: false });
      const off = await scheduled(admin.token, contactId, 'promoção de anteontem', ['ENVIADA', 'ERRO']);
      expect(off).toMatchObject({ status: 'ERRO', sentAt: null });
      expect((off as ScheduleDto & { reason?: string }).reason).toMatch(/ERR_NO_PERMISSION.*disabled or its subscription has expired/);
      await sleep(500);
      expect(sent.map((s) => s.body)).toEqual(['seu pedido saiu']);
    } finally {
      sub.unsubscribe();
    }
  });

  it('a webhook is delivered while the company is active; once it is disabled its deliveries are marked failed and the receiver gets nothing', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const planId = newPlanId();
    await plan(planId);
    await standing(c, planId);
    const hook = `/hook/${c.companyId}`;
    const put = await t.http.put('/webhook-settings', {
      token: admin.token,
      body: { url: `${peer.url}${hook}`, secret: 'segredo-da-loja-123456', events: ['message.received'] },
    });
    expect(put.status).toBe(200);
    type Delivery = { status: string; attempts: number; lastError: string | null };
    const deliveries = async (): Promise<Delivery[]> =>
      (await t.http.get('/webhook-deliveries', { token: admin.token })).body.deliveries as Delivery[];

    await c.inbound(conn.id, randomNumber(), 'quero comprar');
    await waitFor(async () => ((await deliveries()).some((d) => d.status === 'delivered') ? true : undefined), { timeoutMs: 10_000 });
    expect(peer.count(hook)).toBe(1);

    await standing(c, planId, { status: false });
    await c.inbound(conn.id, randomNumber(), 'quero comprar de novo');
    const failed = await waitFor(async () => (await deliveries()).find((d) => d.status === 'failed'), { timeoutMs: 10_000 });
    expect(failed.lastError).toMatch(/disabled or its subscription has expired/);
    await sleep(300);
    expect(peer.count(hook)).toBe(1);
  });
});
