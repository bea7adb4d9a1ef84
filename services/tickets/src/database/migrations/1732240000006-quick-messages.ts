import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Quick replies, per company; the shortcode is searched by prefix in the chat input. */
export class QuickMessages1732240000006 implements MigrationInterface {
  name = 'QuickMessages1732240000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.quick_messages (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        "userId" int NOT NULL,
        shortcode varchar(100) NOT NULL,
        message text NOT NULL DEFAULT '',
        geral boolean NOT NULL DEFAULT false,
        "isMedia" boolean NOT NULL DEFAULT false,
        "mediaPath" text,
        "mediaName" text,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX IF NOT EXISTS quick_messages_company_shortcode ON tickets.quick_messages ("companyId", lower(shortcode) text_pattern_ops)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tickets.quick_messages`);
  }
}
