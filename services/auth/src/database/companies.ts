import { daysFromToday, DEFAULT_TIME_ZONE, TIME_ZONE_SETTING } from '@wa/domain';
import argon2 from 'argon2';
import type { EntityManager } from 'typeorm';
import { insertFullPlan } from '../plans/plans.repository.js';
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
  // integrations (spec 02 §3), empty until an admin fills them in; the tokens are kept encrypted (SettingSecrets)
  ipixc: '',
  tokenixc: '',
  ipmkauth: '',
  clientidmkauth: '',
  clientsecretmkauth: '',
  asaas: '',
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
  const company = await tx
    .getRepository(CompanyEntity)
    .save(tx.getRepository(CompanyEntity).create({ name: input.name, dueDate: input.dueDate, planId: input.planId, status: true }));
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

/** billing's plan 1 (every flag on, no counts): every deployment has it (billing's first migration). */
export const FULL_PLAN_ID = 1;

/** Plan 1 in auth's copy, before billing's event brings it (the seed, a test without billing): same id, same flags. */
export async function ensureFullPlan(tx: EntityManager): Promise<PlanEntity> {
  const repo = tx.getRepository(PlanEntity);
  const existing = await repo.findOneBy({ id: FULL_PLAN_ID });
  if (existing) return existing;
  await insertFullPlan(tx, FULL_PLAN_ID);
  return repo.findOneByOrFail({ id: FULL_PLAN_ID });
}

/** The day `days` after today in the default company time zone (YYYY-MM-DD). */
export function isoDateFromNow(days: number): string {
  return daysFromToday(days, DEFAULT_TIME_ZONE);
}
