import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { rowsOf } from '../database/sql.js';

/** `whatsapp.not_on_whatsapp`: the numbers WhatsApp refused, per connection, with when it refused them. */
@Injectable()
export class NotOnWhatsappRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Forgets the connection's refusals older than `ttlMs`, then answers the others, newest first, `limit` at most. */
  async current(connectionId: number, ttlMs: number, limit: number): Promise<Array<{ number: string; at: number }>> {
    await this.db.query(
      `DELETE FROM whatsapp.not_on_whatsapp WHERE connection_id = $1 AND refused_at <= now() - $2 * interval '1 millisecond'`,
      [connectionId, ttlMs],
    );
    const rows = rowsOf<{ number: string; at: string }>(
      await this.db.query(
        `SELECT number, (extract(epoch FROM refused_at) * 1000)::float8 AS at FROM whatsapp.not_on_whatsapp WHERE connection_id = $1 ORDER BY refused_at DESC LIMIT $2`,
        [connectionId, limit],
      ),
    );
    return rows.map((r) => ({ number: r.number, at: Number(r.at) }));
  }

  /** WhatsApp refused the number now. */
  async refused(connectionId: number, number: string): Promise<void> {
    await this.db.query(
      `INSERT INTO whatsapp.not_on_whatsapp (connection_id, number, refused_at) VALUES ($1, $2, now())
       ON CONFLICT (connection_id, number) DO UPDATE SET refused_at = excluded.refused_at`,
      [connectionId, number],
    );
  }

  /** The numbers are on WhatsApp (again). */
  async forget(connectionId: number, numbers: string[]): Promise<void> {
    await this.db.query(`DELETE FROM whatsapp.not_on_whatsapp WHERE connection_id = $1 AND number = ANY($2::varchar[])`, [
      connectionId,
      numbers,
    ]);
  }
}
