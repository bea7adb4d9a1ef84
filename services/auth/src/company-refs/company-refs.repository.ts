import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export type RefKind = 'queue' | 'connection';

/** The queues and connections each company has, as their events said (`auth.company_refs`). */
@Injectable()
export class CompanyRefsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Of `ids`, those that are the company's and not deleted. */
  async ownIds(companyId: number, kind: RefKind, ids: number[]): Promise<Set<number>> {
    const rows: Array<{ id: number }> = await this.db.query(
      `SELECT id FROM auth.company_refs WHERE kind = $1 AND id = ANY($2::int[]) AND "companyId" = $3 AND NOT deleted`,
      [kind, ids, companyId],
    );
    return new Set(rows.map((r) => Number(r.id)));
  }

  /**
   * Records an id of a company that exists. A deletion is final: a late update of the same id never brings it
   * back; a deleted company's late events (its connections ended after it went) leave nothing of it here.
   */
  async remember(kind: RefKind, id: number, companyId: number, deleted: boolean): Promise<void> {
    await this.db.query(
      `INSERT INTO auth.company_refs (kind, id, "companyId", deleted) SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM auth.companies WHERE id = $3)
       ON CONFLICT (kind, id) DO UPDATE SET deleted = auth.company_refs.deleted OR EXCLUDED.deleted`,
      [kind, id, companyId, deleted],
    );
  }
}
