import 'reflect-metadata';
import { migrateMain } from '@wa/database';
import { DatabaseEnv, loadConfigOrExit } from '@wa/server-kit';
import { billingDatabase } from './database/data-source.js';

const env = loadConfigOrExit(DatabaseEnv, 'billing-migrate');
await migrateMain('billing', billingDatabase(env.DATABASE_URL));
