import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { rowsOf } from '../database/sql.js';

/** A number's jid as WhatsApp answered it, and when (ms since the epoch). */
export interface RememberedJid {
  jid: string;
  checkedAt: number;
}

/** `whatsapp.number_jids`: the jid WhatsApp answered for each number, per company, with when it was learned. */
@Injectable()
export class NumberJidsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async find(companyId: number, number: string): Promise<RememberedJid | null> {
    const [row] = rowsOf<{ jid: string; at: string }>(
      await this.db.query(
        `SELECT jid, (extract(epoch FROM "checkedAt") * 1000)::float8 AS at FROM whatsapp.number_jids WHERE "companyId" = $1 AND number = $2`,
        [companyId, number],
      ),
    );
    return row ? { jid: row.jid, checkedAt: Number(row.at) } : null;
  }

  /** WhatsApp named these numbers so, now (one statement for the lot; a number given twice keeps its last jid). */
  async remember(companyId: number, entries: ReadonlyArray<{ number: string; jid: string }>): Promise<void> {
    const last = new Map(entries.map((e) => [e.number, e.jid]));
    if (last.size === 0) return;
    await this.db.query(
      `INSERT INTO whatsapp.number_jids ("companyId", number, jid, "checkedAt")
       SELECT $1, n, j, now() FROM unnest($2::varchar[], $3::varchar[]) AS t(n, j)
       ON CONFLICT ("companyId", number) DO UPDATE SET jid = excluded.jid, "checkedAt" = excluded."checkedAt"`,
      [companyId, [...last.keys()], [...last.values()]],
    );
  }

  /** Forgets what the numbers were remembered as, while it is still `jid` (another process may have learned a newer one). */
  async forget(companyId: number, numbers: readonly string[], jid: string): Promise<void> {
    await this.db.query(`DELETE FROM whatsapp.number_jids WHERE "companyId" = $1 AND number = ANY($2::varchar[]) AND jid = $3`, [
      companyId,
      numbers,
      jid,
    ]);
  }
}
