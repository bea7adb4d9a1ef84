import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WaSubjects, type WaLidMapped } from '@wa/contracts';
import { DataSource } from 'typeorm';
import { rowsOf } from '../database/sql.js';
import { Outbox } from '../outbox/outbox.service.js';

/** A LID (its digits) and the phone number (digits) it stands for. */
export interface LidPair {
  lid: string;
  pn: string;
}

/** `whatsapp.lid_map`: which number each of a company's LIDs stands for; a new or changed pair is announced with it. */
@Injectable()
export class LidMapRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: Outbox,
  ) {}

  /** The numbers of these LIDs the company knows (LIDs it does not know are left out). */
  async pnsOf(companyId: number, lids: readonly string[]): Promise<Map<string, string>> {
    const rows = rowsOf<LidPair>(
      await this.db.query(`SELECT lid, pn FROM whatsapp.lid_map WHERE "companyId" = $1 AND lid = ANY($2::varchar[])`, [companyId, lids]),
    );
    return new Map(rows.map((r) => [r.lid, r.pn]));
  }

  /**
   * Keeps the pairs (a LID given twice keeps its last number) and, in the same transaction, announces each pair that
   * is new or changed (`wa.lid.<companyId>` through the outbox); answers those. One already known writes nothing.
   */
  async learn(companyId: number, pairs: readonly LidPair[]): Promise<LidPair[]> {
    const last = new Map(pairs.map((p) => [p.lid, p.pn]));
    if (last.size === 0) return [];
    const changed = await this.db.transaction(async (tx) => {
      const rows = rowsOf<LidPair>(
        await tx.query(
          `INSERT INTO whatsapp.lid_map AS m ("companyId", lid, pn)
           SELECT $1, l, p FROM unnest($2::varchar[], $3::varchar[]) AS t(l, p)
           ON CONFLICT ("companyId", lid) DO UPDATE SET pn = excluded.pn, "learnedAt" = now() WHERE m.pn <> excluded.pn
           RETURNING lid, pn`,
          [companyId, [...last.keys()], [...last.values()]],
        ),
      );
      const at = Date.now();
      await this.outbox.add(
        tx,
        rows.map((r) => {
          const event: WaLidMapped = { companyId, lid: r.lid, pn: r.pn, at };
          return { subject: WaSubjects.lidMapped(companyId), msgId: `lid:${companyId}:${r.lid}:${randomUUID()}`, payload: event };
        }),
      );
      return rows;
    });
    if (changed.length > 0) void this.outbox.flush();
    return changed;
  }
}
