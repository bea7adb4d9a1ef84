import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The renewals auth applied for billing's paid invoices (issue 41 §6): one row per invoice, written in the
 * transaction that moves the company's due date, so a payment announced twice (a webhook delivered again, a
 * replay, a webhook and a poll) renews once.
 */
export class InvoiceRenewals1732240000013 implements MigrationInterface {
  name = 'InvoiceRenewals1732240000013';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE IF NOT EXISTS auth.invoice_renewals (
      "invoiceId" int PRIMARY KEY,
      "companyId" int NOT NULL,
      "fromDueDate" date NOT NULL,
      "toDueDate" date NOT NULL,
      "planId" int NOT NULL,
      "appliedAt" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX IF NOT EXISTS invoice_renewals_company_idx ON auth.invoice_renewals ("companyId")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS auth.invoice_renewals`);
  }
}
