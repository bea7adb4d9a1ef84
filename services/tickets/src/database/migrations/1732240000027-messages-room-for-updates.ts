import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A message we send is updated four times within its first second (its acks: sent, server, delivered, read).
 * On a full page each update is a new row version on another page, and every index of the table takes a new
 * entry, the trigram index of the body included (the most costly). Pages filled to 80 % leave room for those
 * versions on their own page: the updates become HOT (no index touched), measured with pg_stat_user_tables'
 * n_tup_hot_upd. Pages written from now on keep the room; older ones stay as they are.
 */
export class MessagesRoomForUpdates1732240000027 implements MigrationInterface {
  name = 'MessagesRoomForUpdates1732240000027';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.messages SET (fillfactor = 80)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.messages RESET (fillfactor)`);
  }
}
