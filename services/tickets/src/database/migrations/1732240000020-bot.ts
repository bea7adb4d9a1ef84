import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bot in the inbound path (issue 15): what tickets keeps of a connection's bot settings (greeting,
 * out-of-hours, completion, rating and expiry texts, the menu's retry limit and window, the transfer queue),
 * each ticket's place in the menu (`botState`, null before the bot saw it), when a closed ticket asked for
 * its rating (`ratingAskedAt`, cleared once answered or passed over) and which sent messages were the bot's.
 */
export class Bot1732240000020 implements MigrationInterface {
  name = 'Bot1732240000020';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.connections ADD COLUMN IF NOT EXISTS bot jsonb NOT NULL DEFAULT '{}'`);
    await q.query(
      `ALTER TABLE tickets.tickets ADD COLUMN IF NOT EXISTS "botState" jsonb, ADD COLUMN IF NOT EXISTS "ratingAskedAt" timestamptz`,
    );
    await q.query(`ALTER TABLE tickets.messages ADD COLUMN IF NOT EXISTS "isBot" boolean NOT NULL DEFAULT false`);
    // the customer's answer to a rating request looks for the closed ticket that asked: few rows, a small index
    await q.query(
      `CREATE INDEX IF NOT EXISTS tickets_rating_asked ON tickets.tickets ("contactId", "whatsappId") WHERE "ratingAskedAt" IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS tickets.tickets_rating_asked`);
    await q.query(`ALTER TABLE tickets.messages DROP COLUMN IF EXISTS "isBot"`);
    await q.query(`ALTER TABLE tickets.tickets DROP COLUMN IF EXISTS "botState", DROP COLUMN IF EXISTS "ratingAskedAt"`);
    await q.query(`ALTER TABLE tickets.connections DROP COLUMN IF EXISTS bot`);
  }
}
