import { hiddenSecret } from '../settings/setting-secrets.js';
import type { DirectoryUser } from '@wa/auth';
import type { CompanyDto, PlanDto, UserDto } from '@wa/contracts';
import type { CompanyEntity } from '../database/entities/company.entity.js';
import type { PlanEntity } from '../database/entities/plan.entity.js';
import type { SettingEntity } from '../database/entities/setting.entity.js';
import type { UserEntity } from '../database/entities/user.entity.js';

export function planView(plan: PlanEntity): PlanDto {
  return {
    id: plan.id,
    name: plan.name,
    users: plan.users,
    connections: plan.connections,
    queues: plan.queues,
    value: plan.value,
    useCampaigns: plan.useCampaigns,
    useKanban: plan.useKanban,
    useOpenAi: plan.useOpenAi,
    useIntegrations: plan.useIntegrations,
    useSchedules: plan.useSchedules,
    useInternalChat: plan.useInternalChat,
    useExternalApi: plan.useExternalApi,
  };
}

export function companyView(company: CompanyEntity, plan: PlanEntity, settings: SettingEntity[]): CompanyDto {
  return {
    id: company.id,
    name: company.name,
    dueDate: company.dueDate,
    status: company.status,
    planId: company.planId,
    email: company.email,
    phone: company.phone,
    recurrence: company.recurrence,
    createdAt: company.createdAt instanceof Date ? company.createdAt.toISOString() : company.createdAt,
    plan: planView(plan),
    settings: settings.map((s) => ({ key: s.key, value: hiddenSecret(s.key, s.value) })),
    schedules: company.schedules ?? [],
  };
}

export function userView(user: UserEntity, company?: CompanyDto): UserDto {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    profile: user.profile,
    companyId: user.companyId,
    whatsappId: user.whatsappId,
    allTicket: user.allTicket,
    super: user.super,
    online: user.online,
    queues: user.queueIds.map((id) => ({ id })),
    queueIds: user.queueIds,
    ...(company ? { company } : {}),
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

export function directoryEntry(user: UserEntity): DirectoryUser {
  return {
    id: user.id,
    companyId: user.companyId,
    name: user.name,
    profile: user.profile,
    queueIds: user.queueIds,
    allTicket: user.allTicket,
    super: user.super,
  };
}
