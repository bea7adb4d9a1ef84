import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The numbers WhatsApp said are not on it, per connection, and when: a send to one fails at once for 6 hours
 * without asking the phone, across restarts (loaded when the connection's session starts); a message from the
 * number forgets it.
 */
export class NotOnWhatsapp1732240000008 implements MigrationInterface {
  name = 'NotOnWhatsapp1732240000008';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS whatsapp.not_on_whatsapp (
        connection_id int NOT NULL REFERENCES whatsapp.connections(id) ON DELETE CASCADE,
        number varchar(100) NOT NULL,
        refused_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (connection_id, number)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS whatsapp.not_on_whatsapp`);
  }
}
