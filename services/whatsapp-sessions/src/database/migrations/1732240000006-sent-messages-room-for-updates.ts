import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A send's row is updated up to five times within its first second (sent, then each ack). Pages filled to
 * 60 % leave room for those versions on their own page, so the updates are HOT (its two indexes untouched)
 * instead of a new entry in each index per update. Pages written from now on keep the room.
 */
export class SentMessagesRoomForUpdates1732240000006 implements MigrationInterface {
  name = 'SentMessagesRoomForUpdates1732240000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE whatsapp.sent_messages SET (fillfactor = 60)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE whatsapp.sent_messages RESET (fillfactor)`);
  }
}
