import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { inboundMessagesOf, Streams, WaSubjects, type WaInboundBatch, type WaInboundMessage, type WhatsappDto } from '@wa/contracts';
import { runMigrations } from '@wa/database';
import { EventBus } from '@wa/event-bus';
import { createServiceApp, loadConfig } from '@wa/server-kit';
import { CompanySession, HttpClient, TEST_NATS_URL, listen, testEnv, waitFor, type RunningApp } from '@wa/testing';
import { connect, type JetStreamManager, type Msg, type NatsConnection, type Subscription } from 'nats';
import { DataSource } from 'typeorm';
import { AppModule, type AppOptions } from '../../src/app.module.js';
import { WhatsappSessionsEnv } from '../../src/config/env.js';
import { whatsappDatabase } from '../../src/database/data-source.js';
import { SessionRunner } from '../../src/runtime/session-runner.js';
import { SessionRuntime } from '../../src/runtime/session-runtime.js';
import { subjectToken } from '../../src/runtime/subject-token.js';

/**
 * The test companies of this process (libs/testing's CompanySession): each a company id no other test uses, and
 * access tokens signed as auth signs them. whatsapp-sessions reads no user directory, so no user is written.
 */
const sessions = new Map<number, CompanySession>();

function sessionOf(companyId: number): CompanySession {
  let session = sessions.get(companyId);
  if (!session) sessions.set(companyId, (session = new CompanySession({}, { companyId })));
  return session;
}

/** Made-up companies of one test file (the database is shared and never wiped). */
export function companyPool(size: number): number[] {
  return Array.from({ length: size }, () => {
    const session = new CompanySession({}, { idsFrom: 900_000 });
    sessions.set(session.companyId, session);
    return session.companyId;
  });
}

/**
 * A test file's whatsapp-sessions: `size` made-up companies, the service started before the file's tests (handed
 * to `started`) and stopped after them, the connections the file lists in `created` deleted first.
 */
export function sessionsSuite(
  size: number,
  started: (svc: SessionsUnderTest) => void,
): { companies: number[]; created: Array<{ id: number; token: string }> } {
  const companies = companyPool(size);
  const created: Array<{ id: number; token: string }> = [];
  let svc: SessionsUnderTest | undefined;
  beforeAll(async () => {
    svc = await startSessions(companies);
    started(svc);
  });
  afterAll(async () => {
    if (!svc) return;
    await cleanup(svc, created);
    await svc.close();
  });
  return { companies, created };
}

export interface SessionsUnderTest extends RunningApp {
  env: WhatsappSessionsEnv;
  http: HttpClient;
  db: DataSource;
  bus: EventBus;
  nc: NatsConnection;
  jsm: JetStreamManager;
  /** runs the sessions this process holds */
  runner: SessionRunner;
  /** this process, as holder of session leases */
  owner: string;
}

/**
 * Boots whatsapp-sessions in this process against the real servers. Its placement only picks
 * up, on its own, sessions of `companies` (old rows of other runs are left alone) and looks every
 * 300 ms, so takeovers are quick.
 */
export async function startSessions(
  companies: number[],
  overrides: Record<string, string> = {},
  options: AppOptions = {},
): Promise<SessionsUnderTest> {
  const env = loadConfig(
    WhatsappSessionsEnv,
    testEnv({
      SESSION_COMPANY_IDS: companies.join(','),
      SESSION_CLAIM_INTERVAL_MS: '300',
      SESSION_LEASE_RENEW_MS: '1000',
      SESSION_LEASE_TTL_MS: '5000',
      SANDBOX_ACK_STEP_MS: '100',
      ...overrides,
    }),
  );
  await runMigrations(whatsappDatabase(env.DATABASE_URL));
  await ticketsStreamAsTicketsDeclaresIt();
  const app = await createServiceApp(AppModule.register(env, options) as never, { env });
  const running = await listen(app);
  const bus = app.get(EventBus);
  return {
    ...running,
    env,
    http: new HttpClient(running.baseUrl),
    db: app.get<DataSource>(getDataSourceToken()),
    bus,
    nc: bus.connection,
    jsm: await bus.connection.jetstreamManager(),
    runner: app.get(SessionRunner),
    owner: app.get(SessionRuntime).owner,
  };
}

