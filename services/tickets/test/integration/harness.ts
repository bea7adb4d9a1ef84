import { signAccessToken, TokenRevocation, UserDirectory, type DirectoryUser } from '@wa/auth';
import { ConnectionSubjects, Subjects, WaSubjects, type AllTicket, type Profile, type WaInboundMessage, type WhatsappDto } from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import { HttpClient, startInProcess, TEST_JWT_SECRET, waitFor, type RunningApp } from '@wa/testing';
import { randomInt, randomUUID } from 'node:crypto';
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
  const running = await startInProcess({ envClass: TicketsEnv, module: (env) => AppModule.register(env), database: (env) => ticketsDatabase(env.DATABASE_URL), overrides });
  return { ...running, bus: running.app.get(EventBus), directory: running.app.get(UserDirectory), http: new HttpClient(running.baseUrl) };
}

/** A company of its own for each test, with users in the directory as auth would put them. */
export class TestCompany {
  readonly companyId = 700_000 + randomInt(1, 99_999_999);
  /** far from auth's ids: revocations in Redis are per user id, and other suites revoke their users' tokens */
  private nextUser = randomInt(1_000_000_000, 2_000_000_000);
  private lastVersion = 0;
  private nextConnection = randomInt(1, 1_000_000_000);

  constructor(private readonly t: TicketsUnderTest) {}

  /** The same company through another tickets process (one started after this one stopped). */
  through(t: TicketsUnderTest): TestCompany {
    return Object.assign(Object.create(TestCompany.prototype) as TestCompany, this, { t });
  }

  async user(profile: Profile, queueIds: number[] = [], name = `${profile} ${this.nextUser}`, allTicket: AllTicket = 'desabled'): Promise<{ id: number; token: string }> {
    const id = this.nextUser++;
    await this.writeDirectory({ id, companyId: this.companyId, name, profile, queueIds, allTicket, super: false });
    return { id, token: signAccessToken({ id, companyId: this.companyId, profile, super: false, sid: randomUUID() }, TEST_JWT_SECRET) };
  }

  async setQueues(userId: number, profile: Profile, queueIds: number[]): Promise<void> {
    await this.writeDirectory({ id: userId, companyId: this.companyId, name: `${profile} ${userId}`, profile, queueIds, allTicket: 'desabled', super: false });
  }

  /** As auth writes a user's entry: stored in the bucket, then its version announced through Redis. */
  private async writeDirectory(user: DirectoryUser): Promise<void> {
    const version = Math.max(Date.now(), this.lastVersion + 1);
    this.lastVersion = version;
    await this.t.directory.put({ ...user, version });
    await this.t.app.get(TokenRevocation).announceUserVersion(user.companyId, user.id, version);
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
    await this.t.bus.publish(ConnectionSubjects.session(this.companyId, id), { companyId: this.companyId, connectionId: id, status: connection.status, qrcode: '', session: connection }, { msgId: `test-conn:${id}:${now}:${connection.status}` });
    await waitFor(async () => {
      const res = await queryConnection(this.t, id);
      return res?.status === connection.status && res.updatedAt >= now;
    });
    return connection;
  }

  async setting(key: string, value: string): Promise<void> {
    await this.t.bus.publish(Subjects.settingUpdated(this.companyId, key), { companyId: this.companyId, key, value, at: new Date().toISOString() }, { msgId: `test-setting:${this.companyId}:${key}:${value}` });
  }

  /** A customer's message, exactly as whatsapp-sessions publishes it. */
  async inbound(connectionId: number, from: string, body: string, opts: { id?: string; name?: string; fromMe?: boolean } = {}): Promise<string> {
    const waMessageId = opts.id ?? `IN${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;
    const msg: WaInboundMessage = {
      companyId: this.companyId,
      connectionId,
      waMessageId,
      from,
      fromName: opts.name ?? 'Maria',
      body,
      mediaType: 'chat',
      fromMe: opts.fromMe ?? false,
      isGroup: false,
      timestamp: Date.now(),
    };
    await this.t.bus.publish(WaSubjects.inbound(this.companyId, connectionId, from), msg, { msgId: WaSubjects.inboundMsgId(connectionId, waMessageId) });
    return waMessageId;
  }
}

async function queryConnection(t: TicketsUnderTest, id: number): Promise<{ status: string; updatedAt: string } | undefined> {
  const { getDataSourceToken } = await import('@nestjs/typeorm');
  const ds = t.app.get(getDataSourceToken()) as import('typeorm').DataSource;
  const rows = await ds.query(`SELECT status, "updatedAt" FROM tickets.connections WHERE id = $1`, [id]);
  return rows[0] ? { status: rows[0].status, updatedAt: new Date(rows[0].updatedAt).toISOString() } : undefined;
}

export function randomNumber(): string {
  return `55119${randomInt(10_000_000, 99_999_999)}`;
}

/** A queue made by an admin through the API. */
export async function newQueue(t: TicketsUnderTest, token: string, name = `Fila ${Math.random().toString(36).slice(2, 8)}`): Promise<{ id: number; name: string; color: string }> {
  const res = await t.http.post('/queue', { token, body: { name, color: `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0')}` } });
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
