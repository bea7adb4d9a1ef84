import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The platform's userCreation setting (spec 01 §8 ERR_USER_CREATION_DISABLED), enabled, on the provider's
 * company (the first super user's) when there is one already; the seeds create it with the first super user.
 */
export class UserCreationSetting1732240000012 implements MigrationInterface {
  name = 'UserCreationSetting1732240000012';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO auth.settings ("companyId", key, value)
      SELECT u."companyId", 'userCreation', 'enabled' FROM (SELECT "companyId" FROM auth.users WHERE super ORDER BY id LIMIT 1) u
      ON CONFLICT ("companyId", key) DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM auth.settings WHERE key = 'userCreation' AND value = 'enabled'`);
  }
}
