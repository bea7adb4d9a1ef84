import 'reflect-metadata';
import { migrateMain } from '@wa/database';
import { DatabaseEnv, loadConfigOrExit } from '@wa/server-kit';
import { whatsappDatabase } from './database/data-source.js';

const env = loadConfigOrExit(DatabaseEnv, 'whatsapp-sessions-migrate');
await migrateMain('whatsapp-sessions', whatsappDatabase(env.DATABASE_URL));
