import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';

interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

const names = new Map<string, string>();

/** A statement's name: the same SQL text always gets the same one. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `wa_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return name;
}

/**
 * Runs a hot statement as a named prepared statement on the data source's pool: each connection parses
 * the text once and then only binds values; every run is still planned for its values (the connections
 * run with plan_cache_mode=force_custom_plan, see dataSourceOptions). Given an EntityManager of a
 * transaction, the statement runs on that transaction's connection.
 */
export async function queryPrepared<T>(target: DataSource | EntityManager, text: string, values: unknown[]): Promise<T[]> {
  const runner = 'queryRunner' in target ? target.queryRunner : undefined;
  const driver = (runner ? undefined : 'driver' in target ? target.driver : target.connection.driver) as
    { master?: PgQueryable } | undefined;
  const client = runner ? (runner as unknown as { databaseConnection?: PgQueryable }).databaseConnection : driver?.master;
  if (!client || (runner && runner.isReleased)) return target.query(text, values);
  const result = await client.query({ name: statementName(text), text, values });
  return result.rows as T[];
}
