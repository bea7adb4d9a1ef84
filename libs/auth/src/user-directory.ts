import type { AllTicket, Profile } from '@wa/contracts';
import { fnv1a } from '@wa/event-bus';
import { randomUUID } from 'node:crypto';
import type { KV, NatsConnection } from 'nats';

/** What other services need to know of a user: their profile and queues. */
export interface DirectoryUser {
  id: number;
  companyId: number;
  name: string;
  profile: Profile;
  queueIds: number[];
  allTicket: AllTicket;
  super: boolean;
  /**
   * The entry's version (the user's updatedAt in ms). Auth pushes it through Redis when it writes the entry
   * (TokenRevocation.announceUserVersion), so a reader knows its copy is behind before the watch delivers.
   */
  version?: number;
}

export const USER_DIRECTORY_BUCKET = 'users';

const key = (companyId: number, userId: number) => `${companyId}.${userId}`;

/**
 * A write of the directory as an event for a transactional outbox (shape of @wa/server-kit's OutgoingEvent):
 * published on the bucket's own subject, it is the same write as `put()` / `remove()`.
 */
export interface DirectoryEvent {
  subject: string;
  msgId: string;
  payload: DirectoryUser | null;
  headers?: Record<string, string>;
}

const directorySubject = (companyId: number, userId: number) => `$KV.${USER_DIRECTORY_BUCKET}.${key(companyId, userId)}`;

/**
 * `put(user)` as an outbox row: the relay publishes JSON.stringify(user) on `$KV.users.<key>`, which is what
 * `kv.put` stores (a jsonb round trip may reorder the keys; readers parse it). `version` is the user's
 * updatedAt in ms: a republish of the same row is dropped by the stream's duplicate window; the hash of the
 * entry keeps two different entries written within the same ms apart.
 */
export function directoryPutEvent(user: DirectoryUser, version: number): DirectoryEvent {
  const k = key(user.companyId, user.id);
  const entry = { ...user, version };
  const digest = fnv1a(JSON.stringify(entry)).toString(36);
  return { subject: directorySubject(user.companyId, user.id), msgId: `dir:${k}:${version}:${digest}`, payload: entry };
}

/**
 * `remove(companyId, userId)` as an outbox row: a delete marker (`KV-Operation: DEL`) on the key's subject.
 * Its msg id is unique: a delete repeated by the relay ends in the same state, while a fixed id would drop a
 * later delete of a key written again within the duplicate window (ids restored from a backup, test databases).
 */
export function directoryRemoveEvent(companyId: number, userId: number): DirectoryEvent {
  const k = key(companyId, userId);
  return {
    subject: directorySubject(companyId, userId),
    msgId: `dir:${k}:del:${randomUUID()}`,
    payload: null,
    headers: { 'KV-Operation': 'DEL' },
  };
}

/**
 * A JetStream key-value bucket that auth writes on every change of a user (and at each sign-in),
 * so tickets and realtime-gateway read a user's current queues without calling auth, and an admin's
 * change applies on the agent's very next request.
 */
export class UserDirectory {
  private constructor(private readonly kv: KV) {}

  /**
   * Opens the bucket: `create` makes it when missing (auth owns it; any process on an open development
   * server); otherwise it binds, and reads fail until auth has created it.
   */
  static async open(nc: NatsConnection, opts: { create?: boolean } = { create: true }): Promise<UserDirectory> {
    const views = nc.jetstream().views;
    const kv = opts.create
      ? await views.kv(USER_DIRECTORY_BUCKET, { history: 1 })
      : await views.kv(USER_DIRECTORY_BUCKET, { bindOnly: true });
    return new UserDirectory(kv);
  }

  async put(user: DirectoryUser): Promise<void> {
    await this.kv.put(key(user.companyId, user.id), JSON.stringify(user));
  }

  async remove(companyId: number, userId: number): Promise<void> {
    await this.kv.delete(key(companyId, userId));
  }

  async get(companyId: number, userId: number): Promise<DirectoryUser | null> {
    const entry = await this.kv.get(key(companyId, userId));
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return null;
    return entry.json<DirectoryUser>();
  }

  /** Current values first, then every change; `null` user means deleted. `onLoaded` once the current values are in. */
  async watch(
    onChange: (companyId: number, userId: number, user: DirectoryUser | null) => void,
    hooks: { onLoaded?: () => void; onEnd?: (err?: unknown) => void } = {},
  ): Promise<() => void> {
    const iter = await this.kv.watch({ initializedFn: hooks.onLoaded });
    void (async () => {
      try {
        for await (const e of iter) {
          const [companyId, userId] = e.key.split('.').map(Number);
          onChange(companyId, userId, e.operation === 'PUT' && e.length > 0 ? e.json<DirectoryUser>() : null);
        }
        hooks.onEnd?.();
      } catch (err) {
        hooks.onEnd?.(err);
      }
    })();
    return () => iter.stop();
  }

