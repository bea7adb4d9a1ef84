import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { rowsOf } from '../../../database/sql.js';

/** A row of `whatsapp.session_state` as stored (its value sealed, or in clear when written before sealing). */
export interface StoredStateRow {
  connectionId: number;
  category: string;
  id: string;
  value: string;
}

/** `whatsapp.session_state`: the Baileys creds and signal keys of each connection, one row per key. */
@Injectable()
export class AuthStateRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Rows still in clear (stored before sealing), `limit` at most. */
  async inClear(limit: number): Promise<StoredStateRow[]> {
    return rowsOf<StoredStateRow>(
      await this.db.query(
        `SELECT "connectionId", category, id, value FROM whatsapp.session_state WHERE value NOT LIKE 'enc:v1:%' LIMIT $1`,
        [limit],
      ),
    );
  }

  /** Replaces each row's value by `sealed[i]`, only where it still holds what was read (a session writing meanwhile wins). */
  async replaceIfUnchanged(rows: StoredStateRow[], sealed: string[]): Promise<void> {
    await this.db.query(
      `UPDATE whatsapp.session_state s SET value = t.v
         FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[]) AS t(c, cat, i, old, v)
        WHERE s."connectionId" = t.c AND s.category = t.cat AND s.id = t.i AND s.value = t.old`,
      [rows.map((r) => r.connectionId), rows.map((r) => r.category), rows.map((r) => r.id), rows.map((r) => r.value), sealed],
    );
  }

  /** The stored values of a connection's keys of one category, by id. */
  async read(connectionId: number, category: string, ids: string[]): Promise<Array<{ id: string; value: string }>> {
    return rowsOf<{ id: string; value: string }>(
      await this.db.query(
        `SELECT id, value FROM whatsapp.session_state WHERE "connectionId" = $1 AND category = $2 AND id = ANY($3::text[])`,
        [connectionId, category, ids],
      ),
    );
  }

  /** Writes and deletes a connection's keys in one transaction. */
  async apply(
    connectionId: number,
    puts: Array<{ category: string; id: string; value: string }>,
    dels: Array<{ category: string; id: string }>,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (puts.length > 0) {
        await tx.query(
          `INSERT INTO whatsapp.session_state ("connectionId", category, id, value)
           SELECT $1, c, i, v FROM unnest($2::text[], $3::text[], $4::text[]) AS t(c, i, v)
           ON CONFLICT ("connectionId", category, id) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
          [connectionId, puts.map((p) => p.category), puts.map((p) => p.id), puts.map((p) => p.value)],
        );
      }
      if (dels.length > 0) {
        await tx.query(
          `DELETE FROM whatsapp.session_state s USING unnest($2::text[], $3::text[]) AS t(c, i)
            WHERE s."connectionId" = $1 AND s.category = t.c AND s.id = t.i`,
          [connectionId, dels.map((d) => d.category), dels.map((d) => d.id)],
        );
      }
    });
  }

  /** Deletes every key of the connection. */
  async clear(connectionId: number): Promise<void> {
    await this.db.query(`DELETE FROM whatsapp.session_state WHERE "connectionId" = $1`, [connectionId]);
  }
}
