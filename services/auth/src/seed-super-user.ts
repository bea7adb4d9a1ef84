import 'reflect-metadata';
import { createDataSource } from '@wa/database';
import { DatabaseEnv, loadConfigOrExit } from '@wa/server-kit';
import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { createCompanyWithAdmin, ensureFullPlan, isoDateFromNow } from './database/companies.js';
import { authDatabase } from './database/data-source.js';
import { firstSuperUser, lockSeeds } from './seed.queries.js';
import { ensurePlatformSettings } from './settings/settings.repository.js';

/**
 * The first super user of a production install (a one-off command; the k8s Job and the compose service run
 * it): email and password from the environment (a Secret), the provider's own company around them. The
 * password is a temporary one: the user must set their own at first sign-in. Does nothing when a super user
 * exists already, so running it again is harmless.
 *
 *   SUPER_USER_EMAIL=… SUPER_USER_PASSWORD=… node services/auth/dist/seed-super-user.js
 */
class SuperUserEnv extends DatabaseEnv {
  @IsEmail({}, { message: 'SUPER_USER_EMAIL must be an email address' })
  SUPER_USER_EMAIL: string;

  /** temporary (changed at first sign-in), still not a guessable one */
  @IsString()
  @MinLength(12, { message: 'SUPER_USER_PASSWORD must be at least 12 characters' })
  @MaxLength(50)
  SUPER_USER_PASSWORD: string;

  @IsString()
  @MinLength(2)
  SUPER_USER_NAME: string = 'Administrador';

  @IsString()
  @MinLength(2)
  SUPER_USER_COMPANY: string = 'Conversa';
}

const env = loadConfigOrExit(SuperUserEnv, 'auth-seed-super-user');
if (/change-?me/i.test(env.SUPER_USER_PASSWORD)) {
  process.stderr.write('auth-seed-super-user: SUPER_USER_PASSWORD is a placeholder value; set a password of your own\n');
  process.exit(78);
}
const ds = createDataSource(authDatabase(env.DATABASE_URL, 2));
await ds.initialize();
try {
  const outcome = await ds.transaction(async (tx) => {
    await lockSeeds(tx);
    const existing = await firstSuperUser(tx);
    if (existing) return { created: false, email: existing.email };
    const plan = await ensureFullPlan(tx);
    const { company, admin } = await createCompanyWithAdmin(tx, {
      name: env.SUPER_USER_COMPANY,
      // the provider's own company does not expire in practice
      dueDate: isoDateFromNow(365 * 100),
      planId: plan.id,
      admin: {
        name: env.SUPER_USER_NAME,
        email: env.SUPER_USER_EMAIL,
        password: env.SUPER_USER_PASSWORD,
        super: true,
        mustChangePassword: true,
      },
    });
    // the provider's company holds the platform's settings (sign-up open until a super user closes it)
    await ensurePlatformSettings(tx, company.id);
    return { created: true, email: admin.email };
  });
  process.stdout.write(
    outcome.created
      ? `auth: super user ${outcome.email} created; they set their own password at first sign-in\n`
      : `auth: a super user exists already (${outcome.email}); nothing to do\n`,
  );
} finally {
  await ds.destroy();
}
