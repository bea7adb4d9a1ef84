/**
 * The statements that migrate a service's schema (runMigrations in data-source.ts) and give the service its own
 * role (grantServiceRole in migrate-main.ts). Schema and role names are checked identifiers (lower case, digits, _)
 * before they reach these; DDL takes no parameters.
 */

/** One migration of a schema at a time across processes: `$1` is `migrate:<schema>`. */
export const LOCK_MIGRATIONS = 'SELECT pg_advisory_lock(hashtext($1))';
export const UNLOCK_MIGRATIONS = 'SELECT pg_advisory_unlock(hashtext($1))';

export const createSchemaSql = (schema: string): string => `CREATE SCHEMA IF NOT EXISTS "${schema}"`;

/** One role change at a time (replicas migrating together): `$1` is `role:<role>`. */
export const LOCK_ROLE = 'SELECT pg_advisory_xact_lock(hashtext($1))';

export const ROLE_EXISTS = 'SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) AS exists';

/**
 * The statement that creates (or, `exists`, alters) login role `$1` with password `$2`, quoted by PostgreSQL itself
 * (%I an identifier, %L a literal): answers it as `sql`, to be run next.
 */
export const roleStatementSql = (exists: boolean): string =>
  `SELECT format('${exists ? 'ALTER' : 'CREATE'} ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD %L', $1::text, $2::text) AS sql`;

/** The rows of `schema`'s tables (not their definitions: no DDL, no TRUNCATE, and the migrations table read-only). */
export const grantSchemaSql = (schema: string, role: string): string[] => [
  `GRANT USAGE ON SCHEMA "${schema}" TO "${role}"`,
  `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "${schema}" TO "${role}"`,
  `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA "${schema}" TO "${role}"`,
  `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA "${schema}" TO "${role}"`,
  `REVOKE INSERT, UPDATE, DELETE ON "${schema}".migrations FROM "${role}"`,
];
