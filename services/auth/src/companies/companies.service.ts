import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Subjects, type AccessTokenClaims, type CompanyDto, type CompanySchedulesUpdatedEvent } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { type WorkingDay } from '@wa/domain';
import { DataSource, type EntityManager } from 'typeorm';
import type { CompanyEntity } from '../database/entities/index.js';
import { Outbox } from '../outbox/outbox.service.js';
import { PlansRepository } from '../plans/plans.repository.js';
import { SettingsRepository } from '../settings/settings.repository.js';
import { companyView } from '../users/user-view.js';
import { CompaniesRepository } from './companies.repository.js';

/**
 * A company as its admins see it (GET /companies/{id}) and its working hours (PUT /companies/{id}/schedules,
 * the settings' Horarios tab). An admin reaches only their own company; a super user any.
 */
@Injectable()
export class CompaniesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly companies: CompaniesRepository,
    private readonly plans: PlansRepository,
    private readonly settings: SettingsRepository,
    private readonly outbox: Outbox,
  ) {}

  async get(caller: AccessTokenClaims, id: number): Promise<CompanyDto> {
    return this.view(this.db.manager, await this.reachable(this.db.manager, caller, id));
  }

  /** The company's working hours; `company.schedules.updated` tells the services that read them. */
  async setSchedules(caller: AccessTokenClaims, id: number, schedules: WorkingDay[]): Promise<CompanyDto> {
    const { dto, outboxIds } = await this.db.transaction(async (tx) => {
      const company = await this.reachable(tx, caller, id, true);
      company.schedules = schedules;
      await this.companies.setSchedules(tx, id, schedules);
      const event: CompanySchedulesUpdatedEvent = { companyId: id, schedules, at: new Date().toISOString() };
      const outboxIds = await this.outbox.add(tx, [
        { subject: Subjects.companySchedulesUpdated(id), msgId: `company-schedules:${id}:${Date.now()}`, payload: event },
      ]);
      return { dto: await this.view(tx, company), outboxIds };
    });
    await this.outbox.flush(outboxIds);
    return dto;
  }

  /** The company, when the caller may see it (its own, or any for a super user); locked for an update. */
  private async reachable(manager: EntityManager, caller: AccessTokenClaims, id: number, lock = false): Promise<CompanyEntity> {
    if (id !== caller.companyId && !caller.super) throw new DomainError('ERR_NO_PERMISSION');
    const company = await this.companies.find(manager, id, lock);
    if (!company) throw new DomainError('ERR_NOT_FOUND');
    return company;
  }

  private async view(manager: EntityManager, company: CompanyEntity): Promise<CompanyDto> {
    const [plan, settings] = await Promise.all([this.plans.find(company.planId, manager), this.settings.ofCompany(company.id, manager)]);
    if (!plan) throw new Error(`company ${company.id}: plan ${company.planId} not found`);
    return companyView(company, plan, settings);
  }
}