/**
 * TICKETS as tickets declares it at its start (its subjects, prompt.> included): whatsapp-sessions only
 * reads it (queue and prompt ids), and tickets does not run in these tests.
 */
async function ticketsStreamAsTicketsDeclaresIt(): Promise<void> {
  const nc = await connect({ servers: TEST_NATS_URL });
  try {
    const jsm = await nc.jetstreamManager();
    const want = [...Streams.TICKETS.subjects];
    const info = await jsm.streams.info(Streams.TICKETS.name).catch(() => null);
    if (!info) await jsm.streams.add({ name: Streams.TICKETS.name, subjects: want });
    else if (want.some((s) => !info.config.subjects?.includes(s)))
      await jsm.streams.update(Streams.TICKETS.name, { ...info.config, subjects: want });
  } finally {
    await nc.close();
  }
}

/** A queue or prompt id of a company, announced as tickets does (`queue.updated`, `prompt.updated`); resolves once whatsapp-sessions knows it. */
export async function announce(
  svc: SessionsUnderTest,
  kind: 'queue' | 'prompt',
  companyId: number,
  id = randomInt(1_000_000_000, 2_000_000_000),
): Promise<number> {
  if (kind === 'queue')
    await svc.bus.publish(
      `queue.updated.${companyId}.${id}`,
      { companyId, queue: { id, name: `Fila ${id}`, color: '#123456' } },
      { msgId: `test-queue:${id}:${randomUUID()}` },
    );
  else
    await svc.bus.publish(`prompt.updated.${companyId}.${id}`, { companyId, promptId: id }, { msgId: `test-prompt:${id}:${randomUUID()}` });
  await waitFor(
    async () =>
      ((await svc.db.query(`SELECT 1 FROM whatsapp.company_refs WHERE kind = $1 AND id = $2`, [kind, id])) as unknown[]).length > 0 ||
      undefined,
    { timeoutMs: 15_000 },
  );
  return id;
}

/** An access token of a new user of the company (an admin unless told). */
export function tokenFor(companyId: number, profile: 'admin' | 'user' = 'admin'): string {
  const session = sessionOf(companyId);
  return session.token(session.newUserId(), profile).token;
}

/** A platform operator's token (a super user of the company's). */
export function superTokenFor(companyId: number): string {
  const session = sessionOf(companyId);
  return session.token(session.newUserId(), 'admin', { super: true }).token;
}

export const fieldMessages = (body: { details?: Array<{ field: string; messages: string[] }> }, field: string) =>
  body.details?.find((d) => d.field === field)?.messages ?? [];

