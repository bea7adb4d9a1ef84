import type { QueueScheduleDto } from '../tickets/tickets.types.js';
export type Profile = 'admin' | 'user' | 'supervisor';
export type AllTicket = 'enabled' | 'desabled';

export interface PlanFlags {
  useCampaigns: boolean;
  useKanban: boolean;
  useOpenAi: boolean;
  useIntegrations: boolean;
  useSchedules: boolean;
  useInternalChat: boolean;
  useExternalApi: boolean;
}

export interface PlanDto extends PlanFlags {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
}

/** A plan as billing (its owner) tells: the sign-up lists the public ones; a new company gets `trialDays` free. */
export interface PublicPlanDto extends PlanDto {
  isPublic: boolean;
  trialDays: number;
}

/** `plan.updated.<planId>` / `plan.deleted.<planId>` on BILLING: auth keeps its copy (login, sign-up) by them. */
export const PlanSubjects = {
  updated: (planId: number) => `plan.updated.${planId}`,
  deleted: (planId: number) => `plan.deleted.${planId}`,
} as const;

export interface PlanChangedEvent {
  plan: PublicPlanDto;
  at: string;
}

export interface PlanDeletedEvent {
  planId: number;
  at: string;
}

/** What a plan counts (0: no limit), checked when one more is created. */
export type PlanLimitResource = 'users' | 'connections' | 'queues';
export type PlanLimits = Record<PlanLimitResource, number>;

/** `company.created.<companyId>` on AUTH: a company was made (sign-up, the provider screen). */
export interface CompanyCreatedEvent {
  companyId: number;
  name: string;
  at: string;
  /** the rest of what billing keeps of a company (absent on events older than billing's copy) */
  planId?: number;
  status?: boolean;
  dueDate?: string;
  email?: string | null;
  recurrence?: string;
}

/** `company.updated.<companyId>` on AUTH: a company's name, plan, status or due date changed (the provider's screen). */
export interface CompanyUpdatedEvent {
  companyId: number;
  name: string;
  planId: number;
  status: boolean;
  dueDate: string;
  at: string;
  /** the billing email and the renewal's recurrence (absent on events older than billing's copy) */
  email?: string | null;
  recurrence?: string;
}

/** `company.deleted.<companyId>` on AUTH: the company is gone; every service deletes what it keeps of it. */
export interface CompanyDeletedEvent {
  companyId: number;
  at: string;
}

/** spec 02 "Help": a help video of the platform. */
export interface HelpDto {
  id: number;
  title: string;
  description: string;
  /** the video's code (a YouTube id) */
  video: string;
  createdAt: string;
  updatedAt: string;
}

export interface HelpsPage {
  helps: HelpDto[];
  count: number;
  hasMore: boolean;
}

/**
 * spec 02 "Announcement": a notice of the platform's super users to every user of every company (the top
 * bar's popover). Priority 1 high, 2 medium, 3 low; an inactive one is seen by super users only.
 */
export interface AnnouncementDto {
  id: number;
  title: string;
  text: string;
  priority: 1 | 2 | 3;
  status: boolean;
  /** the stored image's key, or null */
  mediaPath: string | null;
  /** the image's original name, or null */
  mediaName: string | null;
  /** where a signed-in user reads the image (`/announcements/{id}/media`), or null */
  mediaUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `GET /announcements` (searchParam, pageNumber): newest first; others than super users get the active ones only. */
export interface AnnouncementsPage {
  records: AnnouncementDto[];
  count: number;
  hasMore: boolean;
}

/** `company.announcement.updated.<id>` / `company.announcement.deleted.<id>` on AUTH: to every socket. */
export type AnnouncementEvent = { action: 'update'; announcement: AnnouncementDto } | { action: 'delete'; announcementId: number };

/** `GET /companies` (super users): a page of companies. */
export interface CompaniesPage {
  companies: CompanyDto[];
  count: number;
  hasMore: boolean;
}

export interface SettingDto {
  key: string;
  value: string;
}

export interface CompanyDto {
  id: number;
  name: string;
  /** ISO date (YYYY-MM-DD). */
  dueDate: string;
  status: boolean;
  planId: number;
  email?: string | null;
  phone?: string | null;
  /** how the due date moves on at renewal: MENSAL, BIMESTRAL, TRIMESTRAL, SEMESTRAL, ANUAL */
  recurrence?: string;
  createdAt?: string;
  plan: PlanDto;
  settings: SettingDto[];
  /** the company's working hours (used when its scheduleType setting is company); [] when none were set */
  schedules?: QueueScheduleDto[];
}

/** `PUT /companies/{id}/schedules`: the company's working hours, one entry per day (spec 02 Horarios tab). */
export interface CompanySchedulesRequest {
  schedules: QueueScheduleDto[];
}

/** `company.schedules.updated.<companyId>` on AUTH: the company's working hours changed. */
export interface CompanySchedulesUpdatedEvent {
  companyId: number;
  schedules: QueueScheduleDto[];
  at: string;
}

export interface QueueRefDto {
  id: number;
  /** filled where the caller knows queue names (queues are owned by tickets) */
  name?: string;
  color?: string;
}

export interface UserDto {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  companyId: number;
  whatsappId: number | null;
  allTicket: AllTicket;
  super: boolean;
  online: boolean;
  queues: QueueRefDto[];
  queueIds: number[];
  company?: CompanyDto;
  createdAt: string;
  updatedAt: string;
}

export interface LoginRequest {
  email: string;
  password: string;
  /** for a user who must set their own password (the first super user): the new one, set with this sign-in */
  newPassword?: string;
}

export interface LoginResponse {
  token: string;
  user: UserDto;
}

export interface UsersPage {
  users: UserDto[];
  count: number;
  hasMore: boolean;
}

/** What every access token carries. */
export interface AccessTokenClaims {
  /** user id */
  id: number;
  companyId: number;
  profile: Profile;
  super: boolean;
  /** login session id: a new login of the same user ends older sessions */
  sid: string;
  /** when the token was signed, in ms (iat is in seconds): a revocation "before" this instant spares it */
  iatMs?: number;
  iat?: number;
  exp?: number;
}

/** Names of the refresh cookie and the paths it is scoped to. */
export const REFRESH_COOKIE = 'jrt';
export const REFRESH_COOKIE_PATH = '/auth';

/** May a company use the public messages API now (auth's answer on its internal route). */
export interface CompanyApiAccess {
  companyId: number;
  /** not disabled and not past its due date */
  active: boolean;
  /** the plan's flag */
  useExternalApi: boolean;
  /** every flag of the company's plan (the gateway's plan gate); none when it has no plan */
  plan?: PlanFlags;
  /** the plan's counts (0: no limit); none when it has no plan */
  limits?: PlanLimits;
  /** what `active` is made of, for a copy that must tell when the due date passes (tickets' standings) */
  status?: boolean;
  /** YYYY-MM-DD, the last day the company may work, on its own calendar */
  dueDate?: string;
  planId?: number;
  /** the company's IANA time zone (its `timezone` setting, or the platform's default): campaigns' daily caps and sending hours */
  timeZone?: string;
}
