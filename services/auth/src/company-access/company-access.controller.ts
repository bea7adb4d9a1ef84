import { Controller, Get, Param, ParseIntPipe } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InternalOnly } from '@wa/auth';
import type { CompanyApiAccess } from '@wa/contracts';
import { CompanyAccessService } from './company-access.service.js';

/**
 * May a company use the public messages API now, and what its plan allows (the gateway's plan gate): active (not disabled, not past its due date on its own
 * calendar) and its plan's useExternalApi. Only other services ask (tickets, which serves that API).
 */
@ApiExcludeController()
@Controller('internal/companies')
export class CompanyAccessController {
  constructor(private readonly service: CompanyAccessService) {}

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
