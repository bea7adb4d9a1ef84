import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signAccessToken } from '@wa/auth';
import { createDataSource, runMigrations } from '@wa/database';
import { WaSubjects, type WaInboundMessage } from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import { HttpClient, randomIp, TEST_DATABASE_URL, TEST_JWT_SECRET, TEST_NATS_URL, uniqueEmail, uniqueSuffix, waitFor } from '@wa/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { billingDatabase } from '../../services/billing/src/database/data-source.js';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { whatsappDatabase } from '../../services/whatsapp-sessions/src/database/data-source.js';
import { startProcesses, stopProcesses, type ServiceProcess } from './processes.js';
import { Product } from './product.js';

/**
 * Running the platform (issue 16), through the gateway against the real services: billing's plans managed by
 * super users, the plan gates of every plan-gated route, the plan's counts of users, connections and queues
 * (each enforced by its service), companies (create, edit, disable, delete everywhere) and help videos.
 */
const running: ServiceProcess[] = [];
let http: HttpClient;
let product: Product;
let auth: ReturnType<typeof createDataSource>;
let ticketsService: ServiceProcess;
const NO_PERMISSION = 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.';
/** a super user's token (the platform's operator) */
const superToken = signAccessToken({ id: 1_999_999_201, companyId: 1, profile: 'admin', super: true, sid: randomUUID() }, TEST_JWT_SECRET);

beforeAll(async () => {
  for (const db of [authDatabase, billingDatabase, ticketsDatabase, whatsappDatabase]) await runMigrations(db(TEST_DATABASE_URL));
  const services = await startProcesses({
    auth: {},
    billing: (urls) => ({ AUTH_URL: urls.auth }),
    tickets: (urls) => ({ AUTH_URL: urls.auth }),
    'whatsapp-sessions': (urls) => ({ AUTH_URL: urls.auth }),
    'messaging-gateway': (urls) => ({
      AUTH_URL: urls.auth,
      BILLING_URL: urls.billing,
      TICKETS_URL: urls.tickets,
      WHATSAPP_SESSIONS_URL: urls['whatsapp-sessions'],
      CAMPAIGNS_URL: 'http://127.0.0.1:1',
      REALTIME_URL: 'http://127.0.0.1:1',
    }),
  });
  running.push(...Object.values(services));
  ticketsService = services.tickets;
  const gateway = services['messaging-gateway'];
  http = new HttpClient(gateway.url, { 'x-forwarded-for': randomIp() });
  product = new Product(http, gateway.url);
  auth = createDataSource(authDatabase(TEST_DATABASE_URL, 1));
  await auth.initialize();
});

afterAll(async () => {
  await auth?.destroy();
  await stopProcesses(running);
});

type Plan = { id: number; name: string; users: number; connections: number; queues: number; value: number; updatedAt?: string } & Record<
  string,
  unknown
>;

async function newPlan(body: Record<string, unknown>): Promise<Plan> {
  const res = await http.post('/plans', { token: superToken, body: { name: `Plano ${uniqueSuffix()}`, ...body } });
  expect(res.status).toBe(201);
  return res.body as Plan;
}

/** auth's copy of a plan (what the gates read) as billing last announced it. */
async function copied(planId: number, check: (row: Record<string, unknown>) => boolean = () => true) {
  return waitFor(async () => {
    const [row] = await auth.query(`SELECT * FROM auth.plans WHERE id = $1`, [planId]);
    return row && check(row) ? row : undefined;
  });
}

async function putPlan(plan: Plan, body: Record<string, unknown>, check: (row: Record<string, unknown>) => boolean) {
  const res = await http.put(`/plans/${plan.id}`, { token: superToken, body });
  expect(res.status).toBe(200);
  await copied(plan.id, check);
  return res.body as Plan;
}

/** A company moved to a plan the way the provider does it (settings tab Empresas): the gate follows on the next request. */
async function onPlan(companyId: number, planId: number): Promise<void> {
  const res = await http.put(`/companies/${companyId}`, { token: superToken, body: { planId } });
  expect(res.status).toBe(200);
}
const color = () => `#${randomBytes(3).toString('hex')}`;

