import { TokenRevocation, UserDirectory } from '@wa/auth';
import {
  ConnectionSubjects,
  Subjects,
  WaSubjects,
  type AllTicket,
  type Profile,
  type WaInboundMessage,
  type WhatsappDto,
} from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import { CompanySession, HttpClient, startInProcess, waitFor, type RunningApp } from '@wa/testing';
import { randomInt, randomUUID } from 'node:crypto';
import type { Subscription } from 'nats';
import { AppModule } from '../../src/app.module.js';
import { TicketsEnv } from '../../src/config/env.js';
import { ticketsDatabase } from '../../src/database/data-source.js';

export interface TicketsUnderTest extends RunningApp {
  env: TicketsEnv;
  bus: EventBus;
  directory: UserDirectory;
  http: HttpClient;
}

export async function startTickets(overrides: Record<string, string> = {}): Promise<TicketsUnderTest> {
  const running = await startInProcess({
    envClass: TicketsEnv,
    module: (env) => AppModule.register(env),
    database: (env) => ticketsDatabase(env.DATABASE_URL),
    overrides,
  });
  return { ...running, bus: running.app.get(EventBus), directory: running.app.get(UserDirectory), http: new HttpClient(running.baseUrl) };
}

/**
 * A company of its own for each test: libs/testing's CompanySession (a company id no other test uses, users written
 * to this tickets' directory with their version announced as auth does, tokens signed as auth signs them), plus
 * what tickets hears from the other services (connections, settings, customers' messages).
 */
export class TestCompany {
  readonly companyId: number;
  private readonly session: CompanySession;
  private nextConnection = randomInt(1, 1_000_000_000);

  constructor(
    private readonly t: TicketsUnderTest,
    companyId?: number,
  ) {
    this.session = new CompanySession(
      {
        // read when a user is written, as the process that test talks to has them
        get directory() {
          return t.directory;
        },
        get revocation() {
          return t.app.get(TokenRevocation);
        },
      },
      { companyId },
    );
    this.companyId = this.session.companyId;
  }

  /** The same company through another tickets process (one started after this one stopped). */
  through(t: TicketsUnderTest): TestCompany {
    const same = new TestCompany(t, this.companyId);
    same.nextConnection = this.nextConnection;
    return same;
  }

  async user(
    profile: Profile,
    queueIds: number[] = [],
    name?: string,
    allTicket: AllTicket = 'desabled',
  ): Promise<{ id: number; token: string }> {
    const { id, token } = await this.session.user({ profile, queueIds, name, allTicket });
    return { id, token };
  }

  async setQueues(userId: number, profile: Profile, queueIds: number[]): Promise<void> {
    await this.session.writeUser({
      id: userId,
      companyId: this.companyId,
      name: `${profile} ${userId}`,
      profile,
      queueIds,
      allTicket: 'desabled',
      super: false,
    });
  }

  /** A connection as whatsapp-sessions announces it; waits until tickets knows it. */
  async connection(fields: Partial<WhatsappDto> = {}): Promise<WhatsappDto> {
    const id = fields.id ?? this.nextConnection++;
    const now = fields.updatedAt ?? new Date().toISOString();
    const connection = {
      id,
      companyId: this.companyId,
      name: `Conn ${id}`,
      status: 'CONNECTED',
      isDefault: true,
      queueIds: [],
      greetingMessage: '',
      updatedAt: now,
      createdAt: now,
      ...fields,
    } as WhatsappDto;
    await this.t.bus.publish(
      ConnectionSubjects.session(this.companyId, id),
      { companyId: this.companyId, connectionId: id, status: connection.status, qrcode: '', session: connection },
      { msgId: `test-conn:${id}:${now}:${connection.status}` },
    );
    await waitFor(async () => {
      const res = await queryConnection(this.t, id);
      return res?.status === connection.status && res.updatedAt >= now;
    });
    return connection;
  }

  async setting(key: string, value: string): Promise<void> {
    await this.t.bus.publish(
      Subjects.settingUpdated(this.companyId, key),
      { companyId: this.companyId, key, value, at: new Date().toISOString() },
      { msgId: `test-setting:${this.companyId}:${key}:${value}` },
    );
  }

