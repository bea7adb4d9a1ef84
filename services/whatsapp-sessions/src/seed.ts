import 'reflect-metadata';
import { createDataSource } from '@wa/database';
import { DatabaseEnv, loadConfigOrExit } from '@wa/server-kit';
import { IsInt, Min } from 'class-validator';
import { whatsappDatabase } from './database/data-source.js';
import { seedSandboxConnection } from './database/seed-sandbox.queries.js';

class SeedEnv extends DatabaseEnv {
  /** the company that gets the sandbox connection (auth's seed makes company 1 on an empty database) */
  @IsInt()
  @Min(1)
  SEED_COMPANY_ID: number = 1;

  /** the queue of the sandbox connection; 0 for none */
  @IsInt()
  @Min(0)
  SEED_QUEUE_ID: number = 0;
}

/** When the company has no connection: a default sandbox connection, started by the service at boot. */
const env = loadConfigOrExit(SeedEnv, 'whatsapp-sessions-seed');
const ds = createDataSource(whatsappDatabase(env.DATABASE_URL, 2));
await ds.initialize();
try {
  const { created, connectionId } = await seedSandboxConnection(ds, {
    companyId: env.SEED_COMPANY_ID,
    queueId: env.SEED_QUEUE_ID || undefined,
  });
  process.stdout.write(
    created
      ? `whatsapp-sessions: seeded sandbox connection ${connectionId} for company ${env.SEED_COMPANY_ID}\n`
      : `whatsapp-sessions: company ${env.SEED_COMPANY_ID} already has connections\n`,
  );
  if (connectionId) process.stdout.write(`SEED_CONNECTION_ID=${connectionId}\n`);
} finally {
  await ds.destroy();
}
