import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The messages each connection published undecryptable (waiting for the phone's resend), by WhatsApp id, and
 * when: the resend, the same id with its content, is published under a msg id of its own (`resentMsgId`) so that
 * the bus does not drop it as a repeat of the waiting message. Read when a session starts; kept a few days
 * (UNDECRYPTABLE_KEPT_MS), then deleted; gone with the connection.
 */
export class UndecryptableMessages1732240000014 implements MigrationInterface {
  name = 'UndecryptableMessages1732240000014';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS whatsapp.undecryptable_messages (
        connection_id int NOT NULL REFERENCES whatsapp.connections(id) ON DELETE CASCADE,
        wa_message_id varchar(128) NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (connection_id, wa_message_id)
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS undecryptable_messages_received_at ON whatsapp.undecryptable_messages (received_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS whatsapp.undecryptable_messages`);
  }
}
