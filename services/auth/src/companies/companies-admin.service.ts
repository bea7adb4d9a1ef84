import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { directoryRemoveEvent, TokenRevocation } from '@wa/auth';
import {
  Subjects,
  type AccessTokenClaims,
  type CompaniesPage,
  type CompanyDeletedEvent,
  type CompanyDto,
  type SettingUpdatedEvent,
  type UserDeletedEvent,
} from '@wa/contracts';
import { deleteCompanyRows } from '@wa/database';
import { DomainError } from '@wa/server-kit';
import { daysFromToday, DEFAULT_TIME_ZONE } from '@wa/domain';
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { createCompanyWithAdmin, DEFAULT_SETTINGS } from '../database/companies.js';
import type { CompanyEntity, PlanEntity } from '../database/entities/index.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';
import { PasswordResetsRepository } from '../password-reset/password-resets.repository.js';
import { PlanEpochs } from '../plans/plan-epochs.js';
import { PlansRepository } from '../plans/plans.repository.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import { SettingsRepository } from '../settings/settings.repository.js';
import { companyView } from '../users/user-view.js';
import { UsersRepository } from '../users/users.repository.js';
import { userChanged } from '../users/users.service.js';
import type { CreateCompanyDto, ListCompaniesQuery, UpdateCompanyDto } from './companies.dto.js';
import { CompaniesRepository } from './companies.repository.js';
import { companyCreated, companyUpdated } from './company-events.js';

export const COMPANIES_PAGE_SIZE = 20;
/** `/companies/list` answers at most this many (the selects of the provider's screens). */
const COMPANIES_LISTED = 1000;

const settingEvent = (companyId: number, key: string, value: string, at: string, tag: string): OutgoingEvent => {
  const e: SettingUpdatedEvent = { companyId, key, value, at };
  return { subject: Subjects.settingUpdated(companyId, key), msgId: `setting:${companyId}:${key}:${tag}`, payload: e };
};

/**
 * The platform's companies as super users run them (spec 02 settings tab Empresas): list, create, edit. A new
 * company gets its first admin (the company's email), the default settings and, through `company.created`, its
 * default queue (tickets) and connection defaults. Disabling one signs its users out at once and keeps them out.
 */