export async function createConnection(svc: SessionsUnderTest, token: string, body: Record<string, unknown> = {}): Promise<WhatsappDto> {
  const res = await svc.http.post('/whatsapp', { token, body: { name: `Conn ${randomUUID().slice(0, 8)}`, ...body } });
  if (res.status !== 201) throw new Error(`create connection failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as WhatsappDto;
}

export async function connectionOf(svc: SessionsUnderTest, token: string, id: number): Promise<WhatsappDto> {
  const res = await svc.http.get(`/whatsapp/${id}`, { token });
  if (res.status !== 200) throw new Error(`get connection failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as WhatsappDto;
}

/** A socket a test's Baileys socket factory made: Baileys' config is all it is given. */
interface MadeSocket {
  readonly config: { readonly logger?: unknown };
}

/** The sockets a test's factory made for one connection, in order: the provider's logger for each names it (pino's bindings). */
export function socketsOf<S extends MadeSocket>(sockets: readonly S[], connectionId: number): S[] {
  return sockets.filter(
    (s) => (s.config.logger as { bindings?: () => { connectionId?: number } }).bindings?.().connectionId === connectionId,
  );
}

/**
 * The `n`th socket made for a connection (0: its first). A file's sockets are one list and another test's session may
 * add to it at any time (a reconnect 20 ms after a drop), so a socket is found by its connection, not by its place.
 */
export function socketOf<S extends MadeSocket>(sockets: readonly S[], connectionId: number, n = 0): Promise<S> {
  return waitFor(async () => socketsOf(sockets, connectionId)[n], { timeoutMs: 5000 });
}

export function waitForStatus(svc: SessionsUnderTest, token: string, id: number, status: string, timeoutMs = 10_000): Promise<WhatsappDto> {
  return waitFor(
    async () => {
      const c = await connectionOf(svc, token, id);
      return c.status === status ? c : undefined;
    },
    { timeoutMs },
  );
}

/** `wa.inbound.<companyId>.<connectionId>.batch`: a connection's batches of received messages (WaInboundBatch). */
const isInboundBatch = (subject: string): boolean => /^wa\.inbound\.[^.]+\.[^.]+\.batch$/.test(subject);

/** The subject a batch's message would have alone: its conversation's. */
const aloneSubject = (m: WaInboundMessage): string => WaSubjects.inbound(m.companyId, m.connectionId, subjectToken(m.from));

/**
 * Collects what is published on a subject (a plain subscription sees JetStream publishes too). A connection's batch
 * of received messages counts as its messages, each under the subject it would have alone (`batchMsgId`: the batch's
 * msg id; `msgId` is only a message's published alone).
 */
export class Collector<T = any> {
  readonly items: Array<{ subject: string; data: T; msgId?: string; batchMsgId?: string }> = [];
  private readonly sub: Subscription;

  constructor(nc: NatsConnection, subject: string) {
    this.sub = nc.subscribe(subject, {
      callback: (err, msg: Msg) => {
        if (err) return;
        const data = JSON.parse(new TextDecoder().decode(msg.data)) as unknown;
        const msgId = msg.headers?.get('Nats-Msg-Id');
        if (isInboundBatch(msg.subject)) {
          for (const m of inboundMessagesOf(data as WaInboundBatch))
            this.items.push({ subject: aloneSubject(m), data: m as T, batchMsgId: msgId });
          return;
        }
        this.items.push({ subject: msg.subject, data: data as T, msgId });
      },
    });
  }

  waitFor(pred: (item: { subject: string; data: T; msgId?: string; batchMsgId?: string }) => boolean, timeoutMs = 10_000) {
    return waitFor(async () => this.items.find(pred), { timeoutMs });
  }

  close(): void {
    this.sub.unsubscribe();
  }
}

/**
 * What the WA stream holds on one subject, in stream order; for a conversation's inbound subject
 * (`wa.inbound.<companyId>.<connectionId>.<contact>`) its messages published alone and those inside its connection's
 * batches (`msgId` then the batch's).
 */
export async function heldOn<T>(
  jsm: JetStreamManager,
  subject: string,
): Promise<Array<{ data: T; msgId: string | undefined; seq: number }>> {
  const parts = subject.split('.');
  const batches =
    parts.length === 5 && parts[0] === 'wa' && parts[1] === 'inbound' && parts[4] !== 'batch'
      ? `${parts.slice(0, 4).join('.')}.batch`
      : null;
  const held: Array<{ data: T; msgId: string | undefined; seq: number }> = [];
  for (const subj of batches ? [subject, batches] : [subject]) {
    for (let seq = 1; ;) {
      const m = await jsm.streams.getMessage(Streams.WA.name, { seq, next_by_subj: subj }).catch(() => null);
      if (!m) break;
      seq = m.seq + 1;
      const msgId = m.header?.get('Nats-Msg-Id');
      if (subj === batches) {
        for (const one of inboundMessagesOf(m.json<WaInboundBatch>()))
          if (aloneSubject(one) === subject) held.push({ data: one as T, msgId, seq: m.seq });
      } else held.push({ data: m.json<T>(), msgId, seq: m.seq });
    }
  }
  // a batch's messages keep their order (a stable sort)
  return held.sort((a, b) => a.seq - b.seq);
}

/** How many messages the WA stream holds on one subject (a conversation's: alone and in batches, see heldOn). */
export async function storedOn(jsm: JetStreamManager, subject: string): Promise<number> {
  return (await heldOn(jsm, subject)).length;
}

/** The last message the WA stream holds on one subject (see heldOn). */
export async function lastOn<T>(jsm: JetStreamManager, subject: string): Promise<{ data: T; msgId: string | undefined; seq: number }> {
  const held = await heldOn<T>(jsm, subject);
  if (held.length === 0) throw new Error(`nothing on ${subject}`);
  return held[held.length - 1];
}

/** Deletes what a test created (connections, their consumers) so the shared servers do not fill up. */
export async function cleanup(svc: SessionsUnderTest, created: Array<{ id: number; token: string }>): Promise<void> {
  for (const c of created) await svc.http.delete(`/whatsapp/${c.id}`, { token: c.token }).catch(() => undefined);
}
