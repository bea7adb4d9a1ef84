import { Controller, Get, Param, ParseIntPipe, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InternalOnly } from '@wa/auth';
import type { CompanyApiAccess, CompanyBillingCopy } from '@wa/contracts';
import { BILLING_COPY_DEFAULT, BillingCopyQuery } from './company-access.dto.js';
import { CompanyAccessService } from './company-access.service.js';

/**
 * May a company use the public messages API now, and what its plan allows (the gateway's plan gate): active (not disabled, not past its due date on its own
 * calendar) and its plan's useExternalApi. Only other services ask (tickets, which serves that API; billing, which
 * keeps a copy of the companies).
 */
@ApiExcludeController()
@Controller('internal/companies')
export class CompanyAccessController {
  constructor(private readonly service: CompanyAccessService) {}

  /**
   * What billing keeps of each company (plan, due date, recurrence, status, billing email), a page at a time by
   * id: billing fills its copy with it when it starts (companies older than the events, the seed's), then the
   * company events keep it.
   */
  @InternalOnly()
  @Get('billing')
  async billing(@Query() query: BillingCopyQuery): Promise<{ companies: CompanyBillingCopy[] }> {
    return { companies: await this.service.billingCopies(query.afterId ?? 0, query.limit ?? BILLING_COPY_DEFAULT) };
  }

  @InternalOnly()
  @Get(':id/api-access')
  access(@Param('id', ParseIntPipe) id: number): Promise<CompanyApiAccess> {
    return this.service.apiAccess(id);
  }
}

/** How many companies are on a plan: billing refuses to delete a plan in use. */
@ApiExcludeController()
@Controller('internal/plans')
export class PlanUsageController {
  constructor(private readonly service: CompanyAccessService) {}

  @InternalOnly()
  @Get(':id/usage')
  async usage(@Param('id', ParseIntPipe) id: number): Promise<{ planId: number; companies: number }> {
    return { planId: id, companies: await this.service.companiesOn(id) };
  }
}
