import { createDataSource, type ServiceDatabaseOptions } from '@wa/database';
import { entities } from './entities/index.js';
import { InitAuth1732240000000 } from './migrations/1732240000000-init-auth.js';
import { AuthOutbox1732240000001 } from './migrations/1732240000001-outbox.js';
import { MustChangePassword1732240000002 } from './migrations/1732240000002-must-change-password.js';
import { CompanyRefs1732240000003 } from './migrations/1732240000003-company-refs.js';
import { CompanyTimeZone1732240000004 } from './migrations/1732240000004-company-time-zone.js';
import { PasswordResets1732240000005 } from './migrations/1732240000005-password-resets.js';
import { PlansCopy1732240000006 } from './migrations/1732240000006-plans-copy.js';
import { PlansCopyNames1732240000007 } from './migrations/1732240000007-plans-copy-names.js';
import { CompanySchedules1732240000008 } from './migrations/1732240000008-company-schedules.js';
import { Helps1732240000009 } from './migrations/1732240000009-helps.js';
import { Announcements1732240000010 } from './migrations/1732240000010-announcements.js';
import { IntegrationSettings1732240000011 } from './migrations/1732240000011-integration-settings.js';
import { UserCreationSetting1732240000012 } from './migrations/1732240000012-user-creation-setting.js';
import { InvoiceRenewals1732240000013 } from './migrations/1732240000013-invoice-renewals.js';

export const AUTH_SCHEMA = 'auth';
export const migrations = [
  InitAuth1732240000000,
  AuthOutbox1732240000001,
  MustChangePassword1732240000002,
  CompanyRefs1732240000003,
  CompanyTimeZone1732240000004,
  PasswordResets1732240000005,
  PlansCopy1732240000006,
  PlansCopyNames1732240000007,
  CompanySchedules1732240000008,
  Helps1732240000009,
  Announcements1732240000010,
  IntegrationSettings1732240000011,
  UserCreationSetting1732240000012,
  InvoiceRenewals1732240000013,
];

export function authDatabase(url: string, poolSize?: number): ServiceDatabaseOptions {
  return { url, schema: AUTH_SCHEMA, entities, migrations, poolSize, applicationName: 'auth' };
}

/** For the TypeORM CLI: `typeorm migration:show -d services/auth/dist/database/data-source.js` */
export default createDataSource(authDatabase(process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa'));
