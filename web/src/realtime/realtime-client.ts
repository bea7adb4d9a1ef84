import { SocketClientEvents, type SocketAck } from '@wa/contracts';
import { io, type Socket } from 'socket.io-client';

/** spec 01 §4 and §9: the userStatus heartbeat every 300000 ms. */
export const HEARTBEAT_MS = 300_000;

type JoinEvent = typeof SocketClientEvents.joinTickets | typeof SocketClientEvents.joinChatBox | typeof SocketClientEvents.joinNotification;

const LEAVE: Partial<Record<JoinEvent, string>> = {
  [SocketClientEvents.joinTickets]: SocketClientEvents.leaveTickets,
  [SocketClientEvents.joinChatBox]: SocketClientEvents.leaveChatBox,
};

export interface RealtimeOptions {
  url: string;
  /** read at every (re)connection, so a refreshed token is used */
  getToken(): string | null;
  /** a new access token, or null when the session is over */
  refresh(): Promise<string | null>;
  /** the session is over (a refresh was refused) */
  onSessionOver(): void;
  /** the socket is back after being away: events may have been missed */
  onReconnected?(): void;
  /** the first connection: rooms are joined from now on */
  onConnected?(): void;
  heartbeatMs?: number;
}

/**
 * The live socket (spec 01 §4 "Live updates", §7 "Live socket"): websocket only, the token in the
 * handshake; the rooms it joined are joined again on every reconnection; after a server-side
 * disconnect or a refused handshake it reconnects with a refreshed token.
 */
export class RealtimeClient {
  readonly socket: Socket;
  private readonly joins = new Map<string, { event: JoinEvent; arg: unknown; count: number }>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  private wasConnected = false;
  private authFailures = 0;
  private lostNow = false;
  private readonly lostListeners = new Set<() => void>();

  constructor(private readonly opts: RealtimeOptions) {
    this.socket = io(opts.url, {
      path: '/socket.io',
      transports: ['websocket'],
      autoConnect: false,
      auth: (cb) => cb({ token: opts.getToken() ?? '' }),
      reconnectionDelay: 1000,
      reconnectionDelayMax: 10_000,
    });
    this.socket.on('connect', () => this.connected());
    this.socket.on('disconnect', (reason) => this.disconnected(reason));
    this.socket.on('connect_error', (err) => this.connectError(err));
  }

  connect(): void {
    this.closed = false;
    this.socket.connect();
  }

  close(): void {
    this.closed = true;
    this.stopHeartbeat();
    this.socket.disconnect();
    this.setLost(false);
  }

  get connectedNow(): boolean {
    return this.socket.connected;
  }

  /** The socket was connected and dropped, and is not back yet (not the first connection, not a close on sign-out). */
  get lost(): boolean {
    return this.lostNow;
  }

  /** Calls the listener whenever `lost` changes, until the returned function is called. */
  watchLost(listener: () => void): () => void {
    this.lostListeners.add(listener);
    return () => {
      this.lostListeners.delete(listener);
    };
  }

  /** Follows a room while the returned function is not called; joined again after reconnections. */
  join(event: JoinEvent, arg?: unknown): () => void {
    const key = `${event}:${JSON.stringify(arg ?? null)}`;
    const entry = this.joins.get(key);
    if (entry) entry.count++;
    else {
      this.joins.set(key, { event, arg, count: 1 });
      if (this.socket.connected) this.emitJoin(event, arg);
    }
    return () => {
      const e = this.joins.get(key);
      if (!e) return;
      if (--e.count > 0) return;
      this.joins.delete(key);
      const leave = LEAVE[event];
      if (leave && this.socket.connected) this.socket.emit(leave, arg);
    };
  }

  on<T>(channel: string, handler: (payload: T) => void): () => void {
    const listener = (payload: T) => handler(payload);
    this.socket.on(channel, listener);
    return () => {
      this.socket.off(channel, listener);
    };
  }

  private emitJoin(event: JoinEvent, arg: unknown): void {
    const ack = (answer: SocketAck) => {
      if (answer && !answer.ok && answer.error === 'ERR_TOO_MANY_ATTEMPTS')
        setTimeout(() => this.socket.connected && this.emitJoin(event, arg), 5000);
    };
    if (arg === undefined) this.socket.emit(event, ack);
    else this.socket.emit(event, arg, ack);
  }

  private connected(): void {
    this.authFailures = 0;
    this.setLost(false);
    for (const { event, arg } of this.joins.values()) this.emitJoin(event, arg);
    this.startHeartbeat();
    // lists loaded before the socket joined its rooms may have missed an event meanwhile: loaded again
    if (this.wasConnected) this.opts.onReconnected?.();
    else this.opts.onConnected?.();
    this.wasConnected = true;
  }

  private disconnected(reason: Socket.DisconnectReason): void {
    this.stopHeartbeat();
    if (this.wasConnected && !this.closed) this.setLost(true);
    // the server closed it (token revoked or expired, a deploy): it is not retried by itself
    if (reason === 'io server disconnect' && !this.closed) void this.reconnectWithFreshToken();
  }

  private connectError(err: Error & { data?: { error?: string } }): void {
    if (this.closed) return;
    const authProblem = err.data?.error === 'ERR_SESSION_EXPIRED' || /^token /.test(err.message);
    if (authProblem) void this.reconnectWithFreshToken();
    // otherwise socket.io keeps retrying with backoff
  }

  private async reconnectWithFreshToken(): Promise<void> {
    if (++this.authFailures > 3) {
      // refreshed tokens keep being refused: wait for the next user action instead of looping
      setTimeout(() => {
        this.authFailures = 0;
        if (!this.closed && !this.socket.connected) void this.reconnectWithFreshToken();
      }, 30_000);
      return;
    }
    const token = await this.opts.refresh();
    if (this.closed) return;
    if (!token) {
      this.opts.onSessionOver();
      return;
    }
    this.socket.connect();
  }

  private setLost(lost: boolean): void {
    if (lost === this.lostNow) return;
    this.lostNow = lost;
    for (const listener of [...this.lostListeners]) listener();
  }

  private startHeartbeat(): void {
    this.stopHeartbeat();
    const beat = () => this.socket.connected && this.socket.emit(SocketClientEvents.userStatus);
    beat();
    this.heartbeat = setInterval(beat, this.opts.heartbeatMs ?? HEARTBEAT_MS);
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
