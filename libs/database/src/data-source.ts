import { DataSource, type DataSourceOptions, type EntitySchema, type MixedList } from 'typeorm';
import { createSchemaSql, LOCK_MIGRATIONS, UNLOCK_MIGRATIONS } from './migrations.queries.js';

export interface ServiceDatabaseOptions {
  /** postgres:// URL */
  url: string;
  /** the service's own PostgreSQL schema; a service never reads another's */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type
  migrations: MixedList<Function | string>;
  poolSize?: number;
  /** application_name seen in pg_stat_activity */
  applicationName?: string;
  /**
   * Longest a statement may run before PostgreSQL cancels it (57014): a runaway query cannot hold a pool
   * connection and its locks for ever. Default 30 s; 0 = none (migrations build indexes).
   */
  statementTimeoutMs?: number;
}

/** How long a pool connection above the kept ones may stay idle before it is closed. */
const POOL_IDLE_MS = 300_000;

/**
 * The connections a pool always keeps open, opened at start (warmPool): half of its size. A new PostgreSQL
 * connection costs a process, its start-up and a cold catalog cache (about 10 ms on an idle machine, several
 * times that on a busy one), paid by the request that needed it: a pool that closed what it did not use for
 * 10 s (pg-pool's default) made the first requests of every burst slow.
 */
export function keptConnections(poolSize: number): number {
  return Math.max(1, Math.ceil(poolSize / 2));
}

/** TypeORM options for one service: its own schema, migrations only, never synchronize. */
export function dataSourceOptions(opts: ServiceDatabaseOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: opts.url,
    schema: opts.schema,
    entities: opts.entities,
    migrations: opts.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: opts.applicationName ?? opts.schema,
    extra: {
      max: opts.poolSize ?? 10,
      min: keptConnections(opts.poolSize ?? 10),
      idleTimeoutMillis: POOL_IDLE_MS,
      connectionTimeoutMillis: 5000,
      // Prepared statements and PL/pgSQL functions are planned for their actual values every time. A
      // generic plan cached by a long-lived connection keeps the choice made while a table was small
      // (a sequential scan of what is now a large table) until the next ANALYZE; planning costs less.
      // JIT compiling a query's expressions pays off for long analytic scans, never for these short
      // statements: a search whose unused branch was costed high spent 30 ms compiling to run in 1 ms.
      options: `-c plan_cache_mode=force_custom_plan -c jit=off -c statement_timeout=${opts.statementTimeoutMs ?? 30_000}`,
    },
  };
}

/**
 * Opens the pool's kept connections now (see keptConnections), so the first requests do not pay for them.
 * Never throws: a database that cannot be reached yet is /health's to report, and the pool connects later.
 */
export async function warmPool(ds: DataSource): Promise<number> {
  const pool = (ds.driver as unknown as { master?: { options: { min: number }; connect(): Promise<{ release(): void }> } }).master;
  return pool ? openConnections(pool, pool.options.min) : 0;
}

/** Opens `count` connections of a pg pool at once and gives them back to it; answers how many opened. */
export async function openConnections(pool: { connect(): Promise<{ release(): void }> }, count: number): Promise<number> {
  const clients = await Promise.allSettled(Array.from({ length: count }, () => pool.connect()));
  let opened = 0;
  for (const c of clients) {
    if (c.status !== 'fulfilled') continue;
    c.value.release();
    opened++;
  }
  return opened;
}

export function createDataSource(opts: ServiceDatabaseOptions): DataSource {
  return new DataSource(dataSourceOptions(opts));
}

/**
 * Creates the schema (TypeORM keeps its migrations table inside it) and runs every pending migration.
 * A transaction-level advisory lock keeps two processes from migrating the same schema at once.
 */
export async function runMigrations(opts: ServiceDatabaseOptions): Promise<string[]> {
  const ds = createDataSource({ ...opts, poolSize: 2, statementTimeoutMs: 0 });
  await ds.initialize();
  try {
    const runner = ds.createQueryRunner();
    await runner.connect();
    try {
      await runner.query(LOCK_MIGRATIONS, [`migrate:${opts.schema}`]);
      await runner.query(createSchemaSql(opts.schema));
      const done = await ds.runMigrations({ transaction: 'each' });
      await runner.query(UNLOCK_MIGRATIONS, [`migrate:${opts.schema}`]);
      return done.map((m) => m.name);
    } finally {
      await runner.release();
    }
  } finally {
    await ds.destroy();
  }
}

/** A unique index refused the write (PostgreSQL 23505); with `constraint`, that index only. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const driverError = (err as { driverError?: { code?: string; constraint?: string } })?.driverError;
  return driverError?.code === '23505' && (!constraint || (driverError.constraint ?? '').includes(constraint));
}
