import { Controller, Get, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
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
  @ApiResponse({
    status: 200,
    description: "a page of the company's invoices: { invoices: [{ id, detail, status, value, dueDate, … }], count, hasMore }",
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  all(@CurrentUser() user: AccessTokenClaims, @Query() query: ListInvoicesQueryDto): Promise<InvoicesPage> {
    return this.invoices.page(user, query);
  }

  @SuperOnly()
  @Get('next')
  @ApiResponse({ status: 200, description: "each company's next invoice: [{ companyId, invoiceId, dueDate, value, status, overdue }]" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  next(@Query() query: NextInvoicesQueryDto): Promise<CompanyNextInvoice[]> {
    return this.invoices.next(query.companyIds);
  }
}
