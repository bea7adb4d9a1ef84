import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PlanFlags } from '@wa/contracts';
import { TIME_ZONE_SETTING } from '@wa/domain';
import { DataSource } from 'typeorm';

/** What tickets' copy holds of a company (its standing, its plan's flags, its time zone), or nulls. */
export interface StandingRow {
  status: boolean | null;
  dueDate: string | null;
  planId: number | null;
  flags: PlanFlags | null;
  zone: string | null;
  deleted: boolean;
}

const STANDING = `
  SELECT s.status, s."dueDate"::text AS "dueDate", s."planId", p.flags, z.value AS zone,
         EXISTS (SELECT 1 FROM tickets.deleted_companies d WHERE d.id = k.id) AS deleted
    FROM (SELECT $1::int AS id) k
    LEFT JOIN tickets.company_standings s ON s."companyId" = k.id
    LEFT JOIN tickets.plans p ON p.id = s."planId"
    LEFT JOIN tickets.company_settings z ON z."companyId" = k.id AND z.key = $2`;

/**
 * tickets' copy of each company's standing (auth's `company.updated`) and of the plans' flags (billing's
 * `plan.*`): each write keeps the later state (`updatedAt`); what auth answered about a company the copy lacked is
 * kept with "updatedAt" -infinity, so any event replaces it.
 */
@Injectable()
export class CompanyStandingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async standing(companyId: number): Promise<StandingRow> {
    const [row] = (await this.db.query(STANDING, [companyId, TIME_ZONE_SETTING])) as StandingRow[];
    return row as StandingRow;
  }

  /** A company's standing, unless the copy already holds a later one. */
  async keepCompany(companyId: number, s: { status: boolean; dueDate: string | null; planId: number | null; at: string }): Promise<void> {
    await this.db.query(
      `INSERT INTO tickets.company_standings ("companyId", status, "dueDate", "planId", "updatedAt") VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("companyId") DO UPDATE SET status = EXCLUDED.status, "dueDate" = EXCLUDED."dueDate", "planId" = EXCLUDED."planId", "updatedAt" = EXCLUDED."updatedAt"
       WHERE tickets.company_standings."updatedAt" <= EXCLUDED."updatedAt"`,
      [companyId, s.status, s.dueDate, s.planId, s.at],
    );
  }

  /** What auth answered about a company the copy lacks (any event replaces it). */
  async keepAskedCompany(companyId: number, s: { status: boolean; dueDate: string | null; planId: number | null }): Promise<void> {
    await this.db.query(
      `INSERT INTO tickets.company_standings ("companyId", status, "dueDate", "planId", "updatedAt") VALUES ($1, $2, $3, $4, '-infinity')
       ON CONFLICT ("companyId") DO NOTHING`,
      [companyId, s.status, s.dueDate, s.planId],
    );
  }

  /** A plan's flags, unless the copy already holds a later state (plans are the platform's, not a company's). */
  async keepPlan(planId: number, flags: PlanFlags, at: string): Promise<void> {
    await this.db.query(
      `INSERT INTO tickets.plans (id, flags, "updatedAt") VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET flags = EXCLUDED.flags, "updatedAt" = EXCLUDED."updatedAt" WHERE tickets.plans."updatedAt" <= EXCLUDED."updatedAt"`,
      [planId, JSON.stringify(flags), at],
    );
  }

  /** What auth answered about a plan, kept until an event says otherwise. */
  async keepAskedPlan(planId: number, flags: PlanFlags): Promise<void> {
    await this.db.query(
      `INSERT INTO tickets.plans (id, flags, "updatedAt") VALUES ($1, $2, '-infinity')
       ON CONFLICT (id) DO UPDATE SET flags = EXCLUDED.flags WHERE tickets.plans."updatedAt" = '-infinity'`,
      [planId, JSON.stringify(flags)],
    );
  }

  async deletePlan(planId: number, at: string): Promise<void> {
    await this.db.query(`DELETE FROM tickets.plans WHERE id = $1 AND "updatedAt" <= $2`, [planId, at]);
  }
}
