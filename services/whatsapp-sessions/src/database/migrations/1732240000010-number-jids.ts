import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The jid WhatsApp answered for a number (a Brazilian mobile kept with its 9th digit that WhatsApp names without
 * it), per company, and when it was learned: every process and every connection of the company sends to it
 * without asking WhatsApp again. Written when WhatsApp answers a number check and when the number writes in.
 */
export class NumberJids1732240000010 implements MigrationInterface {
  name = 'NumberJids1732240000010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS whatsapp.number_jids (
        "companyId" int NOT NULL,
        number varchar(20) NOT NULL,
        jid varchar(100) NOT NULL,
        "checkedAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("companyId", number)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS whatsapp.number_jids`);
  }
}
