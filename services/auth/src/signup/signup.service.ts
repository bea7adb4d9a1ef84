import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Subjects, type SettingUpdatedEvent } from '@wa/contracts';
import { isUniqueViolation } from '@wa/database';
import { DomainError, REDIS } from '@wa/server-kit';
import { daysFromToday, DEFAULT_TIME_ZONE } from '@wa/domain';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AuthEnv } from '../config/env.js';
import { addressBucket } from '../sessions/client-address.js';
import { tooMany } from '../sessions/login-limiter.js';
import { DataSource } from 'typeorm';
import { createCompanyWithAdmin, DEFAULT_SETTINGS } from '../database/companies.js';
import { PlansRepository } from '../plans/plans.repository.js';
import { CompaniesRepository } from '../companies/companies.repository.js';
import { companyCreated } from '../companies/company-events.js';
import { SettingsRepository } from '../settings/settings.repository.js';
import { UsersRepository } from '../users/users.repository.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';
import { userChanged } from '../users/users.service.js';
import { USER_CREATION_SETTING } from '../settings/platform-settings.js';
import type { SignupDto } from './signup.dto.js';

/**
 * Sign-up (spec 01 §2 /signup): a new company on a public plan with its trial (the plan's trialDays), its
 * default settings and its admin, in one transaction; then announced (`company.created`: tickets gives it a
 * default queue; the user's directory entry and `user.created`). The new company starts empty: no
 * connection, no contacts; the admin signs in at /login.
 */
@Injectable()
export class SignupService {
  private readonly byIp: RateLimiterRedis;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly companies: CompaniesRepository,
    private readonly users: UsersRepository,
    private readonly settings: SettingsRepository,
    private readonly plans: PlansRepository,
    private readonly outbox: Outbox,
    @Inject(REDIS) redis: Redis,
    env: AuthEnv,
  ) {
    // public and costly (a company, an argon2 hash), and its 409 tells whether an email has an account
    this.byIp = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: 'auth:signup:ip',
      points: env.SIGNUP_MAX_PER_IP,
      duration: env.SIGNUP_WINDOW_S,
      blockDuration: env.SIGNUP_WINDOW_S,
    });
  }

  async signup(dto: SignupDto, ip: string): Promise<{ companyId: number; userId: number; dueDate: string }> {
    try {
      await this.byIp.consume(addressBucket(ip), 1);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooMany(err);
      throw err;
    }
    if (!(await this.open())) throw new DomainError('ERR_USER_CREATION_DISABLED');
    const plan = await this.plans.findPublic(dto.planId);
    if (!plan)
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'planId', messages: ['plan not found'] }] }, 'planId: plan not found');
    const email = dto.email.trim().toLowerCase();
    const taken = await this.users.emailTaken(email);
    if (taken) throw new DomainError('ERR_EMAIL_ALREADY_EXISTS');
    const dueDate = daysFromToday(Math.max(plan.trialDays, 0), DEFAULT_TIME_ZONE);
    try {
      const { company, admin, outboxIds } = await this.db.transaction(async (tx) => {
        const { company, admin } = await createCompanyWithAdmin(tx, {
          name: dto.name.trim(),
          dueDate,
          planId: plan.id,
          admin: { name: dto.name.trim(), email, password: dto.password },
        });
        if (dto.phone?.trim()) await this.companies.setPhone(tx, company.id, dto.phone.trim()).catch(() => undefined);
        // its billing email (receipts) is its admin's, as for a company the provider creates
        await this.companies.update(tx, company.id, { email });
        const at = new Date().toISOString();
        const row = await this.companies.find(tx, company.id);
        const events: OutgoingEvent[] = [
          companyCreated(row ?? company, at),
          ...Object.entries(DEFAULT_SETTINGS).map(([key, value]): OutgoingEvent => {
            const e: SettingUpdatedEvent = { companyId: company.id, key, value, at };
            return { subject: Subjects.settingUpdated(company.id, key), msgId: `setting:${company.id}:${key}:initial`, payload: e };
          }),
          ...userChanged('created', admin),
        ];
        return { company, admin, outboxIds: await this.outbox.add(tx, events) };
      });
      await this.outbox.flush(outboxIds);
      return { companyId: company.id, userId: admin.id, dueDate };
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError('ERR_EMAIL_ALREADY_EXISTS');
      throw err;
    }
  }

  /** Open unless the provider's company (the first super user's) has userCreation "disabled". */
  private async open(): Promise<boolean> {
    const companyId = await this.settings.providerCompanyId();
    if (companyId === undefined) return true;
    return (await this.settings.valueOf(companyId, USER_CREATION_SETTING)) !== 'disabled';
  }
}
