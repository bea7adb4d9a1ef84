import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AccessTokenClaims, CompanyNextInvoice, InvoicesPage } from '@wa/contracts';
import { daysFromToday, DEFAULT_TIME_ZONE, todayIn } from '@wa/domain';
import { DataSource, type EntityManager } from 'typeorm';
import { BillingEnv } from '../config/env.js';
import type { CompanyRow } from '../companies/company-copy.repository.js';
import { invoicesCreated } from '../metrics.js';
import { invoiceView, InvoicesRepository } from './invoices.repository.js';

export const INVOICES_PAGE_SIZE = 20;

/**
 * Invoices (spec 02 §2 Faturas): a company on a paid plan has an open invoice for its current due date, made when
 * billing hears of the company and, for the next due dates, by the daily job INVOICE_DAYS_AHEAD days before.
 */
@Injectable()
export class InvoicesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly invoices: InvoicesRepository,
    private readonly env: BillingEnv,
  ) {}

  /** `GET /invoices/all`: the caller's company's; a super user's: every company's, or the one asked. */
  async page(caller: AccessTokenClaims, query: { searchParam?: string; pageNumber?: number; companyId?: number }): Promise<InvoicesPage> {
    const pageNumber = query.pageNumber ?? 1;
    const companyId = caller.super ? query.companyId : caller.companyId;
    const { rows, count } = await this.invoices.page(
      this.db.manager,
      { companyId, search: query.searchParam?.trim() || undefined },
      INVOICES_PAGE_SIZE,
      (pageNumber - 1) * INVOICES_PAGE_SIZE,
    );
    return { invoices: rows.map(invoiceView), count, hasMore: pageNumber * INVOICES_PAGE_SIZE < count };
  }

  /** `GET /invoices/next` (super users): each company's next invoice, for the companies list. */
  next(companyIds: number[]): Promise<CompanyNextInvoice[]> {
    return this.invoices.nextOf(this.db.manager, companyIds, todayIn(DEFAULT_TIME_ZONE));
  }

  /**
   * After a company's copy changed: a new company gets its first invoice whatever its due date; a known one the
   * invoice of a due date within INVOICE_DAYS_AHEAD; a plan change reprices its open invoices; a deletion cancels them.
   */
  async companyChanged(tx: EntityManager, before: CompanyRow | undefined, after: CompanyRow | undefined): Promise<void> {
    if (!after) {
      if (before) await this.invoices.cancelOpen(tx, before.companyId);
      return;
    }
    if (before && before.planId !== after.planId) await this.invoices.repriceOpen(tx, after.companyId, after.planId);
    const ids = await this.invoices.createDue(tx, before ? this.horizon() : '', after.companyId);
    invoicesCreated.inc(ids.length);
  }

  /** The daily job: every company whose due date is within INVOICE_DAYS_AHEAD gets its invoice (once). */
  async createDue(): Promise<number> {
    const ids = await this.invoices.createDue(this.db.manager, this.horizon());
    invoicesCreated.inc(ids.length);
    return ids.length;
  }

  private horizon(): string {
    return daysFromToday(this.env.INVOICE_DAYS_AHEAD, DEFAULT_TIME_ZONE);
  }
}
