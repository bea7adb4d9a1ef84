import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which company each queue and prompt id belongs to (tickets' `queue.*` and `prompt.*` events), so a
 * connection's queueIds, transferQueueId and promptId are checked against the caller's company.
 */
export class CompanyRefs1732240000007 implements MigrationInterface {
  name = 'CompanyRefs1732240000007';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS whatsapp.company_refs (
        kind varchar(10) NOT NULL,
        id int NOT NULL,
        "companyId" int NOT NULL,
        deleted boolean NOT NULL DEFAULT false,
        PRIMARY KEY (kind, id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS whatsapp.company_refs`);
  }
}
