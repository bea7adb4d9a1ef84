import { randomInt, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { TokenRevocation, UserDirectory, type DirectoryUser } from '@wa/auth';
import {
  ConnectionSubjects,
  Streams,
  TicketSubjects,
  type ContactDto,
  type MessageDto,
  type Profile,
  type SessionEndReason,
  type TicketDto,
  type WhatsappDto,
} from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import { CompanySession, connectionRecord, startInProcess, waitFor, type RunningApp, type SessionUser } from '@wa/testing';
import { io as connectClient, type Socket } from 'socket.io-client';
import { AppModule } from '../../src/app.module.js';
import { RealtimeEnv } from '../../src/config/env.js';
import { RealtimeServer } from '../../src/realtime/realtime.server.js';

export type Replica = RunningApp & {
  env: RealtimeEnv;
  bus: EventBus;
  directory: UserDirectory;
  revocation: TokenRevocation;
  io: RealtimeServer['io'];
};

/**
 * Settings one test file shares between its replicas: a durable and an adapter key of its own, so that a
 * realtime-gateway running elsewhere on the same NATS and Redis (npm start, e2e) takes none of its events.
 */
export function deployment(ticketsUrl = 'http://127.0.0.1:9') {
  const tag = `rt-test-${randomUUID().slice(0, 8)}`;
  return {
    REALTIME_DURABLE: tag,
    SOCKET_ADAPTER_KEY: tag,
    TICKETS_URL: ticketsUrl,
    SESSION_ENDED_GRACE_MS: '300',
    FANOUT_LEASE_MS: '1500',
  };
}

export async function startReplica(overrides: Record<string, string>): Promise<Replica> {
  const running = await startInProcess({ envClass: RealtimeEnv, module: (env) => AppModule.register(env), overrides });
  const app = running.app;
  return {
    ...running,
    bus: app.get(EventBus),
    directory: app.get(UserDirectory),
    revocation: app.get(TokenRevocation),
    io: app.get(RealtimeServer).io,
  };
}

/** Removes the file's durable from the streams (the servers are shared and never wiped). */
export async function dropDurable(bus: EventBus, durable: string): Promise<void> {
  const jsm = await bus.connection.jetstreamManager();
  for (const stream of [Streams.TICKETS.name, Streams.CONNECTIONS.name, Streams.AUTH.name]) {
    await jsm.consumers.delete(stream, durable).catch(() => undefined);
  }
  for (const suffix of ['-users', '-announcements', '-settings', '-companies', '-helps', '-payments']) {
    await jsm.consumers.delete(Streams.AUTH.name, `${durable}${suffix}`).catch(() => undefined);
  }
  await jsm.consumers.delete(Streams.BILLING.name, `${durable}-plans`).catch(() => undefined);
  for (const suffix of ['-campaigns', '-campaign-lists']) {
    await jsm.consumers.delete(Streams.CAMPAIGNS.name, `${durable}${suffix}`).catch(() => undefined);
  }
}

/** A company id no other test uses. */
export const newCompanyId = () => 800_000 + randomInt(0, 100_000_000);
// far from auth's user ids: revocations in Redis are per user id, and other suites revoke their users' tokens
let nextId = randomInt(1_000_000_000, 1_900_000_000);
export const newId = () => nextId++;

export type TestUser = SessionUser;

/** A user in the directory (as auth writes it) and an access token of a new login session. */
export async function newUser(
  replica: Replica,
  companyId: number,
  opts: { profile?: Profile; queueIds?: number[]; super?: boolean; inDirectory?: boolean; id?: number } = {},
): Promise<TestUser> {
  const id = opts.id ?? newId();
  return new CompanySession({ directory: replica.directory }, { companyId }).user({ ...opts, id, name: `User ${id}` });
}

export function session(companyId: number, id: number, profile: Profile = 'user', isSuper = false, ttlSeconds?: number) {
  return new CompanySession({}, { companyId }).token(id, profile, { super: isSuper, ttlSeconds });
}

export async function putUser(
  replica: Replica,
  user: Omit<DirectoryUser, 'name' | 'allTicket' | 'super'> & Partial<DirectoryUser>,
): Promise<void> {
  await replica.directory.put({ name: `User ${user.id}`, allTicket: 'desabled', super: false, ...user });
}

export interface Client {
  socket: Socket;
  /** every event received, by channel */
  received: Map<string, unknown[]>;
  events(channel: string): any[];
  close(): void;
}

/** A browser-like client: websocket only, no automatic reconnection. */
export function connect(baseUrl: string, token: string | undefined, how: 'auth' | 'query' = 'auth'): Promise<Client> {
  const socket = connectClient(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 5_000,
    ...(how === 'auth' ? { auth: token === undefined ? {} : { token } } : { query: token === undefined ? {} : { token } }),
  });
  const received = new Map<string, unknown[]>();
  socket.onAny((channel: string, payload: unknown) => {
    if (!received.has(channel)) received.set(channel, []);
    received.get(channel)!.push(payload);
  });
  const client: Client = { socket, received, events: (c) => (received.get(c) ?? []) as any[], close: () => socket.close() };
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(client));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** Emits with an ack and resolves with the answer. */
export function ask(client: Client, event: string, arg?: unknown): Promise<any> {
  return client.socket.timeout(5_000).emitWithAck(event, arg);
}

/** Waits until `check` holds, then a little longer, so that late or duplicate deliveries would show. */
export async function settle(check: () => boolean, quietMs = 300): Promise<void> {
  await waitFor(async () => check(), { timeoutMs: 10_000, intervalMs: 20 });
  await new Promise((r) => setTimeout(r, quietMs));
}

