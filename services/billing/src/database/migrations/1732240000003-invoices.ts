import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invoices, charges and payments (issue 41). Money is kept in integer cents. `companies` is billing's copy of
 * auth's companies (their events); `sandbox_charges` is the sandbox Pix provider's own ledger (what a real PSP
 * keeps on its side).
 */
export class Invoices1732240000003 implements MigrationInterface {
  name = 'Invoices1732240000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE billing.companies (
        "companyId" int PRIMARY KEY,
        name varchar(100) NOT NULL,
        email varchar(200),
        "planId" int NOT NULL,
        status boolean NOT NULL DEFAULT true,
        "dueDate" date NOT NULL,
        recurrence varchar(20) NOT NULL DEFAULT 'MENSAL',
        "at" timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE billing.invoices (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        detail varchar(200) NOT NULL,
        "valueCents" int NOT NULL CHECK ("valueCents" >= 0),
        "dueDate" date NOT NULL,
        status varchar(10) NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'cancelled')),
        "planId" int NOT NULL,
        "paidAt" timestamptz,
        "receiptSentAt" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT invoices_company_due UNIQUE ("companyId", "dueDate")
      )`);
    await q.query(`CREATE INDEX invoices_company_id ON billing.invoices ("companyId", id DESC)`);
    await q.query(`CREATE INDEX invoices_open_due ON billing.invoices ("dueDate") WHERE status = 'open'`);
    await q.query(`
      CREATE TABLE billing.charges (
        id serial PRIMARY KEY,
        txid varchar(35) NOT NULL UNIQUE,
        "invoiceId" int NOT NULL REFERENCES billing.invoices (id) ON DELETE CASCADE,
        "companyId" int NOT NULL,
        "planId" int NOT NULL,
        "amountCents" int NOT NULL CHECK ("amountCents" > 0),
        provider varchar(20) NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'ATIVA' CHECK (status IN ('ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REMOVIDA')),
        "brCode" text NOT NULL,
        location text,
        payer jsonb NOT NULL DEFAULT '{}',
        "expiresAt" timestamptz NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX charges_invoice_active ON billing.charges ("invoiceId") WHERE status = 'ATIVA'`);
    await q.query(`
      CREATE TABLE billing.payments (
        id serial PRIMARY KEY,
        "endToEndId" varchar(64) NOT NULL UNIQUE,
        "chargeId" int NOT NULL REFERENCES billing.charges (id) ON DELETE CASCADE,
        "invoiceId" int NOT NULL,
        "companyId" int NOT NULL,
        "amountCents" int NOT NULL,
        provider varchar(20) NOT NULL,
        "paidAt" timestamptz NOT NULL,
        settled boolean NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX payments_company ON billing.payments ("companyId", id DESC)`);
    await q.query(`
      CREATE TABLE billing.sandbox_charges (
        txid varchar(35) PRIMARY KEY,
        "amountCents" int NOT NULL,
        status varchar(40) NOT NULL DEFAULT 'ATIVA',
        "brCode" text NOT NULL,
        "expiresAt" timestamptz NOT NULL,
        "endToEndId" varchar(64),
        "paidCents" int,
        "paidAt" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS billing.sandbox_charges`);
    await q.query(`DROP TABLE IF EXISTS billing.payments`);
    await q.query(`DROP TABLE IF EXISTS billing.charges`);
    await q.query(`DROP TABLE IF EXISTS billing.invoices`);
    await q.query(`DROP TABLE IF EXISTS billing.companies`);
  }
}
