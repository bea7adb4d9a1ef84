import { Logger, type BeforeApplicationShutdown, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { EventBus, errorMessage as errorMessageOf, fnv1a, isTransientError } from '@wa/event-bus';
import type { DataSource, EntityManager } from 'typeorm';
import { watchOutbox, type OutboxProbe } from '../metrics/bus-metrics.js';
import { PeriodicTask } from '../timing/periodic-task.js';
import {
  COMMIT,
  countsSql,
  deletePublishedSql,
  failedRowSql,
  insertEventsSql,
  returningIds,
  startPassSql,
  together,
  waitingRowsSql,
} from './outbox.queries.js';

export { outboxMigration } from './outbox.queries.js';

/** An event to publish once the transaction that wrote it commits. */
export interface OutgoingEvent {
  subject: string;
  /** the stream drops a repeat of this id inside its duplicate window, so publishing twice is harmless */
  msgId: string;
  payload: unknown;
  /** NATS headers, e.g. `KV-Operation: DEL` for a row that deletes a key of a KV bucket (`$KV.<bucket>.<key>`) */
  headers?: Record<string, string>;
}

export interface OutboxOptions {
  /** the service's schema; the table is `<schema>.outbox` (see outboxMigration) */
  schema: string;
  /** rows read and published per pass; default 500 */
  batch?: number;
  /** failures that will repeat (not outages) before a row is set aside; default 5 */
  maxFailures?: number;
  /** how often the relay looks for rows nobody flushed (another process died, an outage ended); default 1000 ms */
  relayEveryMs?: number;
}

interface PgClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  release(err?: Error): void;
  on(event: 'error', listener: (err: Error) => void): unknown;
  off(event: 'error', listener: (err: Error) => void): unknown;
}

interface PgPool {
  connect(): Promise<PgClient>;
}

interface Row {
  id: string;
  subject: string;
  msgId: string;
  payload: unknown;
  headers: Record<string, string> | null;
  attempts: number;
}

/** How many of the ids published last a relay remembers, for callers that come to wait after their rows went out. */
const RECENT_IDS = 4096;

/** Batches a relay pass publishes in its transaction while rows keep coming, before it commits. */
const MAX_ROUNDS = 20;

/**
 * The one way a service publishes after a write. `add()` writes the events in the caller's transaction;
 * `flush()` after commit wakes the relay and returns at once, so a request never waits for NATS and never
 * fails because publishing did. The relay publishes rows in id order (one relay at a time across the
 * service's processes, by an advisory lock) and deletes them; while NATS is unreachable or a stream refuses
 * them, rows wait. A row whose publish fails for another reason `maxFailures` times is set aside
 * (`parkedAt`, `lastError`), counted in /metrics and /health, and no longer holds back the rows after it.
 */
export class TransactionalOutbox implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown, OutboxProbe {
  readonly name: string;
  private readonly logger: Logger;
  private readonly table: string;
  private readonly batch: number;
  private readonly maxFailures: number;
  private readonly relayEveryMs: number;
  private readonly lockKey: number;
  /** looks for rows nobody flushed, every relayEveryMs */
  private readonly relayTimer: PeriodicTask;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private unwatch: (() => void) | undefined;
  private lastWarnAt = 0;
  /** callers of flushAndWait(): the ids they still wait for */
  private readonly waiters = new Set<{ ids: Set<string>; done: (ok: boolean) => void }>();
  /** the ids published last (RECENT_IDS of them), oldest first */
  private readonly recent = new Set<string>();
  published = 0;

