import 'reflect-metadata';
import { createDataSource } from '@wa/database';
import { loadConfigOrExit } from '@wa/server-kit';
import { IsEmail, IsString, Matches, MinLength } from 'class-validator';
import { DatabaseEnv } from '@wa/server-kit';
import { createCompanyWithAdmin, ensureFullPlan, isoDateFromNow } from './database/companies.js';
import { authDatabase } from './database/data-source.js';
import { companyOfEmail, hasCompanies, lockSeeds } from './seed.queries.js';
import { ensurePlatformSettings } from './settings/settings.repository.js';

class SeedEnv extends DatabaseEnv {
  @IsString()
  @MinLength(2)
  SEED_COMPANY_NAME: string = 'Empresa Demo';

  @IsEmail()
  SEED_ADMIN_EMAIL: string = 'admin@admin.com';

  @IsString()
  @MinLength(5)
  SEED_ADMIN_PASSWORD: string = '123456';

  @Matches(/^$|^\d{4}-\d{2}-\d{2}$/)
  SEED_DUE_DATE: string = '';
}

/** On an empty database: a plan with every flag on, the demo company due a year ahead, the super admin. */
const env = loadConfigOrExit(SeedEnv, 'auth-seed');
// the demo account (admin@admin.com / 123456, a super user) is for `npm start` only
if (env.NODE_ENV === 'production') {
  process.stderr.write(
    'auth-seed: the demo seed does not run with NODE_ENV=production; create the first super user with seed-super-user (SUPER_USER_EMAIL, SUPER_USER_PASSWORD)\n',
  );
  process.exit(78);
}
const ds = createDataSource(authDatabase(env.DATABASE_URL, 2));
await ds.initialize();
try {
  const created = await ds.transaction(async (tx) => {
    await lockSeeds(tx);
    if (await hasCompanies(tx)) return false;
    const plan = await ensureFullPlan(tx);
    const { company } = await createCompanyWithAdmin(tx, {
      name: env.SEED_COMPANY_NAME,
      dueDate: env.SEED_DUE_DATE || isoDateFromNow(365),
      planId: plan.id,
      admin: { name: 'Admin', email: env.SEED_ADMIN_EMAIL, password: env.SEED_ADMIN_PASSWORD, super: true },
    });
    // the demo super user's company is the provider's: sign-up open
    await ensurePlatformSettings(tx, company.id);
    return true;
  });
  process.stdout.write(
    created ? `auth: seeded ${env.SEED_COMPANY_NAME} with ${env.SEED_ADMIN_EMAIL}\n` : 'auth: database already seeded\n',
  );
  // the demo company, for the other services' seeds (npm start passes it on as SEED_COMPANY_ID)
  const companyId = await companyOfEmail(ds, env.SEED_ADMIN_EMAIL);
  if (companyId !== undefined) process.stdout.write(`SEED_COMPANY_ID=${companyId}\n`);
} finally {
  await ds.destroy();
}