describe('plans (settings tab Planos)', () => {
  it('super users list, create, edit and read plans with the spec’s defaults; admins are refused; bad input and a taken name are refused', async () => {
    const a = await product.newCompany('Planos Admin');
    for (const [method, path] of [
      ['get', '/plans/all'],
      ['get', '/plans/1'],
      ['post', '/plans'],
      ['put', '/plans/1'],
      ['delete', '/plans/1'],
    ] as const) {
      expect((await http[method](path, { token: a.token, ...(method === 'get' ? {} : { body: { name: 'Meu plano' } }) })).status).toBe(403);
    }
    const bad = async (body: Record<string, unknown>) => {
      const res = await http.post('/plans', { token: superToken, body });
      expect(res.status).toBe(400);
      return JSON.stringify(res.body);
    };
    expect(await bad({})).toContain('Required');
    expect(await bad({ name: 'X', users: -1 })).toContain('users');
    expect(await bad({ name: 'X', value: 'caro' })).toContain('value');
    expect(await bad({ name: 'X', useKanban: 'sim' })).toContain('useKanban');

    const name = `Básico ${uniqueSuffix()}`;
    const made = await http.post('/plans', { token: superToken, body: { name } });
    expect(made.status).toBe(201);
    // spec 02 §9: 0 users, connections, queues and value; every feature on
    expect(made.body).toMatchObject({
      name,
      users: 0,
      connections: 0,
      queues: 0,
      value: 0,
      useCampaigns: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
    });
    const taken = await http.post('/plans', { token: superToken, body: { name: name.toUpperCase() } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('ERR_PLAN_NAME_EXISTS');

    const edited = await http.put(`/plans/${made.body.id}`, {
      token: superToken,
      body: { users: 3, connections: 3, value: 49.9, useOpenAi: false },
    });
    expect(edited.body).toMatchObject({
      id: made.body.id,
      name,
      users: 3,
      connections: 3,
      queues: 0,
      value: 49.9,
      useOpenAi: false,
      useKanban: true,
    });
    expect((await http.get(`/plans/${made.body.id}`, { token: superToken })).body).toEqual(edited.body);
    expect((await http.get('/plans/all', { token: superToken })).body.map((p: Plan) => p.name)).toContain(name);
    expect((await http.get('/plans/list')).body.find((p: Plan) => p.id === made.body.id)).toMatchObject({ users: 3, value: 49.9 });
    // the copy the gates read follows
    await copied(made.body.id, (row) => row.users === 3 && row.useOpenAi === false);
    const missing = await http.get('/plans/987654321', { token: superToken });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_PLAN_FOUND');
    expect((await http.put(`/plans/${made.body.id}`, { token: superToken, body: { name: '' } })).status).toBe(400);
  });

  it('a plan in use cannot be deleted; once no company is on it, it goes, from billing and from auth’s copy', async () => {
    const a = await product.newCompany('Planos Em Uso');
    const plan = await newPlan({});
    await copied(plan.id);
    await onPlan(a.user.companyId, plan.id);
    const refused = await http.delete(`/plans/${plan.id}`, { token: superToken });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('ERR_PLAN_IN_USE');
    await onPlan(a.user.companyId, 1);
    expect((await http.delete(`/plans/${plan.id}`, { token: superToken })).status).toBe(200);
    expect((await http.get(`/plans/${plan.id}`, { token: superToken })).status).toBe(404);
    await waitFor(async () => (await auth.query(`SELECT 1 FROM auth.plans WHERE id = $1`, [plan.id])).length === 0);
  });
});

describe('the plan gates', () => {
  it('a plan without a feature: each of its routes answers 403 with the spec’s text before any service; a plan change applies on the next request', async () => {
    const a = await product.newCompany('Planos Portas');
    const off = {
      useCampaigns: false,
      useKanban: false,
      useOpenAi: false,
      useIntegrations: false,
      useSchedules: false,
      useInternalChat: false,
      useExternalApi: false,
    };
    const plan = await newPlan(off);
    await copied(plan.id, (row) => row.useSchedules === false);
    await onPlan(a.user.companyId, plan.id);
    const gated = [
      '/schedules',
      '/campaigns',
      '/campaign-settings',
      '/contact-lists',
      '/contact-list-items',
      '/chats',
      '/tags/kanban',
      '/ticket/kanban',
      '/prompt',
      '/queueIntegration',
    ];
    for (const path of gated) {
      const res = await http.get(path, { token: a.token });
      expect({ path, status: res.status, error: res.body.error, message: res.body.message }).toEqual({
        path,
        status: 403,
        error: 'ERR_NO_PERMISSION',
        message: NO_PERMISSION,
      });
    }
    expect((await http.post('/schedules', { token: a.token, body: { body: 'x' } })).status).toBe(403);
    // what every plan has stays open
    expect((await http.get('/tags', { token: a.token })).status).toBe(200);
    expect((await http.get('/queue', { token: a.token })).status).toBe(200);

    // a plan's change reaches auth's copy by billing's event; the gate follows as soon as the copy has it
    await putPlan(plan, { useSchedules: true }, (row) => row.useSchedules === true);
    await waitFor(async () => (await http.get('/schedules', { token: a.token })).status === 200);
    await putPlan(plan, { useSchedules: false }, (row) => row.useSchedules === false);
    await waitFor(async () => (await http.get('/schedules', { token: a.token })).status === 403);
    expect((await http.get('/campaigns', { token: a.token })).status).toBe(403);
    // moving the company to a plan with the feature
    await onPlan(a.user.companyId, 1);
    expect((await http.get('/schedules', { token: a.token })).status).toBe(200);
    // the gate keeps the plan it was given while the plan epochs stand: a change written behind the product's
    // back is not seen (for PLAN_CACHE_MS)…
    await auth.query(`UPDATE auth.companies SET "planId" = $2 WHERE id = $1`, [a.user.companyId, plan.id]);
    expect((await http.get('/schedules', { token: a.token })).status).toBe(200);
    // …until the product changes something of the company: auth raises its epoch, the next request asks again
    expect((await http.put(`/companies/${a.user.companyId}`, { token: superToken, body: { phone: '5511999990000' } })).status).toBe(200);
    expect((await http.get('/schedules', { token: a.token })).status).toBe(403);
  });

  it('the plan’s counts of users, connections and queues are refused past the limit by each service; raising them applies on the next create', async () => {
    const a = await product.newCompany('Planos Limites');
    const plan = await newPlan({ users: 2, connections: 1, queues: 1 });
    await copied(plan.id, (row) => row.users === 2);
    await onPlan(a.user.companyId, plan.id);
    const limit = (res: { status: number; body: { error?: string; resource?: string; limit?: number } }) => ({
      status: res.status,
      error: res.body.error,
      resource: res.body.resource,
      limit: res.body.limit,
    });

    // queues (tickets)
    const q1 = await http.post('/queue', { token: a.token, body: { name: 'Fila um', color: color() } });
    expect(q1.status).toBe(201);
    expect(limit(await http.post('/queue', { token: a.token, body: { name: 'Fila dois', color: color() } }))).toEqual({
      status: 403,
      error: 'ERR_PLAN_LIMIT_REACHED',
      resource: 'queues',
      limit: 1,
    });
    expect((await http.get('/queue', { token: a.token })).body).toHaveLength(1);

    // connections (whatsapp-sessions)
    expect(
      (await http.post('/whatsapp', { token: a.token, body: { name: 'Conexão um', channel: 'sandbox', queueIds: [q1.body.id] } })).status,
    ).toBe(201);
    expect(
      limit(await http.post('/whatsapp', { token: a.token, body: { name: 'Conexão dois', channel: 'sandbox', queueIds: [q1.body.id] } })),
    ).toEqual({
      status: 403,
      error: 'ERR_PLAN_LIMIT_REACHED',
      resource: 'connections',
      limit: 1,
    });

    // users (auth): the admin is one of the two
    const user = (n: number) => ({ name: `Agente ${n}`, email: uniqueEmail(`limite-${n}`), password: 'agent123', profile: 'user' });
    expect((await http.post('/users', { token: a.token, body: user(1) })).status).toBe(201);
    expect(limit(await http.post('/users', { token: a.token, body: user(2) }))).toEqual({
      status: 403,
      error: 'ERR_PLAN_LIMIT_REACHED',
      resource: 'users',
      limit: 2,
    });

    // more room on the plan: the next creates pass
    await putPlan(plan, { users: 3, queues: 0 }, (row) => row.users === 3 && row.queues === 0);
    expect((await http.post('/users', { token: a.token, body: user(3) })).status).toBe(201);
    expect((await http.post('/queue', { token: a.token, body: { name: 'Fila dois', color: color() } })).status).toBe(201);
  });
});

describe('companies (settings tab Empresas)', () => {
  it('super users list, create and edit companies; a new company gets its admin, default settings and default queue; admins are refused', async () => {
    const a = await product.newCompany('Empresas Admin');
    for (const [method, path] of [
      ['get', '/companies'],
      ['get', '/companies/list'],
      ['post', '/companies'],
      ['put', `/companies/${a.user.companyId}`],
    ] as const) {
      expect((await http[method](path, { token: a.token, ...(method === 'get' ? {} : { body: { name: 'Outra' } }) })).status).toBe(403);
    }
    const plan = await newPlan({ users: 5 });
    await copied(plan.id);
    const bad = async (body: Record<string, unknown>) => {
      const res = await http.post('/companies', { token: superToken, body });
      expect(res.status).toBe(400);
      return JSON.stringify(res.body);
    };
    const name = `Loja ${uniqueSuffix()}`;
    const email = uniqueEmail('empresa');
    // spec 02 §5: email and plan required
    expect(await bad({ name, planId: plan.id })).toContain('Invalid email');
    expect(await bad({ name, email })).toContain('planId');
    expect(await bad({ name, email, planId: 987654321 })).toContain('plan not found');
    expect(await bad({ name, email, planId: plan.id, dueDate: '25/12/2026' })).toContain('Invalid date');

    const made = await http.post('/companies', {
      token: superToken,
      body: { name, email, planId: plan.id, phone: '5511999990000', password: 'Senha123', campaignsEnabled: false, recurrence: 'ANUAL' },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name,
      email,
      planId: plan.id,
      status: true,
      recurrence: 'ANUAL',
      phone: '5511999990000',
      plan: { id: plan.id },
    });
    expect(made.body.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(made.body.settings).toContainEqual({ key: 'campaignsEnabled', value: 'false' });
    expect(made.body.settings).toContainEqual({ key: 'scheduleType', value: 'disabled' });
    // the same name or an email already in use: refused, nothing made
    expect(
      (
        await http.post('/companies', {
          token: superToken,
          body: { name: name.toUpperCase(), email: uniqueEmail('outra'), planId: plan.id },
        })
      ).status,
    ).toBe(400);
    expect((await http.post('/companies', { token: superToken, body: { name: `${name} 2`, email, planId: plan.id } })).body.error).toBe(
      'ERR_EMAIL_ALREADY_EXISTS',
    );

    // its first admin signs in with the company's email, and finds the default queue tickets made for it
    const login = await http.post('/auth/login', { body: { email, password: 'Senha123' } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ profile: 'admin', companyId: made.body.id });
    const admin = login.body.token as string;
    expect(await waitFor(async () => ((await http.get('/queue', { token: admin })).body.length === 1 ? true : undefined))).toBe(true);

    const page = await http.get(`/companies?searchParam=${encodeURIComponent(name)}`, { token: superToken });
    expect(page.body).toMatchObject({ count: 1, hasMore: false });
    expect(page.body.companies[0]).toMatchObject({ id: made.body.id, name, email });
    expect((await http.get('/companies/list', { token: superToken })).body.map((c: { id: number }) => c.id)).toContain(made.body.id);

    // renewal by recurrence: the due date moves on; another plan applies to its gates on the next request
    const noSchedules = await newPlan({ useSchedules: false });
    await copied(noSchedules.id);
    expect((await http.get('/schedules', { token: admin })).status).toBe(200);
    const edited = await http.put(`/companies/${made.body.id}`, {
      token: superToken,
      body: { dueDate: '2030-01-31', planId: noSchedules.id, campaignsEnabled: true },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ dueDate: '2030-01-31', planId: noSchedules.id });
    expect(edited.body.settings).toContainEqual({ key: 'campaignsEnabled', value: 'true' });
    expect((await http.get('/schedules', { token: admin })).status).toBe(403);
    expect((await http.put(`/companies/${made.body.id}`, { token: superToken, body: { planId: 987654321 } })).status).toBe(400);
    expect((await http.put('/companies/987654321', { token: superToken, body: { name: 'Nenhuma' } })).status).toBe(404);
  });

  it('deleting a company ends its users’ access at once and leaves nothing of it readable in any service', async () => {
    const email = uniqueEmail('apagar');
    const made = await http.post('/companies', {
      token: superToken,
      body: { name: `Apagar ${uniqueSuffix()}`, email, planId: 1, password: 'Senha123' },
    });
    expect(made.status).toBe(201);
    const companyId = made.body.id as number;
    const admin = (await http.post('/auth/login', { body: { email, password: 'Senha123' } })).body.token as string;
    const queue = await waitFor(async () => ((await http.get('/queue', { token: admin })).body as Array<{ id: number }>)[0]);
    const conn = await product.connectedSandbox(admin, queue.id);
    expect(
      (
        await http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, {
          token: admin,
          body: { from: '5511987650000', name: 'Cliente', body: 'olá' },
        })
      ).status,
    ).toBeLessThan(300);
    await waitFor(async () => ((await http.get('/tickets?status=pending', { token: admin })).body.tickets?.length > 0 ? true : undefined));
    const rowsOf = async (schema: string) => {
      const tables: Array<{ t: string }> = await auth.query(
        `SELECT table_name AS t FROM information_schema.columns WHERE table_schema = $1 AND column_name = 'companyId'`,
        [schema],
      );
      let n = 0;
      for (const { t } of tables)
        n += Number((await auth.query(`SELECT count(*)::int AS n FROM "${schema}"."${t}" WHERE "companyId" = $1`, [companyId]))[0].n);
      return n;
    };
    expect(await rowsOf('tickets')).toBeGreaterThan(0);
    expect(await rowsOf('whatsapp')).toBeGreaterThan(0);

    // not by an admin, not the caller's own company
    expect((await http.delete(`/companies/${companyId}`, { token: admin })).status).toBe(403);
    expect((await http.delete('/companies/1', { token: superToken })).status).toBe(403);
    expect((await http.delete(`/companies/${companyId}`, { token: superToken })).status).toBe(200);
    expect((await http.get('/queue', { token: admin })).status).toBe(401);
    expect((await http.post('/auth/login', { body: { email, password: 'Senha123' } })).status).toBe(401);
    expect((await http.get(`/companies/${companyId}`, { token: superToken })).status).toBe(404);
    expect(await rowsOf('auth')).toBe(0);
    // every other service deletes its part (company.deleted); the session is ended, its files gone
    await waitFor(async () => ((await rowsOf('tickets')) === 0 && (await rowsOf('whatsapp')) === 0 ? true : undefined), {
      timeoutMs: 20_000,
    });
    expect(await auth.query(`SELECT 1 FROM whatsapp.session_state WHERE "connectionId" = $1`, [conn.id])).toHaveLength(0);
    expect((await http.delete(`/companies/${companyId}`, { token: superToken })).status).toBe(404);

    // a customer's message still on its way (published before the deletion, read after it) starts nothing again
    const bus = await EventBus.connect({ servers: TEST_NATS_URL, name: 'administration-test' });
    try {
      const late: WaInboundMessage = {
        companyId,
        connectionId: conn.id,
        waMessageId: `late-${uniqueSuffix()}`,
        from: '5511987650000',
        fromName: 'Cliente',
        body: 'ainda aí?',
        mediaType: 'chat',
        fromMe: false,
        isGroup: false,
        timestamp: Date.now(),
      };
      await bus.publish(WaSubjects.inbound(companyId, conn.id, late.from), late, {
        msgId: WaSubjects.inboundMsgId(conn.id, late.waMessageId),
      });
      await waitFor(async () => (ticketsService.output().includes('messages of deleted companies dropped') ? true : undefined));
      expect(await rowsOf('tickets')).toBe(0);
    } finally {
      await bus.close();
    }
  });

  it('disabling a company signs its users out at once and refuses their sign-in', async () => {
    const a = await product.newCompany('Empresas Desativada');
    expect((await http.get('/queue', { token: a.token })).status).toBe(200);
    expect((await http.put(`/companies/${a.user.companyId}`, { token: superToken, body: { status: false } })).status).toBe(200);
    await waitFor(async () => ((await http.get('/queue', { token: a.token })).status === 401 ? true : undefined));
    const [row] = await auth.query(`SELECT email FROM auth.users WHERE "companyId" = $1 LIMIT 1`, [a.user.companyId]);
    const login = await http.post('/auth/login', { body: { email: row.email, password: 'secret123' } });
    expect(login.status).toBe(403);
    expect(login.body.message).toContain('desativada');
    expect((await http.put(`/companies/${a.user.companyId}`, { token: superToken, body: { status: true } })).status).toBe(200);
    expect((await http.post('/auth/login', { body: { email: row.email, password: 'secret123' } })).status).toBe(200);
  });
});

describe('helps (the /helps page, settings tab Ajuda)', () => {
  it('everyone signed in reads the help videos; only super users manage them; bad input and a taken title are refused', async () => {
    const a = await product.newCompany('Ajuda Leitora');
    const title = `Como conectar ${uniqueSuffix()}`;
    expect((await http.post('/helps', { token: a.token, body: { title, video: 'dQw4w9WgXcQ' } })).status).toBe(403);
    const bad = async (body: Record<string, unknown>) => {
      const res = await http.post('/helps', { token: superToken, body });
      expect(res.status).toBe(400);
      return JSON.stringify(res.body);
    };
    expect(await bad({ video: 'dQw4w9WgXcQ' })).toContain('Required');
    expect(await bad({ title, video: 'https://youtube.com/watch?v=x y' })).toContain('Código de vídeo inválido');
    const made = await http.post('/helps', {
      token: superToken,
      body: { title, description: 'Leia o QR code pelo celular.', video: 'dQw4w9WgXcQ' },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ title, description: 'Leia o QR code pelo celular.', video: 'dQw4w9WgXcQ' });
    expect(await bad({ title: title.toUpperCase(), video: 'abc' })).toContain('already exists');

    const page = await http.get(`/helps?searchParam=${encodeURIComponent(title)}`, { token: a.token });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ count: 1, hasMore: false, helps: [{ id: made.body.id, title }] });
    expect((await http.get('/helps/list', { token: a.token })).body.map((h: { id: number }) => h.id)).toContain(made.body.id);
    expect((await http.put(`/helps/${made.body.id}`, { token: a.token, body: { title: 'Outro' } })).status).toBe(403);
    expect((await http.put(`/helps/${made.body.id}`, { token: superToken, body: { video: 'xyz_123-AB' } })).body).toMatchObject({
      title,
      video: 'xyz_123-AB',
    });
    expect((await http.delete(`/helps/${made.body.id}`, { token: a.token })).status).toBe(403);
    expect((await http.delete(`/helps/${made.body.id}`, { token: superToken })).status).toBe(200);
    expect((await http.delete(`/helps/${made.body.id}`, { token: superToken })).status).toBe(404);
    expect((await http.get('/helps/list', { token: a.token })).body.map((h: { id: number }) => h.id)).not.toContain(made.body.id);
  });
});

