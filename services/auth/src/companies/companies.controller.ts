import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { AdminOnly, CurrentUser, SuperOnly } from '@wa/auth';
import { Subjects, type AccessTokenClaims, type CompaniesPage, type CompanyDto, type CompanySchedulesUpdatedEvent } from '@wa/contracts';
import { DomainError, workingDaysOf, WorkingDaysField, type WorkingDayBody } from '@wa/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { CompanyEntity, PlanEntity, SettingEntity } from '../database/entities/index.js';
import { Outbox } from '../outbox/outbox.service.js';
import { companyView } from '../users/user-view.js';
import { CompaniesAdminService } from './companies-admin.service.js';
import { CreateCompanyDto, ListCompaniesQuery, UpdateCompanyDto } from './companies.dto.js';

export class CompanySchedulesDto {
  @WorkingDaysField({ required: true, description: 'the company working hours, a day at most once (used when scheduleType is company)' })
  schedules: WorkingDayBody[];
}

/**
 * A company as its admins see it (GET /companies/{id}) and its working hours (PUT /companies/{id}/schedules,
 * the settings' Horarios tab). An admin reaches only their own company; a super user any.
 */
@ApiTags('companies')
@Controller('companies')
export class CompaniesController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: Outbox,
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
  async get(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<CompanyDto> {
    return this.view(this.db.manager, await this.reachable(this.db.manager, caller, id));
  }

  @AdminOnly()
  @Put(':id/schedules')
  async schedules(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Body() body: CompanySchedulesDto): Promise<CompanyDto> {
    const schedules = workingDaysOf(body.schedules);
    const { dto, outboxIds } = await this.db.transaction(async (tx) => {
      const company = await this.reachable(tx, caller, id, true);
      company.schedules = schedules;
      await tx.getRepository(CompanyEntity).update({ id }, { schedules });
      const event: CompanySchedulesUpdatedEvent = { companyId: id, schedules, at: new Date().toISOString() };
      const outboxIds = await this.outbox.add(tx, [{ subject: Subjects.companySchedulesUpdated(id), msgId: `company-schedules:${id}:${Date.now()}`, payload: event }]);
      return { dto: await this.view(tx, company), outboxIds };
    });
    await this.outbox.flush(outboxIds);
    return dto;
  }

  /** The company, when the caller may see it (its own, or any for a super user); locked for an update. */
  private async reachable(manager: EntityManager, caller: AccessTokenClaims, id: number, lock = false): Promise<CompanyEntity> {
    if (id !== caller.companyId && !caller.super) throw new DomainError('ERR_NO_PERMISSION');
    const company = await manager.getRepository(CompanyEntity).findOne({ where: { id }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
    if (!company) throw new DomainError('ERR_NOT_FOUND');
    return company;
  }

  private async view(manager: EntityManager, company: CompanyEntity): Promise<CompanyDto> {
    const [plan, settings] = await Promise.all([
      manager.getRepository(PlanEntity).findOneByOrFail({ id: company.planId }),
      manager.getRepository(SettingEntity).find({ where: { companyId: company.id }, order: { key: 'ASC' } }),
    ]);
    return companyView(company, plan, settings);
  }
}
