import { Injectable, Logger } from '@nestjs/common';
import { UserDirectory, type DirectoryUser, type RevocationNotice } from '@wa/auth';
import { SocketChannels, type AuthChannelPayload } from '@wa/contracts';
import { RealtimeEnv } from '../config/env.js';
import { permissionRooms, profileRooms, Rooms, type TicketVisibility } from './rooms.js';
import type { RealtimeSocket } from './socket-types.js';

const userKey = (companyId: number, userId: number) => `${companyId}.${userId}`;

export const visibilityOf = (u: DirectoryUser): TicketVisibility => ({
  profile: u.profile,
  super: !!u.super,
  queueIds: Array.isArray(u.queueIds) ? u.queueIds.filter((q) => Number.isInteger(q)) : [],
  allTicket: u.allTicket === 'enabled' ? 'enabled' : 'desabled',
});

interface Latest {
  seq: number;
  /** null: the user was deleted */
  visibility: TicketVisibility | null;
}

/**
 * Keeps the ticket-permission rooms of this replica's sockets in step with the user directory:
 * when auth changes a user's queues, that user's sockets leave and join rooms at once (no reconnect).
 * A socket ends when access ends: when its token expires, when its login session ends (logout, replaced,
 * a new password), when its user is deleted or their profile changes (the client reconnects with a fresh
 * token, which carries the new profile). Each replica watches the directory and the revocations for its
 * own sockets.
 */
@Injectable()
export class Membership {
  private readonly log = new Logger(Membership.name);
  private readonly sockets = new Map<string, Set<RealtimeSocket>>();
  /** the same sockets by login session, and by user id (revocations name only those) */
  private readonly bySession = new Map<string, Set<RealtimeSocket>>();
  private readonly byUserId = new Map<number, Set<RealtimeSocket>>();
  private readonly expiry = new WeakMap<RealtimeSocket, NodeJS.Timeout>();
  private readonly latest = new Map<string, Latest>();
  private seq = 0;
  private stopWatch: (() => void) | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  private waiting = false;

  constructor(
    private readonly directory: UserDirectory,
    private readonly env: RealtimeEnv,
  ) {}

  /**
   * Watches the user directory; while its bucket is not there yet (auth creates it, and may start later)
   * or when the watch ends, it watches again a second later.
   */
  async start(): Promise<void> {
    if (this.stopped) return;
    try {
      this.stopWatch = await this.directory.watch(
        (companyId, userId, user) => {
          if (!Number.isInteger(companyId) || !Number.isInteger(userId)) return;
          this.onChange(companyId, userId, user);
        },
        { onEnd: () => this.watchAgainSoon() },
      );
      if (this.waiting) this.log.log('user directory watched');
      this.waiting = false;
    } catch (err) {
      if (!this.waiting)
        this.log.warn({ err: (err as Error)?.message }, 'user directory not readable yet (auth creates it); watching again every second');
      this.waiting = true;
      this.watchAgainSoon();
      return;
    }
  }

