import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface RenewalRow {
  invoiceId: number;
  companyId: number;
  fromDueDate: string;
  toDueDate: string;
  planId: number;
}

/** The renewals applied for billing's paid invoices (`auth.invoice_renewals`), one per invoice. */
@Injectable()
export class RenewalsRepository {
  /** Records the invoice's renewal; false when it was applied already (nothing written). */
  async record(tx: EntityManager, r: RenewalRow): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `INSERT INTO auth.invoice_renewals ("invoiceId", "companyId", "fromDueDate", "toDueDate", "planId")
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT ("invoiceId") DO NOTHING RETURNING "invoiceId"`,
      [r.invoiceId, r.companyId, r.fromDueDate, r.toDueDate, r.planId],
    );
    return rows.length === 1;
  }
}