describe('profiles (README "Profiles")', () => {
  it('a supervisor sees every conversation and the dashboard and marks tags for the kanban; not users, connections or queues; an agent does not mark tags', async () => {
    const a = await product.newCompany('Perfis');
    const mine = await http.post('/queue', { token: a.token, body: { name: 'Fila do supervisor', color: color() } });
    const other = await http.post('/queue', { token: a.token, body: { name: 'Outra fila', color: color() } });
    const conn = await product.connectedSandbox(a.token, other.body.id);
    const person = (profile: string) => ({
      name: `Pessoa ${profile}`,
      email: uniqueEmail(profile),
      password: 'secret123',
      profile,
      queueIds: [mine.body.id],
    });
    const signIn = async (body: { email: string; password: string }) =>
      (await http.post('/auth/login', { body: { email: body.email, password: body.password } })).body.token as string;
    const sup = person('supervisor');
    const agentBody = person('user');
    expect((await http.post('/users', { token: a.token, body: sup })).status).toBe(201);
    expect((await http.post('/users', { token: a.token, body: agentBody })).status).toBe(201);
    const supervisor = await signIn(sup);
    const agent = await signIn(agentBody);

    // a customer lands in the other queue (the connection's only one)
    expect(
      (
        await http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, {
          token: a.token,
          body: { from: '5511987651111', name: 'Cliente', body: 'oi' },
        })
      ).status,
    ).toBeLessThan(300);
    const ticket = await waitFor(async () =>
      ((await http.get('/tickets?status=pending', { token: a.token })).body.tickets as Array<{ id: number; queueId: number }>).find(
        (t) => t.queueId === other.body.id,
      ),
    );
    expect((await http.get(`/tickets/${ticket.id}`, { token: supervisor })).status).toBe(200);
    expect((await http.get(`/tickets/${ticket.id}`, { token: agent })).status).toBe(403);
    expect((await http.get('/dashboard?days=7', { token: supervisor })).status).toBe(200);
    expect((await http.get('/dashboard?days=7', { token: agent })).status).toBe(403);

    // the kanban mark: admins and supervisors (spec 02 §6)
    expect((await http.post('/tags', { token: agent, body: { name: 'Urgente', kanban: 1 } })).status).toBe(403);
    const tag = await http.post('/tags', { token: supervisor, body: { name: 'Urgente', kanban: 1 } });
    expect(tag.status).toBe(201);
    expect((await http.put(`/tags/${tag.body.id}`, { token: agent, body: { kanban: 0 } })).status).toBe(403);
    expect((await http.put(`/tags/${tag.body.id}`, { token: agent, body: { color: '#112233' } })).status).toBe(200);

    // the company's administration stays the admins'
    expect((await http.post('/users', { token: supervisor, body: person('user') })).status).toBe(403);
    expect((await http.post('/whatsapp', { token: supervisor, body: { name: 'Minha', channel: 'sandbox' } })).status).toBe(403);
    expect((await http.post('/queue', { token: supervisor, body: { name: 'Nova', color: color() } })).status).toBe(403);
    expect((await http.put('/settings/userRating', { token: supervisor, body: { value: 'enabled' } })).status).toBe(403);
  });
});

