import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser, SuperOnly } from '@wa/auth';
import type { AccessTokenClaims, CompanyNextInvoice, InvoicesPage } from '@wa/contracts';
import { ListInvoicesQueryDto, NextInvoicesQueryDto } from './invoices.dto.js';
import { InvoicesService } from './invoices.service.js';

/** spec 02 §2 Faturas: the company's invoices; a super user sees every company's. */
@ApiTags('invoices')
@Controller('invoices')
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  /** Admins of the company (spec 02 §1: admins manage invoices and the subscription); super users every company's. */
  @AdminOnly()
  @Get('all')
  all(@CurrentUser() user: AccessTokenClaims, @Query() query: ListInvoicesQueryDto): Promise<InvoicesPage> {
    return this.invoices.page(user, query);
  }

  @SuperOnly()
  @Get('next')
  next(@Query() query: NextInvoicesQueryDto): Promise<CompanyNextInvoice[]> {
    return this.invoices.next(query.companyIds);
  }
}
