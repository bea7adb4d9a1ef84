import { createDataSource, type ServiceDatabaseOptions } from '@wa/database';
import { InitBilling1732240000000 } from './migrations/1732240000000-init-billing.js';
import { Plans1732240000001 } from './migrations/1732240000001-plans.js';
import { ProviderPlanPrivate1732240000002 } from './migrations/1732240000002-provider-plan-private.js';
import { Invoices1732240000003 } from './migrations/1732240000003-invoices.js';
import { PlanEntity } from './entities/plan.entity.js';

export const SCHEMA = 'billing';
export const migrations = [InitBilling1732240000000, Plans1732240000001, ProviderPlanPrivate1732240000002, Invoices1732240000003];

export function billingDatabase(url: string, poolSize?: number): ServiceDatabaseOptions {
  return { url, schema: SCHEMA, entities: [PlanEntity], migrations, poolSize, applicationName: 'billing' };
}

/** For the TypeORM CLI */
export default createDataSource(billingDatabase(process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa'));
