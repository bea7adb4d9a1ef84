import { daysFromToday, DEFAULT_TIME_ZONE, TIME_ZONE_SETTING } from '@wa/server-kit';
import argon2 from 'argon2';
import type { EntityManager } from 'typeorm';
import { CompanyEntity, PlanEntity, SettingEntity, UserEntity } from './entities/index.js';

/** Settings every company starts with (spec 02 "Setting" keys). */
export const DEFAULT_SETTINGS: Record<string, string> = {
  userRating: 'disabled',
  scheduleType: 'disabled',
  call: 'enabled',
  CheckMsgIsGroup: 'enabled',
  sendGreetingAccepted: 'disabled',
  sendMsgTransfTicket: 'disabled',
  sendGreetingMessageOneQueues: 'enabled',
  chatBotType: 'text',
  campaignsEnabled: 'true',
  // due dates and "today" are read in it (libs/server-kit company-time)
  [TIME_ZONE_SETTING]: DEFAULT_TIME_ZONE,
};

export interface NewCompany {
  name: string;
  dueDate: string;
  planId: number;
  admin: { name: string; email: string; password: string; super?: boolean; mustChangePassword?: boolean };
}

/** A company with its default settings and first admin, in one transaction. */
export async function createCompanyWithAdmin(tx: EntityManager, input: NewCompany): Promise<{ company: CompanyEntity; admin: UserEntity }> {
  const company = await tx.getRepository(CompanyEntity).save(
    tx.getRepository(CompanyEntity).create({ name: input.name, dueDate: input.dueDate, planId: input.planId, status: true }),
  );
  await tx
    .getRepository(SettingEntity)
    .insert(Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ companyId: company.id, key, value })));
  const admin = await tx.getRepository(UserEntity).save(
    tx.getRepository(UserEntity).create({
      companyId: company.id,
      name: input.admin.name,
      email: input.admin.email.toLowerCase(),
      passwordHash: await argon2.hash(input.admin.password, { type: argon2.argon2id }),
      profile: 'admin',
      super: input.admin.super ?? false,
      mustChangePassword: input.admin.mustChangePassword ?? false,
      allTicket: 'enabled',
      queueIds: [],
    }),
  );
  return { company, admin };
}

/** A plan with every flag on. */
export async function ensureFullPlan(tx: EntityManager, name = 'Plano Completo'): Promise<PlanEntity> {
  const repo = tx.getRepository(PlanEntity);
  const existing = await repo.findOneBy({ name });
  if (existing) return existing;
  return repo.save(repo.create({ name, users: 0, connections: 0, queues: 0, value: 0 }));
}

/** The day `days` after today in the default company time zone (YYYY-MM-DD). */
export function isoDateFromNow(days: number): string {
  return daysFromToday(days, DEFAULT_TIME_ZONE);
}
