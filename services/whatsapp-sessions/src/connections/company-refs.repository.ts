import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RefEvent, RefStore } from '@wa/server-kit';
import { DataSource } from 'typeorm';
import { rowsOf } from '../database/sql.js';

export type RefKind = 'queue' | 'prompt';

/** `whatsapp.company_refs`: whose queue and prompt ids are whose, as tickets' events said. */
@Injectable()
export class CompanyRefsRepository implements RefStore<RefKind> {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Of these (kind, id) pairs, those the company has and did not delete, as `kind:id`. */
  async owned(companyId: number, kinds: RefKind[], ids: number[]): Promise<Set<string>> {
    const raw = await this.db.query(
      `SELECT r.kind, r.id FROM whatsapp.company_refs r
         JOIN unnest($1::varchar[], $2::int[]) AS w(kind, id) ON r.kind = w.kind AND r.id = w.id
        WHERE r."companyId" = $3 AND NOT r.deleted`,
      [kinds, ids, companyId],
    );
    return new Set(rowsOf<{ kind: string; id: number }>(raw).map((r) => `${r.kind}:${Number(r.id)}`));
  }

  /** Records an id as the company's (a deletion is final: a later update of the id never brings it back). */
  async remember({ kind, id, companyId, deleted }: RefEvent<RefKind>): Promise<void> {
    await this.db.query(
      `INSERT INTO whatsapp.company_refs (kind, id, "companyId", deleted) VALUES ($1, $2, $3, $4)
       ON CONFLICT (kind, id) DO UPDATE SET deleted = whatsapp.company_refs.deleted OR EXCLUDED.deleted`,
      [kind, id, companyId, deleted],
    );
  }
}