  private watchAgainSoon(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.start();
    }, 1000);
    this.retry.unref();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.stopWatch?.();
    this.stopWatch = undefined;
  }

  /** Counter of directory changes seen for the user; compared before and after the handshake's read. */
  seqOf(companyId: number, userId: number): number {
    return this.latest.get(userKey(companyId, userId))?.seq ?? 0;
  }

  /** The handshake's read of the directory; the token's profile without queues when the user is not there. */
  async read(companyId: number, userId: number, fallback: Pick<TicketVisibility, 'profile' | 'super'>): Promise<TicketVisibility> {
    try {
      const user = await this.directory.get(companyId, userId);
      if (user && user.companyId === companyId) return visibilityOf(user);
    } catch (err) {
      this.log.warn({ companyId, userId, err: (err as Error).message }, 'user directory read failed; using the token profile');
    }
    return { profile: fallback.profile, super: !!fallback.super, queueIds: [] };
  }

  /**
   * A connected socket: joins its rooms and is followed from now on. When the directory changed
   * between the handshake's read and now, the newer value applies (a user deleted meanwhile is dropped).
   */
  register(socket: RealtimeSocket): void {
    const { companyId, userId, sessionId } = socket.data;
    const key = userKey(companyId, userId);
    let set = this.sockets.get(key);
    if (!set) this.sockets.set(key, (set = new Set()));
    set.add(socket);
    addTo(this.bySession, sessionId, socket);
    addTo(this.byUserId, userId, socket);
    // the socket lives as long as its token: then the client reconnects with a fresh one
    const left = socket.data.tokenExpiresAt - Date.now();
    if (left <= 0) {
      socket.disconnect(true);
      return;
    }
    const timer = setTimeout(() => this.end(socket, 'token expired'), Math.min(left, 2 ** 31 - 1));
    timer.unref();
    this.expiry.set(socket, timer);
    void socket.join([Rooms.platform(), Rooms.company(companyId), Rooms.user(companyId, userId), Rooms.session(companyId, sessionId)]);
    const latest = this.latest.get(key);
    if (latest && latest.seq !== socket.data.directorySeq) {
      if (!latest.visibility) {
        socket.disconnect(true);
        return;
      }
      socket.data.visibility = latest.visibility;
    }
    this.apply(socket);
  }

  unregister(socket: RealtimeSocket): void {
    clearTimeout(this.expiry.get(socket));
    removeFrom(this.bySession, socket.data.sessionId, socket);
    removeFrom(this.byUserId, socket.data.userId, socket);
    const key = userKey(socket.data.companyId, socket.data.userId);
    const set = this.sockets.get(key);
    if (!set) return;
    set.delete(socket);
    if (set.size === 0) this.sockets.delete(key);
  }

  private onChange(companyId: number, userId: number, user: DirectoryUser | null): void {
    const key = userKey(companyId, userId);
    const visibility = user && user.companyId === companyId ? visibilityOf(user) : null;
    this.latest.set(key, { seq: ++this.seq, visibility });
    const set = this.sockets.get(key);
    if (!set) return;
    for (const socket of [...set]) {
      if (!visibility) {
        this.log.log({ companyId, userId, socket: socket.id }, 'user left the directory; disconnecting');
        socket.disconnect(true);
        continue;
      }
      // a new profile: the token's is stale; the client reconnects with a refreshed one
      if (visibility.profile !== socket.data.visibility.profile || visibility.super !== socket.data.visibility.super) {
        this.end(socket, 'profile changed');
        continue;
      }
      socket.data.visibility = visibility;
      this.apply(socket);
    }
  }

  /** A revocation heard from auth: the sockets it ends, end. */
  revoked(notice: RevocationNotice): void {
    switch (notice.kind) {
      case 'session':
        for (const socket of [...(this.bySession.get(notice.sessionId) ?? [])]) {
          if (notice.replaced) this.replaced(socket);
          else this.end(socket, 'session ended');
        }
        return;
      case 'user':
        for (const socket of [...(this.byUserId.get(notice.userId) ?? [])]) this.end(socket, 'user deleted');
        return;
      case 'before':
        for (const socket of [...(this.byUserId.get(notice.userId) ?? [])]) {
          if (socket.data.tokenSignedAt <= notice.at) this.end(socket, 'rights changed');
        }
        return;
      default:
    }
  }

  /**
   * A sign-in elsewhere ended the socket's session: it is told why (spec 01 §4), as the bus's
   * `sessionReplaced` event also tells it (whichever comes first; the app shows it once), and ends after the
   * grace period in which the app shows it. It leaves its rooms and this class's follow-up at once: nothing
   * else reaches it.
   */
  private replaced(socket: RealtimeSocket): void {
    this.unregister(socket);
    for (const room of [...socket.rooms]) if (room !== socket.id) void socket.leave(room);
    const payload: AuthChannelPayload = { action: 'sessionReplaced', user: { id: socket.data.userId } };
    socket.emit(SocketChannels.auth(socket.data.companyId), payload);
    const timer = setTimeout(() => this.end(socket, 'session replaced'), this.env.SESSION_ENDED_GRACE_MS);
    timer.unref();
  }

  private end(socket: RealtimeSocket, why: string): void {
    this.log.log({ companyId: socket.data.companyId, userId: socket.data.userId, socket: socket.id, why }, 'access ended; disconnecting');
    socket.disconnect(true);
  }

  /** Leaves the permission rooms the socket lost, joins the ones it gained (its profile's rooms with them). */
  private apply(socket: RealtimeSocket): void {
    const next = [
      ...permissionRooms(socket.data.companyId, socket.data.visibility),
      ...profileRooms(socket.data.companyId, socket.data.visibility),
    ];
    const prev = socket.data.permissionRooms ?? [];
    for (const room of prev) if (!next.includes(room)) void socket.leave(room);
    const gained = next.filter((room) => !prev.includes(room));
    if (gained.length) void socket.join(gained);
    socket.data.permissionRooms = next;
  }
}

function addTo<K>(map: Map<K, Set<RealtimeSocket>>, key: K, socket: RealtimeSocket): void {
  const set = map.get(key) ?? new Set<RealtimeSocket>();
  map.set(key, set);
  set.add(socket);
}

function removeFrom<K>(map: Map<K, Set<RealtimeSocket>>, key: K, socket: RealtimeSocket): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(socket);
  if (set.size === 0) map.delete(key);
}
