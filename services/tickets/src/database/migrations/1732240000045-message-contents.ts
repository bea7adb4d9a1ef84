import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a message carries besides its text and file (issue 45 §4), as JSON: `voice` (an audio sent or received as a
 * WhatsApp voice note), `location` (a place: latitude, longitude, name, address), `contacts` (contact cards: name and
 * numbers) and `reactions` (emoji reactions on it, one per who reacted). Older clients keep reading `body` and
 * `mediaType`, which stay as they were ("lat,long" for a location, the vCard for a contact).
 */
export class MessageContents1732240000045 implements MigrationInterface {
  name = 'MessageContents1732240000045';

  async up(q: QueryRunner): Promise<void> {
    // nullable, no default: instant on a large table
    await q.query(`ALTER TABLE tickets.messages ADD COLUMN IF NOT EXISTS contents jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.messages DROP COLUMN IF EXISTS contents`);
  }
}
