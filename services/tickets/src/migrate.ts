import 'reflect-metadata';
import { migrateMain } from '@wa/database';
import { DatabaseEnv, loadConfigOrExit } from '@wa/server-kit';
import { ticketsDatabase } from './database/data-source.js';

const env = loadConfigOrExit(DatabaseEnv, 'tickets-migrate');
await migrateMain('tickets', ticketsDatabase(env.DATABASE_URL));
