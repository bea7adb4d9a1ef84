import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The trigram (GIN) indexes of the tables the message path writes. */
const INDEXES = ['tickets.messages_body_trgm', 'tickets.contacts_name_trgm', 'tickets.contacts_number_trgm', 'tickets.contacts_email_trgm'];

/**
 * A GIN index takes new entries into a pending list, which the insert that finds it past
 * gin_pending_list_limit (4 MB by default) merges into the index, inside its own transaction. On the message
 * path that insert is a batch of the inbound lane or a bot's reply: every ~2,000 stored messages one of them
 * spent 25–47 ms on an idle machine merging the list (three times as long under load) while the lane's
 * next batches waited behind it. A 256 kB list is merged sixteen times as often, each time in at most a few
 * ms, and the inserts cost no more in all (measured: 8,000 three-message inserts into a table with this
 * index, default 4 MB: max 35–47 ms, p99.9 5.3–6.6 ms, 4.2–5.2 s in all; 256 kB: max 6–17 ms, p99.9
 * 3.4–3.9 ms, 3.9–4.0 s). A search scans the whole pending list, so a short one only helps it.
 */
export class TrigramPendingListsShort1732240000029 implements MigrationInterface {
  name = 'TrigramPendingListsShort1732240000029';

  async up(q: QueryRunner): Promise<void> {
    for (const index of INDEXES) await q.query(`ALTER INDEX IF EXISTS ${index} SET (gin_pending_list_limit = 256)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of INDEXES) await q.query(`ALTER INDEX IF EXISTS ${index} RESET (gin_pending_list_limit)`);
  }
}
