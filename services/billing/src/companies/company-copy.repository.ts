import { Injectable } from '@nestjs/common';
import type { CompanyBillingCopy } from '@wa/contracts';
import type { EntityManager } from 'typeorm';

/** billing's copy of a company (auth owns it): what an invoice, a renewal's receipt and the checkout need. */
export interface CompanyRow {
  companyId: number;
  name: string;
  email: string | null;
  planId: number;
  status: boolean;
  dueDate: string;
  recurrence: string;
}

/** A company as an event gives it: email and recurrence may be absent (events older than the copy). */
export type CompanyState = Omit<CompanyBillingCopy, 'email' | 'recurrence'> & { email?: string | null; recurrence?: string };

const COLUMNS = `"companyId", name, email, "planId", status, to_char("dueDate", 'YYYY-MM-DD') AS "dueDate", recurrence`;

@Injectable()
export class CompanyCopyRepository {
  /**
   * The company as the event or auth's list has it, unless the copy holds a later state (a replay, an old event).
   * Returns the row before (undefined: new) and whether it was applied.
   */
  async apply(tx: EntityManager, c: CompanyState): Promise<{ before: CompanyRow | undefined; applied: boolean }> {
    const before = await this.find(tx, c.companyId, true);
    const rows: unknown[] = await tx.query(
      `INSERT INTO billing.companies ("companyId", name, email, "planId", status, "dueDate", recurrence, "at")
       VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7, 'MENSAL'), $8)
       ON CONFLICT ("companyId") DO UPDATE SET
         name = EXCLUDED.name,
         email = CASE WHEN $9 THEN EXCLUDED.email ELSE billing.companies.email END,
         "planId" = EXCLUDED."planId",
         status = EXCLUDED.status,
         "dueDate" = EXCLUDED."dueDate",
         recurrence = COALESCE($7, billing.companies.recurrence),
         "at" = EXCLUDED."at"
       WHERE billing.companies."at" <= EXCLUDED."at"
       RETURNING "companyId"`,
      [c.companyId, c.name, c.email ?? null, c.planId, c.status, c.dueDate, c.recurrence ?? null, c.at, c.email !== undefined],
    );
    return { before, applied: rows.length > 0 };
  }

  async find(tx: EntityManager, companyId: number, lock = false): Promise<CompanyRow | undefined> {
    const rows: CompanyRow[] = await tx.query(
      `SELECT ${COLUMNS} FROM billing.companies WHERE "companyId" = $1${lock ? ' FOR UPDATE' : ''}`,
      [companyId],
    );
    return rows[0];
  }

  async delete(tx: EntityManager, companyId: number): Promise<void> {
    await tx.query(`DELETE FROM billing.companies WHERE "companyId" = $1`, [companyId]);
  }
}
