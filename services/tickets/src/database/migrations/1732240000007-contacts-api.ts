import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The contacts page: the WhatsApp check's answer per contact, an index for the email part of the search
 * (name and number have theirs), and the page's order (by name) and date filters served by indexes.
 */
export class ContactsApi1732240000007 implements MigrationInterface {
  name = 'ContactsApi1732240000007';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.contacts ADD COLUMN IF NOT EXISTS "isWhatsappValid" boolean`);
    await q.query(`CREATE INDEX IF NOT EXISTS contacts_email_trgm ON tickets.contacts USING gin (lower(email) gin_trgm_ops)`);
    await q.query(`CREATE INDEX IF NOT EXISTS contacts_company_name ON tickets.contacts ("companyId", lower(name), id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS contacts_company_created ON tickets.contacts ("companyId", "createdAt")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS tickets.contacts_company_created`);
    await q.query(`DROP INDEX IF EXISTS tickets.contacts_company_name`);
    await q.query(`DROP INDEX IF EXISTS tickets.contacts_email_trgm`);
    await q.query(`ALTER TABLE tickets.contacts DROP COLUMN IF EXISTS "isWhatsappValid"`);
  }
}