describe('the kanban board’s reads', () => {
  it('GET /tags/kanban gives the lanes (tags marked for it); GET /ticket/kanban the open and waiting tickets with their tags, of the company only; moving a card is clearing and setting its tag', async () => {
    const a = await product.newCompany('Kanban A');
    const b = await product.newCompany('Kanban B');
    const q = await http.post('/queue', { token: a.token, body: { name: 'Kanban', color: color() } });
    const conn = await product.connectedSandbox(a.token, q.body.id);
    const lane = await http.post('/tags', { token: a.token, body: { name: 'Em negociação', color: '#ff8800', kanban: 1 } });
    const plain = await http.post('/tags', { token: a.token, body: { name: 'Sem quadro' } });
    expect([lane.status, plain.status]).toEqual([201, 201]);
    expect((await http.get('/tags/kanban', { token: a.token })).body).toEqual({
      lista: [expect.objectContaining({ id: lane.body.id, name: 'Em negociação', kanban: 1 })],
    });
    expect((await http.get('/tags/kanban', { token: b.token })).body).toEqual({ lista: [] });

    expect(
      (
        await http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, {
          token: a.token,
          body: { from: '5511987652222', name: 'Rita', body: 'quero comprar' },
        })
      ).status,
    ).toBeLessThan(300);
    const card = async (token: string) =>
      (
        (await http.get(`/ticket/kanban?queueIds=${encodeURIComponent(JSON.stringify([q.body.id]))}&teste=true`, { token })).body
          .tickets as Array<{
          id: number;
          uuid: string;
          contact: { name: string; number: string };
          lastMessage: string;
          tags: Array<{ id: number }>;
        }>
      ).find((t) => t.contact.number === '5511987652222');
    const first = await waitFor(() => card(a.token));
    expect(first).toMatchObject({ contact: { name: 'Rita', number: '5511987652222' }, lastMessage: 'quero comprar', tags: [] });
    expect(first.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(await card(b.token)).toBeUndefined();
    expect((await http.get('/ticket/kanban?queueIds=nada', { token: a.token })).status).toBe(400);

    // dragged to the lane, then back to 'Em aberto'
    expect((await http.delete(`/ticket-tags/${first.id}`, { token: a.token })).status).toBe(200);
    expect((await http.put(`/ticket-tags/${first.id}/${lane.body.id}`, { token: a.token })).status).toBe(200);
    expect((await card(a.token))?.tags.map((t) => t.id)).toEqual([lane.body.id]);
    expect((await http.delete(`/ticket-tags/${first.id}`, { token: a.token })).status).toBe(200);
    expect((await card(a.token))?.tags).toEqual([]);
    // another company's ticket is not tagged through this one's tag
    expect((await http.put(`/ticket-tags/${first.id}/${lane.body.id}`, { token: b.token })).status).toBeGreaterThanOrEqual(400);
  });
});
