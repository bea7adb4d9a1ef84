import 'reflect-metadata';
import { migrateMain } from '@wa/database';
import { DatabaseEnv, loadConfigOrExit } from '@wa/server-kit';
import { campaignsDatabase } from './database/data-source.js';

const env = loadConfigOrExit(DatabaseEnv, 'campaigns-migrate');
await migrateMain('campaigns', campaignsDatabase(env.DATABASE_URL));
