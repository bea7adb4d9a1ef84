import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { rowsOf } from '../database/sql.js';

/** `whatsapp.undecryptable_messages`: the WhatsApp ids each connection published undecryptable, with when. */
@Injectable()
export class UndecryptableRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The connection's ids received within the last `windowMs`, newest first, `limit` at most (with when, ms). */
  async current(connectionId: number, windowMs: number, limit: number): Promise<Array<{ id: string; at: number }>> {
    const rows = rowsOf<{ id: string; at: string }>(
      await this.db.query(
        `SELECT wa_message_id AS id, (extract(epoch FROM received_at) * 1000)::float8 AS at FROM whatsapp.undecryptable_messages
          WHERE connection_id = $1 AND received_at > now() - $2 * interval '1 millisecond' ORDER BY received_at DESC LIMIT $3`,
        [connectionId, windowMs, limit],
      ),
    );
    return rows.map((r) => ({ id: r.id, at: Number(r.at) }));
  }

  /** The message arrived undecryptable now (again: its first time is kept). */
  async received(connectionId: number, waMessageId: string): Promise<void> {
    await this.db.query(
      `INSERT INTO whatsapp.undecryptable_messages (connection_id, wa_message_id) VALUES ($1, $2)
       ON CONFLICT (connection_id, wa_message_id) DO NOTHING`,
      [connectionId, waMessageId],
    );
  }

  /**
   * Deletes up to `limit` ids received longer than `windowMs` ago, oldest first; answers how many went. Rows another
   * process is deleting at the same time are skipped, not waited for.
   */
  async prune(windowMs: number, limit: number): Promise<number> {
    const raw: unknown = await this.db.query(
      `DELETE FROM whatsapp.undecryptable_messages WHERE (connection_id, wa_message_id) IN (
         SELECT connection_id, wa_message_id FROM whatsapp.undecryptable_messages
          WHERE received_at <= now() - $1 * interval '1 millisecond'
          ORDER BY received_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [windowMs, limit],
    );
    return Array.isArray(raw) && typeof raw[1] === 'number' ? raw[1] : 0;
  }
}