  /** The whole bucket kept in memory by a watch (see DirectoryMirror). */
  async mirror(): Promise<DirectoryMirror> {
    const mirror = new DirectoryMirror(this);
    await mirror.start();
    return mirror;
  }
}

/**
 * The user directory in memory, fed by a watch of the bucket: a lookup costs no round trip. The watch may
 * deliver a change a little after auth's write returned; `lookupAtLeast` waits (briefly) for an entry of a
 * given version, which auth pushes through Redis before it answers (see CallerService in tickets). While the
 * watch is loading or has stopped, `lookup` answers `undefined` (ask the bucket), and the watch is started again.
 */
export class DirectoryMirror {
  private readonly users = new Map<string, DirectoryUser>();
  private live = false;
  private stopWatch: (() => void) | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  /** lookups waiting for an entry of some version, by key */
  private waiters = new Map<string, Set<{ version: number; resolve: () => void }>>();

  constructor(private readonly directory: UserDirectory) {}

  async start(): Promise<void> {
    if (this.closed) return;
    let loaded!: () => void;
    const ready = new Promise<void>((resolve) => (loaded = resolve));
    try {
      this.stopWatch = await this.directory.watch(
        (companyId, userId, user) => {
          const k = key(companyId, userId);
          if (user) this.users.set(k, user);
          else this.users.delete(k);
          this.wake(k, user);
        },
        {
          onLoaded: () => {
            this.live = true;
            loaded();
          },
          onEnd: () => {
            this.live = false;
            loaded();
            this.restartSoon();
          },
        },
      );
    } catch {
      this.restartSoon();
      return;
    }
    // the watch says when the current values are in; should that word never come, reads go to the bucket
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ready, new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000)))]);
    clearTimeout(timer);
  }

  private wake(k: string, user: DirectoryUser | null): void {
    const waiting = this.waiters.get(k);
    if (!waiting) return;
    for (const w of waiting) if (!user || (user.version ?? 0) >= w.version) w.resolve();
  }

  private restartSoon(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.users.clear();
      void this.start();
    }, 1000);
    this.retry.unref();
  }

  /** The user as the directory has them, `null` when absent; `undefined` while the mirror is not live. */
  lookup(companyId: number, userId: number): DirectoryUser | null | undefined {
    if (!this.live) return undefined;
    return this.users.get(key(companyId, userId)) ?? null;
  }

  /**
   * `lookup`, once the mirror holds the user's entry at `version` or later (or their removal); `undefined`
   * when it does not within `timeoutMs` (ask the bucket) or is not live. No wait when it has it already.
   */
  async lookupAtLeast(companyId: number, userId: number, version: number, timeoutMs = 1000): Promise<DirectoryUser | null | undefined> {
    const now = this.lookup(companyId, userId);
    if (now === undefined || version <= 0 || (now !== null && (now.version ?? 0) >= version)) return now;
    const k = key(companyId, userId);
    const arrived = await new Promise<boolean>((resolve) => {
      const waiter = {
        version,
        resolve: () => {
          clearTimeout(timer);
          this.waiters.get(k)?.delete(waiter);
          if (this.waiters.get(k)?.size === 0) this.waiters.delete(k);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.get(k)?.delete(waiter);
        if (this.waiters.get(k)?.size === 0) this.waiters.delete(k);
        resolve(false);
      }, timeoutMs);
      const waiting = this.waiters.get(k) ?? new Set();
      this.waiters.set(k, waiting);
      waiting.add(waiter);
    });
    return arrived ? this.lookup(companyId, userId) : undefined;
  }

  /** The users of one company, as last seen (the dashboard's attendants); a walk over every entry. */
  usersOf(companyId: number): DirectoryUser[] {
    const out: DirectoryUser[] = [];
    for (const u of this.users.values()) if (u.companyId === companyId) out.push(u);
    return out;
  }

  /** How many companies have users (each has at least its admin): the provider's company count. */
  companyCount(): number {
    return new Set([...this.users.values()].map((u) => u.companyId)).size;
  }

  /** A user's name, as last seen (also while not live). */
  nameOf(companyId: number, userId: number): string {
    return this.users.get(key(companyId, userId))?.name ?? '';
  }

  get isLive(): boolean {
    return this.live;
  }

  stop(): void {
    this.closed = true;
    this.live = false;
    clearTimeout(this.retry);
    this.stopWatch?.();
    for (const waiting of this.waiters.values()) for (const w of waiting) w.resolve();
    this.waiters.clear();
  }
}
