import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The companies deleted (auth's `company.deleted`): a customer's message for one of them still on its way (published
 * before the deletion, read after it) is dropped, not stored as the start of a new company's data. The column is
 * `id`, not "companyId": deleting a company's rows leaves this one.
 */
export class DeletedCompanies1732240000025 implements MigrationInterface {
  name = 'DeletedCompanies1732240000025';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE IF NOT EXISTS tickets.deleted_companies (id int PRIMARY KEY, "deletedAt" timestamptz NOT NULL DEFAULT now())`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tickets.deleted_companies`);
  }
}
