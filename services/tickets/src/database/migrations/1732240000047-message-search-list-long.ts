import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The message search index's pending list is merged apart from the inserts (SearchIndexMerge, every second), so its
 * limit goes back up from 029's 256 kB to 4 MB, the bound for when that merge falls behind: a short list made every
 * ~200 stored messages pay for a merge inside the inbound lane's transaction, at about twice the cost in all of
 * merging larger lists (measured on `store_inbound` alone, 400 committed batches of 50, issue 44: 256 kB 5,519 /
 * 6,634 ms, 4 MB 3,173 / 3,356 ms). The contacts' trigram indexes keep 029's short lists (contacts change rarely).
 */
export class MessageSearchListLong1732240000047 implements MigrationInterface {
  name = 'MessageSearchListLong1732240000047';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX IF EXISTS tickets.messages_body_trgm SET (gin_pending_list_limit = 4096)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX IF EXISTS tickets.messages_body_trgm SET (gin_pending_list_limit = 256)`);
  }
}
