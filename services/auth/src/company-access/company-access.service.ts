import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { CompanyApiAccess, CompanyBillingCopy, PlanFlags, PlanLimits } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { companyTimeZone, TIME_ZONE_SETTING, todayIn } from '@wa/domain';
import { DataSource } from 'typeorm';
import { CompaniesRepository } from '../companies/companies.repository.js';
import { companyBillingCopy } from '../companies/company-events.js';
import type { PlanEntity } from '../database/entities/index.js';
import { PlansRepository } from '../plans/plans.repository.js';
import { SettingsRepository } from '../settings/settings.repository.js';

const PLAN_FLAGS = [
  'useCampaigns',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
] as const;

function planFlagsOf(plan: PlanEntity): PlanFlags {
  return Object.fromEntries(PLAN_FLAGS.map((f) => [f, plan[f]])) as unknown as PlanFlags;
}

export function planLimitsOf(plan: PlanEntity): PlanLimits {
  return { users: plan.users, connections: plan.connections, queues: plan.queues };
}

/** What other services ask auth of a company (its access and plan) and of a plan (the companies on it). */
@Injectable()
export class CompanyAccessService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly companies: CompaniesRepository,
    private readonly plans: PlansRepository,
    private readonly settings: SettingsRepository,
  ) {}

  /**
   * May a company use the public messages API now, and what its plan allows: active (not disabled, not past its
   * due date on its own calendar) and its plan's useExternalApi.
   */
  async apiAccess(id: number): Promise<CompanyApiAccess> {
    const company = await this.companies.find(this.db.manager, id);
    if (!company) throw new DomainError('ERR_NOT_FOUND');
    const plan = await this.plans.find(company.planId);
    const zone = await this.settings.find(id, TIME_ZONE_SETTING);
    const timeZone = companyTimeZone(zone?.value);
    const expired = company.dueDate < todayIn(timeZone);
    return {
      companyId: id,
      active: company.status && !expired,
      useExternalApi: plan?.useExternalApi ?? false,
      ...(plan ? { plan: planFlagsOf(plan), limits: planLimitsOf(plan) } : {}),
      status: company.status,
      dueDate: company.dueDate,
      planId: company.planId,
      timeZone,
    };
  }

  /** Up to `limit` companies whose id is above `afterId`, by id, as billing keeps them. */
  async billingCopies(afterId: number, limit: number): Promise<CompanyBillingCopy[]> {
    return (await this.companies.after(afterId, limit)).map(companyBillingCopy);
  }

  /** How many companies are on a plan. */
  companiesOn(planId: number): Promise<number> {
    return this.companies.countOnPlan(planId);
  }
}
