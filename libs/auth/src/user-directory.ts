import type { AllTicket, Profile } from '@wa/contracts';
import { fnv1a } from '@wa/event-bus';
import { randomUUID } from 'node:crypto';
import type { JetStreamManager, KV, NatsConnection } from 'nats';

/** The direct-get API of nats.js' JetStreamManager (there at run time; its type is not exported). */
type DirectGet = { direct: { getMessage(stream: string, query: { last_by_subj: string }): Promise<{ seq: number }> } };

/** What other services need to know of a user: their profile and queues. */
export interface DirectoryUser {
  id: number;
  companyId: number;
  name: string;
  profile: Profile;
  queueIds: number[];
  allTicket: AllTicket;
  super: boolean;
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
  const digest = fnv1a(JSON.stringify(user)).toString(36);
  return { subject: directorySubject(user.companyId, user.id), msgId: `dir:${k}:${version}:${digest}`, payload: user };
}

/**
 * `remove(companyId, userId)` as an outbox row: a delete marker (`KV-Operation: DEL`) on the key's subject.
 * Its msg id is unique: a delete repeated by the relay ends in the same state, while a fixed id would drop a
 * later delete of a key written again within the duplicate window (ids restored from a backup, test databases).
 */
export function directoryRemoveEvent(companyId: number, userId: number): DirectoryEvent {
  const k = key(companyId, userId);
  return { subject: directorySubject(companyId, userId), msgId: `dir:${k}:del:${randomUUID()}`, payload: null, headers: { 'KV-Operation': 'DEL' } };
}

/**
 * A JetStream key-value bucket that auth writes on every change of a user (and at each sign-in),
 * so tickets and realtime-gateway read a user's current queues without calling auth, and an admin's
 * change applies on the agent's very next request.
 */
export class UserDirectory {
  private constructor(
    private readonly kv: KV,
    private readonly jsm: JetStreamManager,
  ) {}

  static async open(nc: NatsConnection): Promise<UserDirectory> {
    const kv = await nc.jetstream().views.kv(USER_DIRECTORY_BUCKET, { history: 1 });
    return new UserDirectory(kv, await nc.jetstreamManager());
  }

  async put(user: DirectoryUser): Promise<void> {
    await this.kv.put(key(user.companyId, user.id), JSON.stringify(user));
  }

  async remove(companyId: number, userId: number): Promise<void> {
    await this.kv.delete(key(companyId, userId));
  }

  /**
   * The bucket stream's last sequence: every write acknowledged before this call is at or below it. A direct
   * get of the stream's last message (small, served without the JetStream API; cheaper than stream info).
   */
  async head(): Promise<number> {
    try {
      return (await (this.jsm as JetStreamManager & DirectGet).direct.getMessage(`KV_${USER_DIRECTORY_BUCKET}`, { last_by_subj: `$KV.${USER_DIRECTORY_BUCKET}.>` })).seq;
    } catch (err) {
      if ((err as { code?: string }).code === '404') return 0; // an empty bucket
      throw err;
    }
  }

  async get(companyId: number, userId: number): Promise<DirectoryUser | null> {
    const entry = await this.kv.get(key(companyId, userId));
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return null;
    return entry.json<DirectoryUser>();
  }

  /**
   * Current values first, then every change; `null` user means deleted; `seq` is the entry's stream sequence.
   * `onLoaded` once the current values are in.
   */
  async watch(
    onChange: (companyId: number, userId: number, user: DirectoryUser | null, seq: number) => void,
    hooks: { onLoaded?: () => void; onEnd?: (err?: unknown) => void } = {},
  ): Promise<() => void> {
    const iter = await this.kv.watch({ initializedFn: hooks.onLoaded });
    void (async () => {
      try {
        for await (const e of iter) {
          const [companyId, userId] = e.key.split('.').map(Number);
          onChange(companyId, userId, e.operation === 'PUT' && e.length > 0 ? e.json<DirectoryUser>() : null, e.revision);
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
 * The user directory in memory, fed by a watch of the bucket: a lookup costs no round trip. `current()` reads
 * its own writes: it first asks the bucket's last sequence (one small request, shared by every call that
 * arrives while it is under way) and waits until the watch has applied it, so a change acknowledged before the
 * call is seen by it, however late the watch delivers. While the watch is loading or has stopped, reads answer
 * `undefined` (ask the bucket), and the watch is started again.
 */
export class DirectoryMirror {
  private readonly users = new Map<string, DirectoryUser>();
  private live = false;
  private stopWatch: (() => void) | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  /** the highest stream sequence the watch has applied */
  private applied = 0;
  private waiters: Array<{ seq: number; resolve: () => void }> = [];
  /** a read of the bucket's head under way, and the one that follows it (shared by who arrived meanwhile) */
  private reading: Promise<number> | undefined;
  private following: Promise<number> | undefined;

  constructor(
    private readonly directory: UserDirectory,
    private readonly opts: { headTimeoutMs?: number; catchUpMs?: number } = {},
  ) {}

  async start(): Promise<void> {
    if (this.closed) return;
    let loaded!: () => void;
    const ready = new Promise<void>((resolve) => (loaded = resolve));
    try {
      // what the bucket held before the watch began: the watch has it all once it says it is loaded
      const before = await this.directory.head();
      this.stopWatch = await this.directory.watch(
        (companyId, userId, user, seq) => {
          if (user) this.users.set(key(companyId, userId), user);
          else this.users.delete(key(companyId, userId));
          this.advance(seq);
        },
        {
          onLoaded: () => {
            this.advance(before);
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

  private advance(seq: number): void {
    if (seq <= this.applied) return;
    this.applied = seq;
    if (this.waiters.length === 0) return;
    const due = this.waiters.filter((w) => w.seq <= seq);
    this.waiters = this.waiters.filter((w) => w.seq > seq);
    for (const w of due) w.resolve();
  }

  private restartSoon(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.users.clear();
      this.applied = 0;
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
   * `lookup` after every write acknowledged before this call has reached the mirror. When the bucket's head
   * cannot be read in time (NATS away), the mirror answers as it stands; when the watch does not catch up in
   * time, `undefined` (ask the bucket).
   */
  async current(companyId: number, userId: number): Promise<DirectoryUser | null | undefined> {
    if (!this.live) return undefined;
    const head = await this.nextHead().catch(() => undefined);
    if (head !== undefined && head > this.applied && !(await this.caughtUp(head))) return undefined;
    return this.lookup(companyId, userId);
  }

  /** A read of the head that starts after this call: the one under way may have been sent before a write. */
  private nextHead(): Promise<number> {
    if (!this.reading) return (this.reading = this.readHead());
    this.following ??= this.reading
      .then(noop, noop)
      .then(() => {
        this.following = undefined;
        return (this.reading = this.readHead());
      });
    return this.following;
  }

  private readHead(): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const read = Promise.race([
      this.directory.head(),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('user directory: head timed out')), this.opts.headTimeoutMs ?? 500))),
    ]).finally(() => {
      clearTimeout(timer);
      if (this.reading === read) this.reading = undefined;
    });
    return read;
  }

  private caughtUp(seq: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, this.opts.catchUpMs ?? 1000);
      const waiter = {
        seq,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
      if (this.applied >= seq) waiter.resolve();
    });
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
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
  }
}

function noop(): void {
  // a settled read, whichever way, lets the next one start
}
