import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The contacts page's order (by name, case-insensitive) as a stored column, so that a deep page is an
 * index-only walk of (companyId, sortName, id) instead of a heap visit per skipped row.
 */
export class ContactsSortKey1732240000008 implements MigrationInterface {
  name = 'ContactsSortKey1732240000008';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.contacts ADD COLUMN IF NOT EXISTS "sortName" text GENERATED ALWAYS AS (lower(name)) STORED`);
    await q.query(`CREATE INDEX IF NOT EXISTS contacts_company_sort ON tickets.contacts ("companyId", "sortName", id)`);
    await q.query(`DROP INDEX IF EXISTS tickets.contacts_company_name`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS contacts_company_name ON tickets.contacts ("companyId", lower(name), id)`);
    await q.query(`DROP INDEX IF EXISTS tickets.contacts_company_sort`);
    await q.query(`ALTER TABLE tickets.contacts DROP COLUMN IF EXISTS "sortName"`);
  }
}
