import { runMigrations, type ServiceDatabaseOptions } from './data-source.js';

/** Body of each service's `migrate.js`: runs its pending migrations and says what it did. */
export async function migrateMain(service: string, database: ServiceDatabaseOptions): Promise<void> {
  const done = await runMigrations(database);
  process.stdout.write(`${service}: ${done.length ? `applied ${done.join(', ')}` : 'no pending migration'}\n`);
}
