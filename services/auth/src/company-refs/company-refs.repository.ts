import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RefEvent, RefStore } from '@wa/server-kit';
import { DataSource } from 'typeorm';

export type RefKind = 'queue' | 'connection';

/** The queues and connections each company has, as their events said (`auth.company_refs`). */
@Injectable()
export class CompanyRefsRepository implements RefStore<RefKind> {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Of these (kind, id) pairs, those the company has and did not delete, as `kind:id`. */
  async owned(companyId: number, kinds: RefKind[], ids: number[]): Promise<Set<string>> {
    const rows: Array<{ kind: string; id: number }> = await this.db.query(
      `SELECT r.kind, r.id FROM auth.company_refs r
         JOIN unnest($1::varchar[], $2::int[]) AS w(kind, id) ON r.kind = w.kind AND r.id = w.id
        WHERE r."companyId" = $3 AND NOT r.deleted`,
      [kinds, ids, companyId],
    );
    return new Set(rows.map((r) => `${r.kind}:${Number(r.id)}`));
  }

  /**
   * Records an id of a company that exists. A deletion is final: a late update of the same id never brings it
   * back; a deleted company's late events (its connections ended after it went) leave nothing of it here.
   */
  async remember({ kind, id, companyId, deleted }: RefEvent<RefKind>): Promise<void> {
    await this.db.query(
      `INSERT INTO auth.company_refs (kind, id, "companyId", deleted) SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM auth.companies WHERE id = $3)
       ON CONFLICT (kind, id) DO UPDATE SET deleted = auth.company_refs.deleted OR EXCLUDED.deleted`,
      [kind, id, companyId, deleted],
    );
  }
}
