import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox phone's outbox as WhatsApp behaves: a message id reaches the customer once. A send transmitted again
 * with the same id (a replica killed between putting it on the wire and marking it sent, its successor sending it
 * again) is one message on the customer's phone, its `transmissions` counted. Edits and deletions stay a row each.
 */
export class SandboxOutboxOnce1732240000019 implements MigrationInterface {
  name = 'SandboxOutboxOnce1732240000019';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE whatsapp.sandbox_outbox ADD COLUMN IF NOT EXISTS transmissions int NOT NULL DEFAULT 1`);
    // sends already recorded twice: one row, the first, with their count
    await q.query(`
      WITH dup AS (
        SELECT min(id) AS keep, "connectionId", "waMessageId", count(*)::int AS n
          FROM whatsapp.sandbox_outbox WHERE kind = 'send' GROUP BY "connectionId", "waMessageId" HAVING count(*) > 1),
      kept AS (
        UPDATE whatsapp.sandbox_outbox o SET transmissions = dup.n FROM dup WHERE o.id = dup.keep RETURNING o.id)
      DELETE FROM whatsapp.sandbox_outbox o USING dup
       WHERE o.kind = 'send' AND o."connectionId" = dup."connectionId" AND o."waMessageId" = dup."waMessageId" AND o.id <> dup.keep`);
    await q.query(
      `CREATE UNIQUE INDEX IF NOT EXISTS sandbox_outbox_send_once ON whatsapp.sandbox_outbox ("connectionId", "waMessageId") WHERE kind = 'send'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS whatsapp.sandbox_outbox_send_once`);
    await q.query(`ALTER TABLE whatsapp.sandbox_outbox DROP COLUMN IF EXISTS transmissions`);
  }
}
