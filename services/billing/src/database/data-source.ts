import { createDataSource, type ServiceDatabaseOptions } from '@wa/database';
import { InitBilling1732240000000 } from './migrations/1732240000000-init-billing.js';

export const SCHEMA = 'billing';
export const migrations = [InitBilling1732240000000];

export function billingDatabase(url: string, poolSize?: number): ServiceDatabaseOptions {
  return { url, schema: SCHEMA, entities: [], migrations, poolSize, applicationName: 'billing' };
}

/** For the TypeORM CLI */
export default createDataSource(billingDatabase(process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa'));
