import 'reflect-metadata';
import { migrateMain } from '@wa/database';
import { DatabaseEnv, loadConfigOrExit } from '@wa/server-kit';
import { authDatabase } from './database/data-source.js';

const env = loadConfigOrExit(DatabaseEnv, 'auth-migrate');
await migrateMain('auth', authDatabase(env.DATABASE_URL));