@Injectable()
export class CompaniesAdminService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly companies: CompaniesRepository,
    private readonly users: UsersRepository,
    private readonly settings: SettingsRepository,
    private readonly sessions: SessionsRepository,
    private readonly resets: PasswordResetsRepository,
    private readonly plans: PlansRepository,
    private readonly outbox: Outbox,
    private readonly revocation: TokenRevocation,
    private readonly epochs: PlanEpochs,
  ) {}

  async page(query: ListCompaniesQuery): Promise<CompaniesPage> {
    const pageNumber = query.pageNumber ?? 1;
    const { rows, count } = await this.companies.page(query.searchParam?.trim(), pageNumber, COMPANIES_PAGE_SIZE);
    return { companies: await this.views(this.db.manager, rows), count, hasMore: pageNumber * COMPANIES_PAGE_SIZE < count };
  }

  async list(): Promise<CompanyDto[]> {
    const rows = await this.companies.list(COMPANIES_LISTED);
    return this.views(this.db.manager, rows);
  }

  async create(dto: CreateCompanyDto): Promise<CompanyDto> {
    const email = dto.email.trim().toLowerCase();
    const plan = await this.plan(this.db.manager, dto.planId);
    if (await this.users.emailTaken(email)) throw new DomainError('ERR_EMAIL_ALREADY_EXISTS');
    const dueDate = dto.dueDate ?? daysFromToday(Math.max(plan.trialDays, 0), DEFAULT_TIME_ZONE);
    const { view, outboxIds } = await this.db.transaction(async (tx) => {
      await this.assertFreeName(tx, dto.name);
      const password = dto.password ?? randomBytes(24).toString('base64url');
      const { company, admin } = await createCompanyWithAdmin(tx, {
        name: dto.name.trim(),
        dueDate,
        planId: plan.id,
        admin: { name: dto.name.trim(), email, password },
      });
      await this.companies.update(tx, company.id, {
        email,
        phone: dto.phone?.trim() || null,
        status: dto.status ?? true,
        recurrence: dto.recurrence ?? 'MENSAL',
      });
      const campaigns = String(dto.campaignsEnabled ?? true);
      await this.settings.update(tx, company.id, 'campaignsEnabled', campaigns);
      const at = new Date().toISOString();
      const row = await this.find(tx, company.id);
      const events: OutgoingEvent[] = [
        companyCreated(row, at),
        ...Object.entries({ ...DEFAULT_SETTINGS, campaignsEnabled: campaigns }).map(([key, value]) =>
          settingEvent(company.id, key, value, at, 'initial'),
        ),
        ...userChanged('created', admin),
      ];
      return { view: await this.view(tx, row), outboxIds: await this.outbox.add(tx, [...events, companyUpdated(row)]) };
    });
    await this.outbox.flush(outboxIds);
    return view;
  }

  async update(id: number, dto: UpdateCompanyDto): Promise<CompanyDto> {
    if (dto.planId !== undefined) await this.plan(this.db.manager, dto.planId);
    const { view, outboxIds, ended } = await this.db.transaction(async (tx) => {
      const company = await this.find(tx, id, true);
      if (dto.name !== undefined) await this.assertFreeName(tx, dto.name, id);
      const before = company.status;
      Object.assign(company, {
        ...(dto.name !== undefined ? { name: dto.name.trim() } : {}),
        ...(dto.email !== undefined ? { email: dto.email.trim().toLowerCase() } : {}),
        ...(dto.phone !== undefined ? { phone: dto.phone.trim() || null } : {}),
        ...(dto.planId !== undefined ? { planId: dto.planId } : {}),
        ...(dto.status !== undefined ? { status: dto.status } : {}),
        ...(dto.dueDate !== undefined ? { dueDate: dto.dueDate } : {}),
        ...(dto.recurrence !== undefined ? { recurrence: dto.recurrence } : {}),
      });
      await this.companies.save(tx, company);
      const events = [companyUpdated(company)];
      if (dto.campaignsEnabled !== undefined) {
        const value = String(dto.campaignsEnabled);
        await this.settings.upsert(tx, id, 'campaignsEnabled', value);
        events.push(settingEvent(id, 'campaignsEnabled', value, new Date().toISOString(), String(Date.now())));
      }
      // disabled: every session of its users ends (no refresh either); sign-ins are refused from now on
      const ended = before && !company.status ? await this.sessions.lockActiveOfCompany(tx, id) : [];
      if (ended.length > 0) await this.sessions.end(tx, ended, 'company_disabled');
      return { view: await this.view(tx, company), outboxIds: await this.outbox.add(tx, events), ended };
    });
    await this.outbox.flush(outboxIds);
    // the plan gate asks again; their access tokens are refused at once, everywhere
    await this.epochs.companyChanged(id);
    await this.revocation.revokeSessions(ended);
    return view;
  }

  /**
   * Deletes a company: its users, sessions, settings and the company itself here, at once (their tokens are
   * refused from the next request), then `company.deleted` has every other service delete what it keeps of
   * it (tickets: conversations, contacts, queues, files…; whatsapp-sessions: its connections, ended). A
   * company with a super user (the provider's own) or the caller's own is not deleted.
   */
  async remove(caller: AccessTokenClaims, id: number): Promise<void> {
    if (id === caller.companyId) throw new DomainError('ERR_NO_PERMISSION', {}, 'The company you are signed in to cannot be deleted.');
    const { users, sessions, outboxIds } = await this.db.transaction(async (tx) => {
      await this.find(tx, id, true);
      const users = await this.users.membersOf(tx, id);
      if (users.some((u) => u.super)) throw new DomainError('ERR_NO_PERMISSION', {}, 'The provider’s company cannot be deleted.');
      const sessions = await this.sessions.ofCompany(tx, id);
      const userIds = users.map((u) => u.id);
      if (userIds.length > 0) {
        await this.sessions.deleteRefreshTokensOfCompany(tx, id);
        await this.resets.deleteOfUsers(tx, userIds);
      }
      await deleteCompanyRows(tx, 'auth', id);
      await this.companies.delete(tx, id);
      const at = new Date().toISOString();
      const deleted: CompanyDeletedEvent = { companyId: id, at };
      const events: OutgoingEvent[] = [
        ...userIds.flatMap((userId): OutgoingEvent[] => {
          const e: UserDeletedEvent = { companyId: id, userId, at };
          return [
            directoryRemoveEvent(id, userId),
            { subject: Subjects.userDeleted(id, userId), msgId: `user-deleted:${userId}`, payload: e },
          ];
        }),
        { subject: Subjects.companyDeleted(id), msgId: `company-deleted:${id}`, payload: deleted },
      ];
      return { users: userIds, sessions, outboxIds: await this.outbox.add(tx, events) };
    });
    await this.outbox.flushAndWait(outboxIds);
    await this.epochs.companyChanged(id);
    await Promise.all([...users.map((u) => this.revocation.revokeUser(u)), this.revocation.revokeSessions(sessions)]);
  }

  private async plan(manager: EntityManager, planId: number): Promise<PlanEntity> {
    const plan = await this.plans.find(planId, manager);
    if (!plan)
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'planId', messages: ['plan not found'] }] }, 'planId: plan not found');
    return plan;
  }

  private async find(manager: EntityManager, id: number, lock = false): Promise<CompanyEntity> {
    const company = await this.companies.find(manager, id, lock);
    if (!company) throw new DomainError('ERR_NOT_FOUND');
    return company;
  }

  /** Company names are unique whatever their case (the spec's save-failure text names this case). */
  private async assertFreeName(tx: EntityManager, name: string, exceptId?: number): Promise<void> {
    if (await this.companies.nameTaken(tx, name.trim(), exceptId))
      throw new DomainError(
        'ERR_VALIDATION',
        { details: [{ field: 'name', messages: ['A company with this name already exists'] }] },
        'A company with this name already exists',
      );
  }

  private async view(manager: EntityManager, company: CompanyEntity): Promise<CompanyDto> {
    return (await this.views(manager, [company]))[0] as CompanyDto;
  }

  private async views(manager: EntityManager, rows: CompanyEntity[]): Promise<CompanyDto[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [plans, settings] = await Promise.all([
      this.plans.findMany(manager, [...new Set(rows.map((r) => r.planId))]),
      this.settings.ofCompanies(manager, ids),
    ]);
    const planOf = new Map(plans.map((p) => [p.id, p]));
    return rows.map((r) =>
      companyView(
        r,
        planOf.get(r.planId) as PlanEntity,
        settings.filter((s) => s.companyId === r.id),
      ),
    );
  }
}
