import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Every company gets the `timezone` setting (its due dates and "today" are read in it), São Paulo's by default. */
export class CompanyTimeZone1732240000004 implements MigrationInterface {
  name = 'CompanyTimeZone1732240000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO auth.settings ("companyId", key, value)
      SELECT id, 'timezone', 'America/Sao_Paulo' FROM auth.companies
      ON CONFLICT ("companyId", key) DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM auth.settings WHERE key = 'timezone'`);
  }
}
