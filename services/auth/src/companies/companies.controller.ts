import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
  page(@Query() query: ListCompaniesQuery): Promise<CompaniesPage> {
    return this.admin.page(query);
  }

  /** Every company by name, for the provider's selects (super users). */
  @SuperOnly()
  @Get('list')
  list(): Promise<CompanyDto[]> {
    return this.admin.list();
  }

  @SuperOnly()
  @Post()
  create(@Body() body: CreateCompanyDto): Promise<CompanyDto> {
    return this.admin.create(body);
  }

  @SuperOnly()
  @Put(':id')
  update(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateCompanyDto): Promise<CompanyDto> {
    return this.admin.update(id, body);
  }

  /** Deletes the company everywhere (its users at once; the other services by `company.deleted`). */
  @SuperOnly()
  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.admin.remove(caller, id);
    return { message: 'Company deleted' };
  }

  @AdminOnly()
  @Get(':id')
  get(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<CompanyDto> {
    return this.companies.get(caller, id);
  }

  @AdminOnly()
  @Put(':id/schedules')
  schedules(
    @CurrentUser() caller: AccessTokenClaims,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CompanySchedulesDto,
  ): Promise<CompanyDto> {
    return this.companies.setSchedules(caller, id, workingDaysOf(body.schedules));
  }
}
