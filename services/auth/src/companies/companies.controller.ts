import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser, SuperOnly } from '@wa/auth';
import type { AccessTokenClaims, CompaniesPage, CompanyDto, CompanySchedulesRequest, RequestDto } from '@wa/contracts';
import { workingDaysOf, WorkingDaysField, type WorkingDayBody } from '@wa/server-kit';
import { CompaniesAdminService } from './companies-admin.service.js';
import { CompaniesService } from './companies.service.js';
import { CreateCompanyDto, ListCompaniesQuery, UpdateCompanyDto } from './companies.dto.js';

export class CompanySchedulesDto implements RequestDto<CompanySchedulesDto, CompanySchedulesRequest> {
  @WorkingDaysField({ required: true, description: 'the company working hours, a day at most once (used when scheduleType is company)' })
  schedules: WorkingDayBody[];
}

/**
 * The platform's companies as super users run them (CompaniesAdminService), and a company as its admins see it
 * with its working hours (CompaniesService).
 */
@ApiTags('companies')
@Controller('companies')
export class CompaniesController {
  constructor(
    private readonly companies: CompaniesService,
    private readonly admin: CompaniesAdminService,
  ) {}

  /** The platform's companies, a page at a time (super users; settings tab Empresas). */
  @SuperOnly()
  @Get()
  @ApiResponse({
    status: 200,
    description:
      'a page of companies: { companies: [{ id, name, email, phone, status, dueDate, recurrence, planId, plan, settings, createdAt, … }], count, hasMore }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  page(@Query() query: ListCompaniesQuery): Promise<CompaniesPage> {
    return this.admin.page(query);
  }

  /** Every company by name, for the provider's selects (super users). */
  @SuperOnly()
  @Get('list')
  @ApiResponse({
    status: 200,
    description: 'every company: [{ id, name, email, phone, status, dueDate, recurrence, planId, plan, settings, createdAt, … }]',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  list(): Promise<CompanyDto[]> {
    return this.admin.list();
  }

  @SuperOnly()
  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the company created, with its first admin user: { id, name, email, phone, status, dueDate, recurrence, planId, plan, settings, createdAt, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 409, description: "ERR_EMAIL_ALREADY_EXISTS: the admin's email" })
  create(@Body() body: CreateCompanyDto): Promise<CompanyDto> {
    return this.admin.create(body);
  }

  @SuperOnly()
  @Put(':id')
  @ApiResponse({
    status: 200,
    description: 'the company as it is now: { id, name, email, phone, status, dueDate, recurrence, planId, plan, settings, createdAt, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such company' })
  update(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateCompanyDto): Promise<CompanyDto> {
    return this.admin.update(id, body);
  }

  /** Deletes the company everywhere (its users at once; the other services by `company.deleted`). */
  @SuperOnly()
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Company deleted' }" })
  @ApiResponse({ status: 403, description: "ERR_NO_PERMISSION: super users only; not the caller's company nor the provider's" })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such company' })
  async remove(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.admin.remove(caller, id);
    return { message: 'Company deleted' };
  }

  @AdminOnly()
  @Get(':id')
  @ApiResponse({
    status: 200,
    description: 'the company: { id, name, email, phone, status, dueDate, recurrence, planId, plan, settings, createdAt, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only, of this company (or a super user)' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such company' })
  get(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<CompanyDto> {
    return this.companies.get(caller, id);
  }

  @AdminOnly()
  @Put(':id/schedules')
  @ApiResponse({
    status: 200,
    description:
      'the company with its opening hours: { id, name, email, phone, status, dueDate, recurrence, planId, plan, settings, createdAt, … }',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION; ERR_INVALID_TIMEZONE' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only, of this company (or a super user)' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such company' })
  schedules(
    @CurrentUser() caller: AccessTokenClaims,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CompanySchedulesDto,
  ): Promise<CompanyDto> {
    return this.companies.setSchedules(caller, id, workingDaysOf(body.schedules));
  }
}
