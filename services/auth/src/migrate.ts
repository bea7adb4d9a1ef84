import 'reflect-metadata';
import { runMigrations } from '@wa/database';
import { loadConfigOrExit, DatabaseEnv } from '@wa/server-kit';
import { authDatabase } from './database/data-source.js';

const env = loadConfigOrExit(DatabaseEnv, 'auth-migrate');
const done = await runMigrations(authDatabase(env.DATABASE_URL));
process.stdout.write(`auth: ${done.length ? `applied ${done.join(', ')}` : 'no pending migration'}\n`);