  constructor(
    private readonly db: DataSource,
    private readonly bus: EventBus,
    opts: OutboxOptions,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(opts.schema)) throw new Error(`invalid schema name ${opts.schema}`);
    this.name = opts.schema;
    this.table = `${opts.schema}.outbox`;
    this.logger = new Logger(`${opts.schema}:outbox`);
    this.batch = opts.batch ?? 500;
    this.maxFailures = opts.maxFailures ?? 5;
    this.relayEveryMs = opts.relayEveryMs ?? 1000;
    this.lockKey = fnv1a(`outbox:${opts.schema}`) | 0;
    // kick() starts a pass or marks one wanted, never runs two at once, and returns at once
    this.relayTimer = new PeriodicTask({ name: `${opts.schema}:outbox relay`, everyMs: this.relayEveryMs, run: async () => this.kick() });
  }

  onModuleInit(): void {
    this.unwatch = watchOutbox(this);
    this.relayTimer.start();
    this.kick();
  }

  /** Last chance before the bus closes: publish what is waiting (bounded, so shutdown never hangs). */
  async beforeApplicationShutdown(): Promise<void> {
    void this.relayTimer.stop();
    this.kick();
    await Promise.race([this.idle(), new Promise((r) => setTimeout(r, 2000).unref())]);
    this.stopped = true;
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    void this.relayTimer.stop();
    this.unwatch?.();
  }

  /** Writes the events in `tx` (the transaction of the change they announce); answers their row ids. */
  async add(tx: EntityManager, events: OutgoingEvent[]): Promise<string[]> {
    if (events.length === 0) return [];
    const rows: Array<{ id: string }> = await tx.query(returningIds(this.insertSql(1)), this.insertValues(events));
    return rows.map((r) => String(r.id));
  }

  /**
   * The INSERT of events into the outbox, its four arrays numbered from `$first` (see insertValues), for a
   * statement that writes its events along with its change (a data-modifying WITH).
   */
  insertSql(first: number): string {
    return insertEventsSql(this.table, first);
  }

  /** The four arrays insertSql takes. */
  insertValues(events: readonly OutgoingEvent[]): [string[], string[], string[], Array<string | null>] {
    return [
      events.map((e) => e.subject),
      events.map((e) => e.msgId),
      events.map((e) => JSON.stringify(e.payload ?? null)),
      events.map((e) => (e.headers ? JSON.stringify(e.headers) : null)),
    ];
  }

  /**
   * After commit: have the relay publish now. Never throws and never waits for NATS; the ids are not needed
   * (the relay publishes every waiting row in order) but say that the caller wrote some.
   */
  flush(ids: string[] = []): Promise<void> {
    void ids;
    this.kick();
    return Promise.resolve();
  }

  /**
   * After commit, for a change whose readers must see it on their very next request (a user's queues
   * in the directory): has the relay publish now and waits until these rows are out (at once when a pass of
   * this process already published them), at most `timeoutMs`.
   * Answers false at once when NATS is away (the rows wait; the request does not), or after the timeout.
   */
  async flushAndWait(ids: string[], timeoutMs = 2000): Promise<boolean> {
    if (ids.length === 0) return true;
    if (!this.bus.isConnected()) {
      this.kick();
      return false;
    }
    // a pass may have relayed them between the caller's commit and now (another writer's flush woke it)
    const waiting = ids.filter((id) => !this.recent.has(id));
    if (waiting.length === 0) return true;
    return new Promise<boolean>((resolve) => {
      const waiter = {
        ids: new Set(waiting),
        done: (ok: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => waiter.done(false), timeoutMs);
      timer.unref();
      this.waiters.add(waiter);
      this.kick();
    });
  }

  private settle(done: string[]): void {
    // the last ids published, for a caller whose rows a pass relayed before it came to wait (flushAndWait)
    for (const id of done) this.recent.add(id);
    for (const id of this.recent) {
      if (this.recent.size <= RECENT_IDS) break;
      this.recent.delete(id);
    }
    if (this.waiters.size === 0 || done.length === 0) return;
    for (const w of [...this.waiters]) {
      for (const id of done) w.ids.delete(id);
      if (w.ids.size === 0) w.done(true);
    }
  }

  /** Resolves when the relay has nothing in progress. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async counts(): Promise<{ pending: number; parked: number }> {
    const [r] = await this.db.query(countsSql(this.table));
    return { pending: Number(r.pending), parked: Number(r.parked) };
  }

  private kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async drain(): Promise<void> {
    await Promise.resolve(); // let the commits of the same tick join this pass
    for (let pass = 0; pass < 100 && !this.stopped; pass++) {
      if (!this.bus.isConnected() || !this.db.isInitialized) return; // the timer tries again
      let more: boolean;
      try {
        more = await this.pass();
      } catch (err) {
        this.warn(err, 'outbox: relay pass failed; will retry');
        return;
      }
      if (!more) return;
    }
  }

  /**
   * One pass under the relay lock: publish rows in order, `batch` at a time. True when more may be waiting.
   * Two round trips to PostgreSQL when all goes well: the transaction's start, its lock and the rows in one
   * (several statements in one simple query: what it holds is this relay's own schema and numbers, never
   * input), the deletion of what was published and the commit in the other. A pass is made after every
   * write that adds rows, so its round trips are paid by every change the service makes. While rows keep
   * coming (a flush came during the publish, or the batch was full), the pass goes on in its transaction: the
   * deletion of what it published and the read of what came since go in one round trip, so a busy relay
   * takes one round trip and one publish per batch (up to MAX_ROUNDS batches, then it commits).
   */
  private async pass(): Promise<boolean> {
    const client = await this.pool().connect();
    let broken: unknown;
    // a connection that drops while the pass waits for NATS between its statements emits 'error' on the client,
    // which nothing else listens to while it is checked out (unheard, it would end the process)
    const dropped = (err: Error) => {
      broken ??= err;
    };
    client.on('error', dropped);
    try {
      const rowsSql = waitingRowsSql(this.table, this.batch);
      // synchronous_commit off, no sequential scan: see startPassSql
      const [, , , found] = (await client.query(startPassSql(this.lockKey, rowsSql))) as unknown as [
        unknown,
        unknown,
        unknown,
        { rows: Array<Row & { locked: boolean; id: string | null }> },
      ];
      if (!found.rows[0]?.locked) {
        await client.query(COMMIT);
        // another process relays; it may have looked before our rows committed
        setTimeout(() => this.kick(), 50).unref();
        return false;
      }
      let rows: Row[] = found.rows.filter((r): r is Row & { locked: boolean } => r.id !== null);
      for (let round = 1; ; round++) {
        if (rows.length === 0) {
          await client.query(COMMIT);
          return false;
        }
        const { done, failed, outage } = await this.publishRows(client, rows);
        // ids are bigserial values read above, digits only
        const deleteSql = deletePublishedSql(this.table, done);
        this.published += done.length;
        // on the bus now: whoever waits for them goes on (their deletion commits below)
        if (done.length > 0) this.settle(done);
        const full = rows.length === this.batch;
        if (outage || failed > 0 || round >= MAX_ROUNDS || !(full || this.again)) {
          await client.query(together(deleteSql, COMMIT));
          if (outage) {
            this.warn(outage, 'outbox: NATS cannot take events now; they wait');
            return false;
          }
          // a row that failed is tried again on the next timer tick, not in a tight loop
          return failed === 0 && full;
        }
        // the read below takes what the flushes so far asked for
        this.again = false;
        const next = (await client.query(together(deleteSql, rowsSql))) as unknown as { rows: Row[] } | [unknown, { rows: Row[] }];
        rows = (Array.isArray(next) ? next[1] : next).rows;
      }
    } catch (err) {
      broken = err;
      throw err;
    } finally {
      client.off('error', dropped);
      // a failed pass leaves its transaction open: the connection is closed (which ends it) instead of reused
      client.release(broken ? (broken instanceof Error ? broken : new Error(String(broken))) : undefined);
    }
  }

  /**
   * Publishes rows back to back on one connection (so the stream stores them in this order); a row that fails
   * for a reason other than an outage counts a failure, and is set aside after `maxFailures`. Answers the ids
   * published, how many failed, and the outage if there was one.
   */
  private async publishRows(client: PgClient, rows: Row[]): Promise<{ done: string[]; failed: number; outage: unknown }> {
    const results = await Promise.allSettled(
      rows.map((r) => this.bus.publish(r.subject, r.payload, { msgId: r.msgId, headers: r.headers ?? undefined })),
    );
    const done: string[] = [];
    const failed: Array<{ row: Row; err: unknown }> = [];
    let outage: unknown;
    results.forEach((res, i) => {
      if (res.status === 'fulfilled') done.push(rows[i].id);
      else if (isTransientError(res.reason)) outage ??= res.reason;
      else failed.push({ row: rows[i], err: res.reason });
    });
    for (const { row, err } of failed) {
      const park = row.attempts + 1 >= this.maxFailures;
      await client.query(failedRowSql(this.table), [row.id, errorMessageOf(err).slice(0, 2000), park]);
      if (park)
        this.logger.error(
          { id: row.id, subject: row.subject, msgId: row.msgId, err: errorMessageOf(err) },
          'outbox: row set aside after repeated failures',
        );
    }
    return { done, failed: failed.length, outage };
  }

  /** The data source's pg pool: the relay talks to PostgreSQL without TypeORM, to send several statements at once. */
  private pool(): PgPool {
    const pool = (this.db.driver as unknown as { master?: PgPool }).master;
    if (!pool) throw new Error(`outbox ${this.name}: the data source is not initialized`);
    return pool;
  }

  private warn(err: unknown, msg: string): void {
    const now = Date.now();
    if (now - this.lastWarnAt < 10_000) return;
    this.lastWarnAt = now;
    this.logger.warn({ err: errorMessageOf(err) }, msg);
  }
}