/** Waits until the replica's sockets of a room are as many as expected (the directory watch is asynchronous). */
export async function roomSize(replica: Replica, room: string, size: number): Promise<void> {
  await waitFor(async () => (await replica.io.in(room).fetchSockets()).length === size, { timeoutMs: 10_000, intervalMs: 20 });
}

// ---- events as tickets and whatsapp-sessions publish them ----

export function ticketDto(
  companyId: number,
  id: number,
  queueId: number | null,
  userId: number | null = null,
  status: TicketDto['status'] = 'pending',
): TicketDto {
  const now = new Date().toISOString();
  return {
    id,
    uuid: randomUUID(),
    companyId,
    status,
    userId,
    user: userId === null ? null : { id: userId, name: `User ${userId}` },
    queueId,
    queue: queueId === null ? null : { id: queueId, name: `Queue ${queueId}`, color: '#123456' },
    whatsappId: 1,
    whatsapp: { id: 1, name: 'Main' },
    contactId: 7,
    contact: { id: 7, name: 'Maria', number: '5511999990000', profilePicUrl: '' },
    tags: [],
    lastMessage: 'oi',
    unreadMessages: 1,
    isGroup: false,
    chatbot: false,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    createdAt: now,
    updatedAt: now,
  };
}

export function messageDto(ticket: TicketDto, id: number): MessageDto {
  const now = new Date().toISOString();
  return {
    id,
    wid: `WID${id}`,
    ticketId: ticket.id,
    companyId: ticket.companyId,
    contactId: ticket.contactId,
    body: `message ${id}`,
    fromMe: false,
    mediaType: 'chat',
    mediaUrl: null,
    quotedMsgId: null,
    ack: 0,
    read: false,
    isDeleted: false,
    isEdited: false,
    createdAt: now,
    updatedAt: now,
  };
}

/** A connection record as whatsapp-sessions publishes it, waiting for its QR code by default. */
export function whatsappDto(companyId: number, id: number, status: WhatsappDto['status'] = 'qrcode'): WhatsappDto {
  return connectionRecord(companyId, id, { status, qrcode: status === 'qrcode' ? 'QR-DATA' : '' });
}

const msgId = () => randomUUID();

export const publish = {
  ticketUpdated: (bus: EventBus, ticket: TicketDto) =>
    bus.publish(TicketSubjects.ticketUpdated(ticket.companyId, ticket.id), { companyId: ticket.companyId, ticket }, { msgId: msgId() }),
  ticketDeleted: (bus: EventBus, ticket: TicketDto) =>
    bus.publish(
      TicketSubjects.ticketDeleted(ticket.companyId, ticket.id),
      { companyId: ticket.companyId, ticketId: ticket.id, queueId: ticket.queueId, userId: ticket.userId },
      { msgId: msgId() },
    ),
  ticketUnread: (bus: EventBus, ticket: TicketDto) =>
    bus.publish(
      TicketSubjects.ticketUnread(ticket.companyId, ticket.id),
      { companyId: ticket.companyId, ticketId: ticket.id, queueId: ticket.queueId, userId: ticket.userId },
      { msgId: msgId() },
    ),
  messageCreated: (bus: EventBus, ticket: TicketDto, messageId = newId()) =>
    bus.publish(
      TicketSubjects.messageCreated(ticket.companyId, ticket.id),
      { companyId: ticket.companyId, message: messageDto(ticket, messageId), ticket, contact: ticket.contact },
      { msgId: msgId() },
    ),
  /** many tickets' new messages of one company in one `message.batch`, as tickets announces an inbound batch */
  messageBatch: (bus: EventBus, tickets: TicketDto[]) => {
    const events = tickets.map((ticket) => ({
      verb: 'created' as const,
      companyId: ticket.companyId,
      message: messageDto(ticket, newId()),
      ticket,
      contact: ticket.contact,
    }));
    return bus.publish(
      TicketSubjects.messageBatch(tickets[0].companyId, events[0].message.id),
      { companyId: tickets[0].companyId, events },
      { msgId: msgId() },
    );
  },
  contactUpdated: (bus: EventBus, companyId: number, contact: ContactDto) =>
    bus.publish(TicketSubjects.contactUpdated(companyId, contact.id), { companyId, contact }, { msgId: msgId() }),
  connectionSession: (bus: EventBus, connection: WhatsappDto, reason?: SessionEndReason) =>
    bus.publish(
      ConnectionSubjects.session(connection.companyId, connection.id),
      {
        companyId: connection.companyId,
        connectionId: connection.id,
        status: connection.status,
        qrcode: connection.qrcode,
        session: connection,
        ...(reason ? { reason } : {}),
      },
      { msgId: msgId() },
    ),
  connectionUpdated: (bus: EventBus, connection: WhatsappDto) =>
    bus.publish(
      ConnectionSubjects.updated(connection.companyId, connection.id),
      { companyId: connection.companyId, connection },
      { msgId: msgId() },
    ),
  connectionDeleted: (bus: EventBus, companyId: number, connectionId: number) =>
    bus.publish(ConnectionSubjects.deleted(companyId, connectionId), { companyId, connectionId }, { msgId: msgId() }),
};

/** A stand-in for tickets' `GET /tickets/:id`: answers what the test sets, records what it was asked. */
export class TicketsStub {
  readonly answers = new Map<number, { status: number; body?: unknown }>();
  readonly calls: Array<{ ticketId: number; authorization: string | undefined }> = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res) => {
      const m = /^\/tickets\/(\d+)$/.exec(req.url ?? '');
      const ticketId = m ? Number(m[1]) : NaN;
      this.calls.push({ ticketId, authorization: req.headers.authorization });
      const answer = this.answers.get(ticketId) ?? { status: 404, body: { error: 'ERR_NO_TICKET_FOUND' } };
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body ?? {}));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
