import { createServiceApp, loadConfig } from '@wa/server-kit';
import { runMigrations } from '@wa/database';
import { ConnectionSubjects, TicketSubjects, type ConnectionChangedEvent, type QueueChangedEvent } from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import { connectionRecord, HttpClient, listen, randomIp, testEnv, uniqueEmail, uniqueSuffix, waitFor, type RunningApp } from '@wa/testing';
import { randomInt } from 'node:crypto';
import { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { AppModule } from '../../src/app.module.js';
import { AuthEnv } from '../../src/config/env.js';
import { createCompanyWithAdmin, ensureFullPlan, isoDateFromNow } from '../../src/database/companies.js';
import { authDatabase } from '../../src/database/data-source.js';

export interface AuthUnderTest extends RunningApp {
  env: AuthEnv;
  db: DataSource;
  /** a client with its own made-up IP, so login limits of one test do not touch another */
  client(): HttpClient;
}

export async function startAuth(overrides: Record<string, string> = {}): Promise<AuthUnderTest> {
  const env = loadConfig(AuthEnv, testEnv(overrides));
  await runMigrations(authDatabase(env.DATABASE_URL));
  const app = await createServiceApp(AppModule.register(env) as never, { env });
  const running = await listen(app);
  return {
    ...running,
    env,
    db: app.get<DataSource>(getDataSourceToken()),
    client: () => new HttpClient(running.baseUrl, { 'x-forwarded-for': randomIp() }),
  };
}

export interface TestCompany {
  companyId: number;
  adminId: number;
  admin: { email: string; password: string };
}

/** A new company with its admin, as the seed or the provider screen makes one. */
export async function newCompany(db: DataSource, opts: { dueDate?: string } = {}): Promise<TestCompany> {
  const password = 'secret123';
  const email = uniqueEmail('admin');
  const { company, admin } = await db.transaction(async (tx) => {
    const plan = await ensureFullPlan(tx);
    return createCompanyWithAdmin(tx, {
      name: `Company ${uniqueSuffix()}`,
      dueDate: opts.dueDate ?? isoDateFromNow(365),
      planId: plan.id,
      admin: { name: 'Admin Test', email, password },
    });
  });
  return { companyId: company.id, adminId: admin.id, admin: { email, password } };
}

export async function login(http: HttpClient, email: string, password: string) {
  const res = await http.post('/auth/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token as string, user: res.body.user, refresh: res.cookies.jrt?.value as string };
}

/** An agent (profile user) created by the company admin through the API. */
export async function newAgent(http: HttpClient, adminToken: string, fields: Record<string, unknown> = {}) {
  const password = 'agent123';
  const email = uniqueEmail('agent');
  const res = await http.post('/users', { token: adminToken, body: { name: 'Agent Smith', email, password, profile: 'user', ...fields } });
  if (res.status !== 201) throw new Error(`create agent failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id as number, email, password };
}

/**
 * Queues (or connections) of a company as tickets (or whatsapp-sessions) announce them; waits until auth
 * knows them, so that a user may be put in them. Ids far from other suites'.
 */
export async function refsOf(auth: AuthUnderTest, companyId: number, kind: 'queue' | 'connection', count = 1): Promise<number[]> {
  const ids = Array.from({ length: count }, () => randomInt(1_000_000_000, 2_000_000_000));
  for (const id of ids) await publishRef(auth, companyId, kind, id);
  await waitFor(async () => {
    const [row] = await auth.db.query(`SELECT count(*)::int AS n FROM auth.company_refs WHERE kind = $1 AND id = ANY($2::int[])`, [
      kind,
      ids,
    ]);
    return row.n === ids.length;
  });
  return ids;
}

/** A queue's or connection's record as its owner publishes it (tickets, whatsapp-sessions): other services consume the same streams. */
export async function publishRef(auth: AuthUnderTest, companyId: number, kind: 'queue' | 'connection', id: number): Promise<void> {
  const bus = auth.app.get(EventBus);
  const now = new Date().toISOString();
  if (kind === 'queue') {
    const event: QueueChangedEvent = {
      companyId,
      queue: {
        id,
        companyId,
        name: `Fila ${id}`,
        color: '#000000',
        greetingMessage: '',
        outOfHoursMessage: '',
        orderQueue: null,
        createdAt: now,
        updatedAt: now,
      },
    };
    await bus.publish(TicketSubjects.queueUpdated(companyId, id), event, { msgId: `test-queue:${id}` });
  } else {
    const event: ConnectionChangedEvent = {
      companyId,
      connection: connectionRecord(companyId, id, { name: `Conexão ${id}`, isDefault: false }),
    };
    await bus.publish(ConnectionSubjects.updated(companyId, id), event, { msgId: `test-connection:${id}` });
  }
}

/** A new company, and its admin signed in from an address of their own. */
export async function adminOfNewCompany(auth: AuthUnderTest) {
  const c = await newCompany(auth.db);
  const http = auth.client();
  const s = await login(http, c.admin.email, c.admin.password);
  return { ...c, http, token: s.token };
}
