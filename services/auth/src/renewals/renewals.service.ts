import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { paymentConfirmedSubject, type InvoicePaidEvent, type PaymentEvent } from '@wa/contracts';
import { companyTimeZone, TIME_ZONE_SETTING, todayIn } from '@wa/domain';
import { runInContext } from '@wa/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { companyUpdated } from '../companies/company-events.js';
import { CompaniesRepository } from '../companies/companies.repository.js';
import type { CompanyEntity } from '../database/entities/index.js';
import { Outbox } from '../outbox/outbox.service.js';
import { PlanEpochs } from '../plans/plan-epochs.js';
import { PlansRepository } from '../plans/plans.repository.js';
import { SettingsRepository } from '../settings/settings.repository.js';
import { renewedDueDate } from './renewal-date.js';
import { RenewalsRepository } from './renewals.repository.js';

export type RenewalOutcome = 'renewed' | 'already-applied' | 'no-company';

/**
 * The renewal (issue 41 §6): billing's `billing.invoice.paid` moves the company's due date by its recurrence
 * (MENSAL 1 month … ANUAL 12) from the later of its due date and today on its own calendar, once per invoice,
 * and moves it to the plan chosen at the checkout. There is no stored "blocked" state: a company past its due
 * date is refused (sign-in, the plan gate) until the new due date; one the provider disabled stays disabled.
 */
@Injectable()
export class RenewalsService {
  private readonly log = new Logger(RenewalsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly companies: CompaniesRepository,
    private readonly plans: PlansRepository,
    private readonly settings: SettingsRepository,
    private readonly renewals: RenewalsRepository,
    private readonly outbox: Outbox,
    private readonly epochs: PlanEpochs,
  ) {}

  /**
   * In one transaction: the company locked, the renewal recorded (an invoice already recorded changes nothing),
   * the company saved, and `company.updated` and `company.payment.confirmed` (the sockets' CONCLUIDA) in the outbox.
   */
  async apply(e: InvoicePaidEvent): Promise<RenewalOutcome> {
    return runInContext({ requestId: `invoice-paid:${e.invoiceId}`, companyId: e.companyId }, async () => {
      const result = await this.db.transaction(async (tx) => {
        const company = await this.companies.find(tx, e.companyId, true);
        if (!company) return { outcome: 'no-company' as const };
        const zone = await this.settings.find(company.id, TIME_ZONE_SETTING, tx);
        const fromDueDate = company.dueDate;
        const toDueDate = renewedDueDate(fromDueDate, todayIn(companyTimeZone(zone?.value)), company.recurrence);
        const planId = await this.planAfter(tx, company, e.planId);
        const recorded = await this.renewals.record(tx, { invoiceId: e.invoiceId, companyId: company.id, fromDueDate, toDueDate, planId });
        if (!recorded) return { outcome: 'already-applied' as const };
        Object.assign(company, { dueDate: toDueDate, planId });
        await this.companies.save(tx, company);
        const payment: PaymentEvent = {
          action: 'CONCLUIDA',
          invoiceId: e.invoiceId,
          company: {
            id: company.id,
            name: company.name,
            planId: company.planId,
            status: company.status,
            dueDate: company.dueDate,
            recurrence: company.recurrence,
          },
        };
        const outboxIds = await this.outbox.add(tx, [
          companyUpdated(company, `invoice:${e.invoiceId}`),
          { subject: paymentConfirmedSubject(company.id), msgId: `payment-confirmed:${company.id}:${e.invoiceId}`, payload: payment },
        ]);
        return { outcome: 'renewed' as const, outboxIds, fromDueDate, toDueDate, planId };
      });
      if (result.outcome === 'no-company') {
        this.log.warn({ invoiceId: e.invoiceId, companyId: e.companyId }, 'invoice paid for a company that is gone: nothing renewed');
        return result.outcome;
      }
      if (result.outcome === 'already-applied') return result.outcome;
      await this.outbox.flush(result.outboxIds);
      // the plan gate asks again: the new due date lets the company in, the new plan applies
      await this.epochs.companyChanged(e.companyId);
      this.log.log(
        {
          invoiceId: e.invoiceId,
          companyId: e.companyId,
          fromDueDate: result.fromDueDate,
          toDueDate: result.toDueDate,
          planId: result.planId,
        },
        'invoice paid: company renewed',
      );
      return result.outcome;
    });
  }

  /** The plan chosen at the checkout when auth's copy has it; otherwise the company keeps its own. */
  private async planAfter(tx: EntityManager, company: CompanyEntity, planId: number): Promise<number> {
    if (planId === company.planId) return planId;
    if (await this.plans.find(planId, tx)) return planId;
    this.log.warn({ companyId: company.id, planId }, 'invoice paid for a plan auth does not know: the company keeps its plan');
    return company.planId;
  }
}
