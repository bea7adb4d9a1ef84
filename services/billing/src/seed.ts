import 'reflect-metadata';
import { createDataSource } from '@wa/database';
import { DatabaseEnv, loadConfigOrExit } from '@wa/server-kit';
import { billingDatabase } from './database/data-source.js';
import { insertBasicPlan } from './seed.queries.js';

/**
 * The demo's plans: plan 1 "Plano Completo" comes with the first migration; the sign-up page also offers
 * "Plano Básico" (spec 02 §9: the custom plan's defaults, 49 with 3 users and 3 connections). The service
 * announces every plan when it starts (auth's copy follows).
 */
const env = loadConfigOrExit(DatabaseEnv, 'billing-seed');
const ds = createDataSource(billingDatabase(env.DATABASE_URL, 2));
await ds.initialize();
try {
  process.stdout.write((await insertBasicPlan(ds)) ? 'billing: seeded plan Plano Básico\n' : 'billing: plans already seeded\n');
} finally {
  await ds.destroy();
}
