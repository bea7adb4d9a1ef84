import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Connection tokens are stored encrypted (the service seals those stored in clear when it starts); their
 * uniqueness moves to an HMAC of the token, since two encryptions of one token differ.
 */
export class ConnectionTokenAtRest1732240000003 implements MigrationInterface {
  name = 'ConnectionTokenAtRest1732240000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE whatsapp.connections ALTER COLUMN token TYPE text`);
    await q.query(`ALTER TABLE whatsapp.connections ADD COLUMN IF NOT EXISTS "tokenHash" varchar(64)`);
    await q.query(`DROP INDEX IF EXISTS whatsapp.connections_token`);
    await q.query(`CREATE UNIQUE INDEX connections_token ON whatsapp.connections ("tokenHash") WHERE "tokenHash" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS whatsapp.connections_token`);
    await q.query(`ALTER TABLE whatsapp.connections DROP COLUMN IF EXISTS "tokenHash"`);
  }
}
