import { DataSource } from 'typeorm';
import { runMigrations, type ServiceDatabaseOptions } from './data-source.js';
import { grantSchemaSql, LOCK_ROLE, ROLE_EXISTS, roleStatementSql } from './migrations.queries.js';

/**
 * Body of each service's `migrate.js`: runs its pending migrations and says what it did. With
 * SERVICE_DATABASE_URL set (the URL the service itself runs with, as the deploys give it), the migration,
 * made by the schema's owner (DATABASE_URL), then makes that URL's user the service's own role: it can log in
 * with that password and read and write the tables of this schema, and nothing of any other service's.
 */
export async function migrateMain(
  service: string,
  database: ServiceDatabaseOptions,
  serviceUrl = process.env.SERVICE_DATABASE_URL,
): Promise<void> {
  const done = await runMigrations(database);
  process.stdout.write(`${service}: ${done.length ? `applied ${done.join(', ')}` : 'no pending migration'}\n`);
  if (!serviceUrl) return;
  const role = await grantServiceRole(database.url, database.schema, serviceUrl);
  if (role) process.stdout.write(`${service}: role ${role} may use the schema ${database.schema} only\n`);
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * Makes the user of `serviceUrl` a login role with that URL's password (created, or its password set again)
 * and grants it the rows of `schema`'s tables (not their definitions: no DDL, no TRUNCATE, and the migrations
 * table read-only). PostgreSQL gives a role nothing of a schema it was not granted, so the other services'
 * schemas stay closed to it. Run after every migration, so new tables are covered. Answers the role, or
 * undefined when the service runs as the owner itself (one role, as `npm start` does).
 */
export async function grantServiceRole(ownerUrl: string, schema: string, serviceUrl: string): Promise<string | undefined> {
  const target = new URL(serviceUrl);
  const role = decodeURIComponent(target.username);
  const password = decodeURIComponent(target.password);
  if (role === decodeURIComponent(new URL(ownerUrl).username)) return undefined;
  if (!IDENTIFIER.test(role))
    throw new Error(`SERVICE_DATABASE_URL: the user ${JSON.stringify(role)} must be a lower-case identifier (letters, digits, _)`);
  if (!IDENTIFIER.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (password.length < 16) throw new Error('SERVICE_DATABASE_URL: the password must be at least 16 characters');
  const ds = new DataSource({ type: 'postgres', url: ownerUrl, extra: { max: 1 } });
  await ds.initialize();
  try {
    await ds.transaction(async (tx) => {
      // replicas migrating together: one at a time
      await tx.query(LOCK_ROLE, [`role:${role}`]);
      const [{ exists }] = (await tx.query(ROLE_EXISTS, [role])) as Array<{ exists: boolean }>;
      const [{ sql }] = (await tx.query(roleStatementSql(exists), [role, password])) as Array<{ sql: string }>;
      await tx.query(sql);
      for (const grant of grantSchemaSql(schema, role)) await tx.query(grant);
    });
  } finally {
    await ds.destroy();
  }
  return role;
}
