import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export type ChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REMOVIDA';

export interface ChargeRow {
  id: number;
  txid: string;
  invoiceId: number;
  companyId: number;
  planId: number;
  amountCents: number;
  provider: string;
  status: ChargeStatus;
  brCode: string;
  expiresAt: Date;
}

const COLUMNS = `id, txid, "invoiceId", "companyId", "planId", "amountCents", provider, status, "brCode", "expiresAt"`;

export interface NewPayment {
  endToEndId: string;
  chargeId: number;
  invoiceId: number;
  companyId: number;
  amountCents: number;
  provider: string;
  paidAt: Date;
}

@Injectable()
export class ChargesRepository {
  /** The invoice's charge still payable for at least `marginS` seconds, for this plan and amount. */
  async reusable(
    tx: EntityManager,
    invoiceId: number,
    planId: number,
    amountCents: number,
    marginS: number,
  ): Promise<ChargeRow | undefined> {
    const rows: ChargeRow[] = await tx.query(
      `SELECT ${COLUMNS} FROM billing.charges
        WHERE "invoiceId" = $1 AND status = 'ATIVA' AND "planId" = $2 AND "amountCents" = $3
          AND "expiresAt" > now() + make_interval(secs => $4)
        ORDER BY id DESC LIMIT 1`,
      [invoiceId, planId, amountCents, marginS],
    );
    return rows[0];
  }

  async insert(
    tx: EntityManager,
    c: Omit<ChargeRow, 'id' | 'status'> & { location: string | null; payer: Record<string, unknown> },
  ): Promise<ChargeRow> {
    const rows: ChargeRow[] = await tx.query(
      `INSERT INTO billing.charges (txid, "invoiceId", "companyId", "planId", "amountCents", provider, "brCode", location, payer, "expiresAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
      [c.txid, c.invoiceId, c.companyId, c.planId, c.amountCents, c.provider, c.brCode, c.location, JSON.stringify(c.payer), c.expiresAt],
    );
    return rows[0] as ChargeRow;
  }

  async byTxid(tx: EntityManager, txid: string, lock = false): Promise<ChargeRow | undefined> {
    const rows: ChargeRow[] = await tx.query(`SELECT ${COLUMNS} FROM billing.charges WHERE txid = $1${lock ? ' FOR UPDATE' : ''}`, [txid]);
    return rows[0];
  }

  /** Charges still open at our side that a webhook has not settled for a while: the daily job reads them back. */
  async unsettled(tx: EntityManager, olderThanS: number, limit: number): Promise<string[]> {
    const rows: Array<{ txid: string }> = await tx.query(
      `SELECT txid FROM billing.charges
        WHERE status = 'ATIVA' AND "createdAt" < now() - make_interval(secs => $1)
        ORDER BY id LIMIT $2`,
      [olderThanS, limit],
    );
    return rows.map((r) => r.txid);
  }

  async setStatus(tx: EntityManager, id: number, status: ChargeStatus): Promise<void> {
    await tx.query(`UPDATE billing.charges SET status = $2, "updatedAt" = now() WHERE id = $1`, [id, status]);
  }

  /** The payment, unless one with its end-to-end id is already recorded (a webhook twice, a webhook and a poll). */
  async insertPayment(tx: EntityManager, p: NewPayment): Promise<number | undefined> {
    const rows: Array<{ id: number }> = await tx.query(
      `INSERT INTO billing.payments ("endToEndId", "chargeId", "invoiceId", "companyId", "amountCents", provider, "paidAt", settled)
       VALUES ($1, $2, $3, $4, $5, $6, $7, false)
       ON CONFLICT ("endToEndId") DO NOTHING RETURNING id`,
      [p.endToEndId, p.chargeId, p.invoiceId, p.companyId, p.amountCents, p.provider, p.paidAt],
    );
    return rows[0]?.id;
  }

  async markSettled(tx: EntityManager, paymentId: number): Promise<void> {
    await tx.query(`UPDATE billing.payments SET settled = true WHERE id = $1`, [paymentId]);
  }

  /** What a receipt tells: the payment, its invoice and where the company's billing mail goes. */
  async receipt(
    tx: EntityManager,
    paymentId: number,
  ): Promise<
    | {
        invoiceId: number;
        detail: string;
        dueDate: string;
        amountCents: number;
        paidAt: Date;
        endToEndId: string;
        email: string | null;
        name: string | null;
        receiptSentAt: Date | null;
      }
    | undefined
  > {
    const rows = await tx.query(
      `SELECT p."invoiceId", i.detail, to_char(i."dueDate", 'YYYY-MM-DD') AS "dueDate", p."amountCents", p."paidAt",
              p."endToEndId", c.email, c.name, i."receiptSentAt"
         FROM billing.payments p
         JOIN billing.invoices i ON i.id = p."invoiceId"
         LEFT JOIN billing.companies c ON c."companyId" = p."companyId"
        WHERE p.id = $1 AND p.settled`,
      [paymentId],
    );
    return rows[0];
  }
}
