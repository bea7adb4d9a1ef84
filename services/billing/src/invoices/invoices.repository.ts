import { Injectable } from '@nestjs/common';
import type { CompanyNextInvoice, InvoiceDto, InvoiceStatus } from '@wa/contracts';
import type { EntityManager } from 'typeorm';

export interface InvoiceRow {
  id: number;
  companyId: number;
  detail: string;
  valueCents: number;
  dueDate: string;
  status: InvoiceStatus;
  planId: number;
  paidAt: Date | null;
  createdAt: Date;
}

const COLUMNS = `i.id, i."companyId", i.detail, i."valueCents", to_char(i."dueDate", 'YYYY-MM-DD') AS "dueDate", i.status,
  i."planId", i."paidAt", i."createdAt"`;

export const invoiceView = (r: InvoiceRow & { companyName?: string | null }): InvoiceDto => ({
  id: r.id,
  companyId: r.companyId,
  companyName: r.companyName ?? '',
  detail: r.detail,
  value: r.valueCents / 100,
  dueDate: r.dueDate,
  status: r.status,
  paidAt: r.paidAt ? new Date(r.paidAt).toISOString() : null,
  createdAt: new Date(r.createdAt).toISOString(),
});

/** Which invoices a list holds: one company's (a company's users), or every company's / one chosen (super users). */
export interface InvoiceScope {
  companyId?: number;
  search?: string;
}

@Injectable()
export class InvoicesRepository {
  /**
   * The invoice of each company on a paid plan (price above 0, not disabled) for its current due date, when that
   * date is on or before `until` (or for the one company given, whatever its date: a new company's first invoice).
   * One per company and due date (the unique key): running it twice creates nothing more. Returns the new ids.
   */
  async createDue(tx: EntityManager, until: string, companyId?: number): Promise<number[]> {
    const rows: Array<{ id: number }> = await tx.query(
      `INSERT INTO billing.invoices ("companyId", detail, "valueCents", "dueDate", "planId")
       SELECT c."companyId", p.name, round(p.value * 100)::int, c."dueDate", c."planId"
         FROM billing.companies c JOIN billing.plans p ON p.id = c."planId"
        WHERE p.value > 0 AND c.status
          AND ${companyId === undefined ? `c."dueDate" <= $1::date` : `c."companyId" = $2 AND ($1::date IS NULL OR c."dueDate" <= $1::date)`}
       ON CONFLICT ("companyId", "dueDate") DO NOTHING
       RETURNING id`,
      companyId === undefined ? [until] : [until || null, companyId],
    );
    return rows.map((r) => r.id);
  }

  /** A company moved to another plan: its open invoices now bill that plan (a free one cancels them). */
  async repriceOpen(tx: EntityManager, companyId: number, planId: number): Promise<void> {
    await tx.query(
      `UPDATE billing.invoices i
          SET "planId" = p.id, detail = p.name, "valueCents" = round(p.value * 100)::int,
              status = CASE WHEN p.value > 0 THEN i.status ELSE 'cancelled' END, "updatedAt" = now()
         FROM billing.plans p
        WHERE p.id = $2 AND i."companyId" = $1 AND i.status = 'open' AND i."planId" <> p.id`,
      [companyId, planId],
    );
  }

  /** The company is gone: its open invoices are cancelled (paid ones stay: they are the record of money received). */
  async cancelOpen(tx: EntityManager, companyId: number): Promise<void> {
    await tx.query(`UPDATE billing.invoices SET status = 'cancelled', "updatedAt" = now() WHERE "companyId" = $1 AND status = 'open'`, [
      companyId,
    ]);
  }

  async find(tx: EntityManager, id: number, companyId: number, lock = false): Promise<InvoiceRow | undefined> {
    const rows: InvoiceRow[] = await tx.query(
      `SELECT ${COLUMNS} FROM billing.invoices i WHERE i.id = $1 AND i."companyId" = $2${lock ? ' FOR UPDATE' : ''}`,
      [id, companyId],
    );
    return rows[0];
  }

  /** Marks an open invoice paid; undefined when it was not open (already paid, cancelled). */
  async markPaid(tx: EntityManager, id: number, paidAt: Date): Promise<InvoiceRow | undefined> {
    // TypeORM answers an UPDATE … RETURNING as [rows, affected]
    const [rows] = (await tx.query(
      `UPDATE billing.invoices i SET status = 'paid', "paidAt" = $2, "updatedAt" = now()
        WHERE i.id = $1 AND i.status = 'open'
        RETURNING ${COLUMNS}`,
      [id, paidAt],
    )) as [InvoiceRow[], number];
    return rows[0];
  }

  async markReceiptSent(tx: EntityManager, id: number): Promise<void> {
    await tx.query(`UPDATE billing.invoices SET "receiptSentAt" = now() WHERE id = $1`, [id]);
  }

  /** A page, newest due date first. The search matches the detail, the id, or (super users) the company's name. */
  async page(
    tx: EntityManager,
    scope: InvoiceScope,
    limit: number,
    offset: number,
  ): Promise<{ rows: Array<InvoiceRow & { companyName: string | null }>; count: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (scope.companyId !== undefined) {
      params.push(scope.companyId);
      where.push(`i."companyId" = $${params.length}`);
    }
    if (scope.search) {
      params.push(`%${scope.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      const like = `$${params.length}`;
      const id = /^\d{1,9}$/.test(scope.search) ? Number(scope.search) : null;
      params.push(id);
      where.push(`(i.detail ILIKE ${like} OR c.name ILIKE ${like} OR i.id = $${params.length})`);
    }
    const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const from = `FROM billing.invoices i LEFT JOIN billing.companies c ON c."companyId" = i."companyId" ${filter}`;
    const [rows, counted] = await Promise.all([
      tx.query(
        `SELECT ${COLUMNS}, c.name AS "companyName" ${from} ORDER BY i."dueDate" DESC, i.id DESC LIMIT ${limit} OFFSET ${offset}`,
        params,
      ),
      tx.query(`SELECT count(*)::int AS n ${from}`, params),
    ]);
    return { rows, count: (counted as Array<{ n: number }>)[0]?.n ?? 0 };
  }

  /** Each company's next invoice: its earliest open one, else its latest. */
  async nextOf(tx: EntityManager, companyIds: number[], today: string): Promise<CompanyNextInvoice[]> {
    const rows: Array<InvoiceRow> = await tx.query(
      `SELECT DISTINCT ON (i."companyId") ${COLUMNS}
         FROM billing.invoices i
        WHERE i."companyId" = ANY($1::int[]) AND i.status <> 'cancelled'
        ORDER BY i."companyId", (i.status = 'open') DESC,
                 CASE WHEN i.status = 'open' THEN i."dueDate" END ASC, i."dueDate" DESC`,
      [companyIds],
    );
    return rows.map((r) => ({
      companyId: r.companyId,
      invoiceId: r.id,
      dueDate: r.dueDate,
      value: r.valueCents / 100,
      status: r.status,
      overdue: r.status === 'open' && r.dueDate < today,
    }));
  }
}
