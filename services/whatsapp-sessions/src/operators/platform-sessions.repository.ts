import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ConnectionStatus } from '@wa/contracts';
import type { DataSource } from 'typeorm';
import { rowsOf } from '../database/sql.js';

/** Connections a page of the operators' view shows. */
export const PLATFORM_SESSIONS_PAGE_SIZE = 100;

export interface PlatformConnectionFilter {
  companyId?: number;
  status?: ConnectionStatus;
  /** only these connections (those a replica holds) */
  ids?: number[];
}

/** The connections of every company, for platform operators (super users): no company scope by design. */
@Injectable()
export class PlatformSessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * A page of connections (by id), with how many match in all: the matching rows counted once (`matching`), the page
   * cut from them; past the last page the count is still there (a row with no connection).
   */
  async page(
    filter: PlatformConnectionFilter,
    pageNumber: number,
  ): Promise<{ rows: Array<{ id: number; companyId: number; name: string; status: ConnectionStatus }>; count: number }> {
    const raw = await this.db.query(
      `WITH matching AS (
         SELECT id, "companyId", name, status FROM whatsapp.connections
          WHERE ($1::int IS NULL OR "companyId" = $1)
            AND ($2::varchar IS NULL OR status = $2)
            AND ($3::int[] IS NULL OR id = ANY($3::int[])))
       SELECT p.id, p."companyId", p.name, p.status, (SELECT count(*) FROM matching) AS total
         FROM (SELECT 1) AS one
         LEFT JOIN LATERAL (SELECT * FROM matching ORDER BY id LIMIT $4 OFFSET $5) AS p ON true`,
      [
        filter.companyId ?? null,
        filter.status ?? null,
        filter.ids ?? null,
        PLATFORM_SESSIONS_PAGE_SIZE,
        (pageNumber - 1) * PLATFORM_SESSIONS_PAGE_SIZE,
      ],
    );
    const found = rowsOf<{ id: number | null; companyId: number; name: string; status: ConnectionStatus; total: string }>(raw);
    return {
      rows: found.filter((r) => r.id !== null).map(({ total: _, ...r }) => ({ ...r, id: r.id as number })),
      count: Number(found[0]?.total ?? 0),
    };
  }
}
