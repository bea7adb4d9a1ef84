import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox becomes the shared one of @wa/server-kit: a row that keeps failing to publish (not an outage)
 * is set aside with its error and counted, instead of holding back every row after it.
 */
export class OutboxSetAside1732240000004 implements MigrationInterface {
  name = 'OutboxSetAside1732240000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.outbox
      ADD COLUMN IF NOT EXISTS headers jsonb,
      ADD COLUMN IF NOT EXISTS attempts int NOT NULL DEFAULT 0,
      ADD COLUMN IF NOT EXISTS "lastError" text,
      ADD COLUMN IF NOT EXISTS "parkedAt" timestamptz`);
    await q.query(`CREATE INDEX IF NOT EXISTS outbox_parked_idx ON tickets.outbox ("parkedAt") WHERE "parkedAt" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS tickets.outbox_parked_idx`);
    await q.query(
      `ALTER TABLE tickets.outbox DROP COLUMN IF EXISTS headers, DROP COLUMN IF EXISTS attempts, DROP COLUMN IF EXISTS "lastError", DROP COLUMN IF EXISTS "parkedAt"`,
    );
  }
}
