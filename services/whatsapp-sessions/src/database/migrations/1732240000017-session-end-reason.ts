import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Why WhatsApp ended a connection's session (banned, logged_out, replaced), kept on the connection until it is back
 * (CONNECTED) or an admin disconnects it: the connections page shows it after a reload, not only live.
 */
export class SessionEndReason1732240000017 implements MigrationInterface {
  name = 'SessionEndReason1732240000017';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE whatsapp.connections ADD COLUMN IF NOT EXISTS "endReason" varchar(20)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE whatsapp.connections DROP COLUMN IF EXISTS "endReason"`);
  }
}
