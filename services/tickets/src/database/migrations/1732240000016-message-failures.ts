import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Why a message's send was given up (it never reached WhatsApp); cleared when an ack shows it did. */
export class MessageFailures1732240000016 implements MigrationInterface {
  name = 'MessageFailures1732240000016';

  async up(q: QueryRunner): Promise<void> {
    // nullable, no default: instant on a large table
    await q.query(`ALTER TABLE tickets.messages ADD COLUMN IF NOT EXISTS "failedReason" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.messages DROP COLUMN IF EXISTS "failedReason"`);
  }
}
