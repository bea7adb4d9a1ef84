import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A contact's LID (WhatsApp's linked identity, digits): set when WhatsApp tells which number a LID stands for and
 * the LID's contact is merged into the number's (issue 42 §2). A later bare-LID message finds the contact by it.
 * One contact per LID in a company.
 */
export class ContactLids1732240000040 implements MigrationInterface {
  name = 'ContactLids1732240000040';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.contacts ADD COLUMN IF NOT EXISTS lid varchar(40)`);
    await q.query(`CREATE UNIQUE INDEX IF NOT EXISTS contacts_company_lid ON tickets.contacts ("companyId", lid) WHERE lid IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS tickets.contacts_company_lid`);
    await q.query(`ALTER TABLE tickets.contacts DROP COLUMN IF EXISTS lid`);
  }
}
