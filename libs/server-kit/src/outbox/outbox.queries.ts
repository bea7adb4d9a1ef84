/**
 * The statements of the transactional outbox (outbox.ts) over `<schema>.outbox`. `table` is always
 * `<schema>.outbox` with a schema name checked by the outbox (lower case, digits, _); numbers are the relay's own.
 */

/** The outbox table of a schema: the up and down SQL of the migration that creates it. */
export function outboxMigration(schema: string): { up: string[]; down: string[] } {
  return {
    up: [
      `CREATE TABLE IF NOT EXISTS ${schema}.outbox (
         id bigserial PRIMARY KEY,
         subject varchar(300) NOT NULL,
         "msgId" varchar(300) NOT NULL,
         payload jsonb NOT NULL,
         headers jsonb,
         "createdAt" timestamptz NOT NULL DEFAULT now(),
         attempts int NOT NULL DEFAULT 0,
         "lastError" text,
         "parkedAt" timestamptz
       )`,
      `CREATE INDEX IF NOT EXISTS outbox_parked_idx ON ${schema}.outbox ("parkedAt") WHERE "parkedAt" IS NOT NULL`,
    ],
    down: [`DROP TABLE IF EXISTS ${schema}.outbox`],
  };
}

/** The INSERT of events (four arrays: subjects, msgIds, payloads, headers) numbered from `$first`. */
export function insertEventsSql(table: string, first: number): string {
  const [a, b, c, d] = [first, first + 1, first + 2, first + 3];
  return `INSERT INTO ${table} (subject, "msgId", payload, headers)
       SELECT * FROM unnest($${a}::varchar[], $${b}::varchar[], $${c}::jsonb[], $${d}::jsonb[])`;
}

export const returningIds = (insert: string): string => `${insert} RETURNING id`;

/** Rows waiting and rows set aside. */
export const countsSql = (table: string): string =>
  `SELECT count(*) FILTER (WHERE "parkedAt" IS NULL)::int AS pending, count(*) FILTER (WHERE "parkedAt" IS NOT NULL)::int AS parked FROM ${table}`;

/** The next `batch` rows to publish, in id order. */
export const waitingRowsSql = (table: string, batch: number): string =>
  `SELECT id, subject, "msgId", payload, headers, attempts FROM ${table} WHERE "parkedAt" IS NULL ORDER BY id LIMIT ${batch}`;

/**
 * A relay pass's start, in one simple query: the transaction, its settings, the relay lock (`lockKey`) and, only
 * when the lock was taken, the rows of `rowsSql` (waitingRowsSql). The fourth result holds `locked` and the rows.
 * The deletion of published rows need not wait for the disk: one lost in a crash only has its rows published again,
 * which the stream drops as repeats (msgId) as it does after a relay died mid-pass. The rows are read through the
 * primary key, never by a sequential scan: a queue table is mostly pages of deleted rows until a vacuum comes, and a
 * scan of them (the planner's choice while the table has no statistics, or few live rows) cost every pass in
 * proportion to all the rows ever relayed.
 */
export const startPassSql = (lockKey: number, rowsSql: string): string =>
  `BEGIN;
         SET LOCAL synchronous_commit = off;
         SET LOCAL enable_seqscan = off;
         SELECT l.locked, o.* FROM (SELECT pg_try_advisory_xact_lock(${lockKey}) AS locked) l
           LEFT JOIN LATERAL (${rowsSql.replace('WHERE', 'WHERE l.locked AND')}) o ON true`;

/** The deletion of published rows (`ids` bigserial values the relay read, digits only); '' when there are none. */
export const deletePublishedSql = (table: string, ids: string[]): string =>
  ids.length > 0 ? `DELETE FROM ${table} WHERE id IN (${ids.filter((id) => /^\d+$/.test(id)).join(',')})` : '';

/** `statements` (empty ones left out) sent as one simple query. */
export const together = (...statements: string[]): string => statements.filter((s) => s !== '').join('; ');

export const COMMIT = 'COMMIT';

/** One more failure of row `$1` (`$2` the error), set aside (`parkedAt`) when `$3`. */
export const failedRowSql = (table: string): string =>
  `UPDATE ${table} SET attempts = attempts + 1, "lastError" = $2, "parkedAt" = CASE WHEN $3::bool THEN now() END WHERE id = $1`;
