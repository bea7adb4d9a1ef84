import type { DataSource, EntityManager } from 'typeorm';
import { keptConnections, openConnections } from './data-source.js';
import { BEGIN_KEPT_PLANS, KEPT_PLANS } from './page-reads.queries.js';
import { statementName } from './prepared-query.js';

const settings = Object.entries(KEPT_PLANS);

interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  connect(): Promise<{ release(): void }>;
  on(event: 'error', listener: (err: Error) => void): void;
  end(): Promise<void>;
}

interface PgDriver {
  postgres: { Pool: new (config: Record<string, unknown>) => PgPool };
  options: { url?: string; applicationName?: string };
}

/**
 * A small pool of its own for statements whose plan does not depend on the values bound: a list's pages (a
 * literal LIMIT over an index in the list's order, then the page's rows joined by primary key), and the hot
 * path's reads and writes of rows named by their keys (a batch of tickets by id, the inbound store).
 * Its connections keep one generic plan per statement, so such a statement costs PostgreSQL its execution
 * only: planning the ticket list's join took twice as long as running it, and planning the tickets read by
 * key in every inbound batch and ack took four times as long as running it. Sequential scans are off on
 * these connections, so a plan made while a table was small still reaches rows by index once it has grown.
 * Statements whose best plan depends on the values (a search term) belong on the data source's pool, and so
 * does everything of a transaction (it runs on the transaction's connection).
 */
export class PageReads {
  private readonly pool: PgPool;

  constructor(ds: DataSource, max = 6) {
    const driver = ds.driver as unknown as PgDriver;
    this.pool = new driver.postgres.Pool({
      connectionString: driver.options.url,
      max,
      // a kept connection keeps its plans (and its process): half the pool stays open, opened now, and
      // the rest stays five minutes after its last use (see keptConnections)
      min: keptConnections(max),
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 300_000,
      application_name: `${driver.options.applicationName ?? 'service'}:pages`,
      options: `${settings.map(([k, v]) => `-c ${k}=${v}`).join(' ')} -c jit=off`,
    });
    // an idle connection that drops is removed by the pool; the next query opens another
    this.pool.on('error', () => undefined);
    // not reachable yet: the first query connects
    void openConnections(this.pool, keptConnections(max));
  }

  async query<T>(text: string, values: unknown[]): Promise<T[]> {
    const result = await this.pool.query({ name: statementName(text), text, values });
    return result.rows as T[];
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/**
 * A transaction of the hot path whose statements keep one generic plan per connection, as on PageReads'
 * connections (sequential scans priced out, so a plan made while a table was small still reaches rows by index).
 * That includes PostgreSQL's own foreign-key checks of the rows it writes, which are prepared plans too: with the
 * data source's default (plan_cache_mode=force_custom_plan) each of them was planned again for every row, and
 * planning them cost PostgreSQL several times what running them did. Only for transactions whose statements name
 * their rows by key; one that searches belongs on the default.
 *
 * The transaction's start and its settings go in one round trip (one simple query of constant text), where
 * TypeORM's `transaction()` would take two: the runner is then marked as in its transaction, as its own start
 * would leave it, so `work` uses it as any transaction's manager, and the commit or rollback is TypeORM's.
 */
export async function keptPlansTransaction<T>(ds: DataSource, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    // what TypeORM's startTransaction sets (transactionDepth is the nesting level its commit and rollback read);
    // set first, so a start that failed half-way is rolled back below as any failed transaction is
    Object.assign(runner, { isTransactionActive: true, transactionDepth: 1 });
    let result: T;
    try {
      await runner.query(BEGIN_KEPT_PLANS);
      result = await work(runner.manager);
    } catch (err) {
      // as TypeORM's transaction() does, except that the work's error is the one thrown
      await runner.rollbackTransaction().catch(() => undefined);
      throw err;
    }
    await runner.commitTransaction();
    return result;
  } finally {
    await runner.release();
  }
}