  /** A setting as auth announces it (any number of times: each change is its own event); waits until tickets keeps it. */
  async settingKept(key: string, value: string): Promise<void> {
    await this.t.bus.publish(
      Subjects.settingUpdated(this.companyId, key),
      { companyId: this.companyId, key, value, at: new Date().toISOString() },
      { msgId: `test-setting:${this.companyId}:${key}:${value}:${randomUUID()}` },
    );
    const { getDataSourceToken } = await import('@nestjs/typeorm');
    const ds = this.t.app.get(getDataSourceToken()) as import('typeorm').DataSource;
    await waitFor(async () => {
      const rows: Array<{ value: string }> = await ds.query(
        `SELECT value FROM tickets.company_settings WHERE "companyId" = $1 AND key = $2`,
        [this.companyId, key],
      );
      return rows[0]?.value === value;
    });
  }

  /** A customer's message as whatsapp-sessions receives it (its id random unless given), written at `timestamp`. */
  received(
    connectionId: number,
    from: string,
    body: string,
    opts: { id?: string; name?: string; fromMe?: boolean; timestamp?: number } = {},
  ): WaInboundMessage {
    return {
      companyId: this.companyId,
      connectionId,
      waMessageId: opts.id ?? `IN${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`,
      from,
      fromName: opts.name ?? 'Maria',
      body,
      mediaType: 'chat',
      fromMe: opts.fromMe ?? false,
      isGroup: false,
      timestamp: opts.timestamp ?? Date.now(),
    };
  }

  /** A customer's message, exactly as whatsapp-sessions publishes it. */
  async inbound(
    connectionId: number,
    from: string,
    body: string,
    opts: { id?: string; name?: string; fromMe?: boolean } = {},
  ): Promise<string> {
    const msg = this.received(connectionId, from, body, opts);
    const waMessageId = msg.waMessageId;
    await this.t.bus.publish(WaSubjects.inbound(this.companyId, connectionId, from), msg, {
      msgId: WaSubjects.inboundMsgId(connectionId, waMessageId),
    });
    return waMessageId;
  }
}

async function queryConnection(t: TicketsUnderTest, id: number): Promise<{ status: string; updatedAt: string } | undefined> {
  const { getDataSourceToken } = await import('@nestjs/typeorm');
  const ds = t.app.get(getDataSourceToken()) as import('typeorm').DataSource;
  const rows = await ds.query(`SELECT status, "updatedAt" FROM tickets.connections WHERE id = $1`, [id]);
  return rows[0] ? { status: rows[0].status, updatedAt: new Date(rows[0].updatedAt).toISOString() } : undefined;
}

/**
 * A stand-in for the session's holder is also asked, in the background, for the profile picture of a contact that
 * wrote for the first time (gathered for a second, then asked): it answers none, and such a question is not one of
 * the commands a test looks at.
 */
export const pictureAsked = (payload: unknown): boolean => (payload as { action?: unknown } | null)?.action === 'profilePicture';
export const NO_PICTURE = { ok: true, result: { url: null } } as const;

/** What a subscription hears, in the order heard, filled as it comes (the caller unsubscribes). */
export function listen<T>(sub: Subscription): T[] {
  const got: T[] = [];
  void (async () => {
    for await (const m of sub) got.push(m.json<T>());
  })();
  return got;
}

export function randomNumber(): string {
  return `55119${randomInt(10_000_000, 99_999_999)}`;
}

/** A queue made by an admin through the API. */
export async function newQueue(
  t: TicketsUnderTest,
  token: string,
  name = `Fila ${Math.random().toString(36).slice(2, 8)}`,
): Promise<{ id: number; name: string; color: string }> {
  const res = await t.http.post('/queue', {
    token,
    body: {
      name,
      color: `#${Math.floor(Math.random() * 0xffffff)
        .toString(16)
        .padStart(6, '0')}`,
    },
  });
  if (res.status !== 201) throw new Error(`queue not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The newest ticket of a contact number, once it is there. */
export function ticketOfNumber(t: TicketsUnderTest, token: string, contactNumber: string, status?: string): Promise<any> {
  return waitFor(async () => {
    const res = await t.http.get(`/tickets?showAll=true${status ? `&status=${status}` : ''}&searchParam=${contactNumber}`, { token });
    return res.body.tickets?.[0];
  });
}
