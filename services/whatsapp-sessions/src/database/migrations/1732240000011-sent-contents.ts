import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each message the connection sent through Baileys carried, as WhatsApp content (the encoded
 * `proto.Message` Baileys built: text, or a file's keys and address on WhatsApp's media servers), to whom, and
 * when: a contact who could not decrypt it asks for it again (a retry receipt) and Baileys' `getMessage` answers
 * from here, in any process. Kept for SENT_MESSAGE_RETRY_WINDOW_MS (24 h), then deleted; gone with the connection.
 */
export class SentContents1732240000011 implements MigrationInterface {
  name = 'SentContents1732240000011';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS whatsapp.sent_contents (
        "connectionId" int NOT NULL REFERENCES whatsapp.connections(id) ON DELETE CASCADE,
        "waMessageId" varchar(128) NOT NULL,
        jid varchar(100) NOT NULL,
        content bytea NOT NULL,
        "sentAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("connectionId", "waMessageId")
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS sent_contents_sent_at ON whatsapp.sent_contents ("sentAt")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS whatsapp.sent_contents`);
  }
}
