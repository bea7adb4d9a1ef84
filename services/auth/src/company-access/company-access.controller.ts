import { Controller, Get, Param, ParseIntPipe } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { InternalOnly } from '@wa/auth';
import type { CompanyApiAccess, PlanFlags, PlanLimits } from '@wa/contracts';
import { companyTimeZone, DomainError, TIME_ZONE_SETTING, todayIn } from '@wa/server-kit';
import { DataSource } from 'typeorm';
import { CompanyEntity, PlanEntity, SettingEntity } from '../database/entities/index.js';

const PLAN_FLAGS = ['useCampaigns', 'useKanban', 'useOpenAi', 'useIntegrations', 'useSchedules', 'useInternalChat', 'useExternalApi'] as const;

function planFlagsOf(plan: PlanEntity): PlanFlags {
  return Object.fromEntries(PLAN_FLAGS.map((f) => [f, plan[f]])) as unknown as PlanFlags;
}

/**
 * May a company use the public messages API now, and what its plan allows (the gateway's plan gate): active (not disabled, not past its due date on its own
 * calendar) and its plan's useExternalApi. Only other services ask (tickets, which serves that API).
 */
@ApiExcludeController()
@Controller('internal/companies')
export class CompanyAccessController {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @InternalOnly()
  @Get(':id/api-access')
  async access(@Param('id', ParseIntPipe) id: number): Promise<CompanyApiAccess> {
    const company = await this.db.getRepository(CompanyEntity).findOneBy({ id });
    if (!company) throw new DomainError('ERR_NOT_FOUND');
    const plan = await this.db.getRepository(PlanEntity).findOneBy({ id: company.planId });
    const zone = await this.db.getRepository(SettingEntity).findOneBy({ companyId: id, key: TIME_ZONE_SETTING });
    const expired = company.dueDate < todayIn(companyTimeZone(zone?.value));
    return {
      companyId: id,
      active: company.status && !expired,
      useExternalApi: plan?.useExternalApi ?? false,
      ...(plan ? { plan: planFlagsOf(plan), limits: planLimitsOf(plan) } : {}),
      status: company.status,
      dueDate: company.dueDate,
      planId: company.planId,
    };
  }
}

export function planLimitsOf(plan: PlanEntity): PlanLimits {
  return { users: plan.users, connections: plan.connections, queues: plan.queues };
}

/** How many companies are on a plan: billing refuses to delete a plan in use. */
@ApiExcludeController()
@Controller('internal/plans')
export class PlanUsageController {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @InternalOnly()
  @Get(':id/usage')
  async usage(@Param('id', ParseIntPipe) id: number): Promise<{ planId: number; companies: number }> {
    return { planId: id, companies: await this.db.getRepository(CompanyEntity).countBy({ planId: id }) };
  }
}
