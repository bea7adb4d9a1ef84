import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which company each queue (tickets) and connection (whatsapp-sessions) belongs to, kept from their events:
 * a user's queueIds and whatsappId are checked against it. A deleted one stays as a tombstone, so that a
 * late event of it never brings it back.
 */
export class CompanyRefs1732240000003 implements MigrationInterface {
  name = 'CompanyRefs1732240000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE IF NOT EXISTS auth.company_refs (
      kind varchar(20) NOT NULL,
      id integer NOT NULL,
      "companyId" integer NOT NULL,
      deleted boolean NOT NULL DEFAULT false,
      PRIMARY KEY (kind, id)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS auth.company_refs`);
  }
}
