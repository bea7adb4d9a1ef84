import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ErrorMessages,
  SocketClientEvents,
  USER_ONLINE_TTL_MS,
  userOnlineKey,
  type ErrorCode,
  type SocketAck,
  type TicketStatus,
} from '@wa/contracts';
import { REDIS } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { Rooms } from './rooms.js';
import type { RealtimeSocket } from './socket-types.js';
import { TicketAccess } from './ticket-access.js';

/** Chat boxes one socket follows at most; joining another leaves the oldest. */
export const MAX_CHAT_ROOMS = 20;
/** Chat box checks one socket may start per window (each may call tickets). */
const LOOKUPS_PER_WINDOW = 30;
const LOOKUP_WINDOW_MS = 10_000;
/** Heartbeats closer than this are not written again. */
const HEARTBEAT_MIN_INTERVAL_MS = 10_000;

const STATUSES: readonly TicketStatus[] = ['pending', 'open', 'closed'];

type Ack = (answer: SocketAck) => void;

/** A ticket id as Whaticket clients send it: 12, "12" or { ticketId: 12 }. */
export function parseTicketId(arg: unknown): number | null {
  const raw = arg !== null && typeof arg === 'object' ? (arg as { ticketId?: unknown }).ticketId : arg;
  const n = typeof raw === 'string' && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** A ticket status as sent with joinTickets: "open" or { status: "open" }. */
export function parseStatus(arg: unknown): TicketStatus | null {
  const raw = arg !== null && typeof arg === 'object' ? (arg as { status?: unknown }).status : arg;
  return STATUSES.find((s) => s === raw) ?? null;
}

/** A client event's handling, its answer through the ack (when the client asked for one), a failure logged and refused. */
function answer(
  socket: RealtimeSocket,
  event: string,
  handle: (socket: RealtimeSocket, arg: unknown) => Promise<SocketAck>,
  log: Logger,
  args: unknown[],
): void {
  const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as Ack) : undefined;
  handle(socket, args[0]).then(
    (result) => reply(socket, ack, result),
    (err: unknown) => {
      log.warn(
        { event, companyId: socket.data.companyId, userId: socket.data.userId, err: (err as Error)?.message },
        'client event failed',
      );
      reply(socket, ack, refusal(event, 'ERR_INTERNAL'));
    },
  );
}

/**
 * The events a client emits (spec 01 §7). Every room is built from the socket's own company;
 * an answer goes to the ack when the client asked for one, a refusal otherwise to an `error` event.
 */
@Injectable()
export class ClientEvents {
  private readonly log = new Logger(ClientEvents.name);

  constructor(
    private readonly access: TicketAccess,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /**
   * The listeners, made once and shared by every socket (EventEmitter calls a listener with the socket as `this`):
   * none of them is a closure of its own per socket, which 10,000 sockets would each keep for their whole life.
   */
  private readonly listeners: ReadonlyArray<readonly [string, (this: RealtimeSocket, ...args: unknown[]) => void]> = [
    this.listener(SocketClientEvents.joinChatBox, (socket, arg) => this.joinChatBox(socket, arg)),
    this.listener(SocketClientEvents.leaveChatBox, async (socket, arg) => {
      const ticketId = parseTicketId(arg);
      if (ticketId === null) return refusal(SocketClientEvents.leaveChatBox, 'ERR_VALIDATION');
      const room = Rooms.ticket(socket.data.companyId, ticketId);
      socket.data.chatRooms = socket.data.chatRooms.filter((r) => r !== room);
      await socket.leave(room);
      return { ok: true };
    }),
    this.listener(SocketClientEvents.joinNotification, async (socket) => {
      await socket.join(Rooms.notification(socket.data.companyId));
      return { ok: true };
    }),
    this.listener(SocketClientEvents.joinTickets, async (socket, arg) => {
      const status = parseStatus(arg);
      if (!status) return refusal(SocketClientEvents.joinTickets, 'ERR_VALIDATION');
      await socket.join(Rooms.status(socket.data.companyId, status));
      return { ok: true };
    }),
    this.listener(SocketClientEvents.leaveTickets, async (socket, arg) => {
      const status = parseStatus(arg);
      if (!status) return refusal(SocketClientEvents.leaveTickets, 'ERR_VALIDATION');
      await socket.leave(Rooms.status(socket.data.companyId, status));
      return { ok: true };
    }),
    this.listener(SocketClientEvents.userStatus, (socket) => this.heartbeat(socket)),
  ];

  attach(socket: RealtimeSocket): void {
    for (const [event, listener] of this.listeners) socket.on(event, listener);
  }

  private listener(
    event: string,
    handle: (socket: RealtimeSocket, arg: unknown) => Promise<SocketAck>,
  ): readonly [string, (this: RealtimeSocket, ...args: unknown[]) => void] {
    const log = this.log;
    return [
      event,
      function (this: RealtimeSocket, ...args: unknown[]): void {
        answer(this, event, handle, log, args);
      },
    ];
  }

  private async joinChatBox(socket: RealtimeSocket, arg: unknown): Promise<SocketAck> {
    const event = SocketClientEvents.joinChatBox;
    const ticketId = parseTicketId(arg);
    if (ticketId === null) return refusal(event, 'ERR_VALIDATION');
    const data = socket.data;
    const room = Rooms.ticket(data.companyId, ticketId);
    if (data.chatRooms.includes(room)) return { ok: true };
    const now = Date.now();
    if (now - data.lookupWindowAt > LOOKUP_WINDOW_MS) {
      data.lookupWindowAt = now;
      data.lookups = 0;
    }
    if (++data.lookups > LOOKUPS_PER_WINDOW) return refusal(event, 'ERR_TOO_MANY_ATTEMPTS');
    const answer = await this.access.check(data, ticketId);
    if (!answer.ok) return refusal(event, answer.error);
    if (!socket.connected) return { ok: true };
    data.chatRooms = [...data.chatRooms.filter((r) => r !== room), room];
    for (const oldest of data.chatRooms.splice(0, Math.max(0, data.chatRooms.length - MAX_CHAT_ROOMS))) await socket.leave(oldest);
    await socket.join(room);
    return { ok: true };
  }

  /** userStatus: the user is online for two heartbeats (the client beats every 300000 ms). */
  private async heartbeat(socket: RealtimeSocket): Promise<SocketAck> {
    const now = Date.now();
    if (now - socket.data.lastHeartbeatAt < HEARTBEAT_MIN_INTERVAL_MS) return { ok: true };
    socket.data.lastHeartbeatAt = now;
    await this.redis.set(userOnlineKey(socket.data.companyId, socket.data.userId), new Date(now).toISOString(), 'PX', USER_ONLINE_TTL_MS);
    return { ok: true };
  }
}

function refusal(event: string, error: ErrorCode): SocketAck {
  return { ok: false, event, error, message: ErrorMessages[error] };
}

function reply(socket: RealtimeSocket, ack: Ack | undefined, answer: SocketAck): void {
  if (ack) ack(answer);
  else if (!answer.ok) socket.emit('error', answer);
}
