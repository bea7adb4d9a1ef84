import type { AllTicket, Profile } from './auth.types.js';

/*
 * What auth's and billing's routes take (bodies and query strings). Each service's class-validator DTO implements
 * its type here (`implements RequestDto<TheDto, TheRequest>`), so a field renamed on one side fails the other's
 * typecheck; the rules (lengths, formats, messages) stay in the DTOs.
 */

/** `?searchParam=&pageNumber=`: a page of a list, filtered by a text. */
export interface SearchPageQuery {
  searchParam?: string;
  /** 1 (the default) is the first page */
  pageNumber?: number;
}

/** `POST /auth/signup` (spec 01 §2 /signup): the company's name (also its admin's), email, password, phone, plan. */
export interface SignupRequest {
  name: string;
  email: string;
  password: string;
  phone?: string;
  planId: number;
}

/** `GET /users`. */
export type UsersQuery = SearchPageQuery;

/** `POST /users` (spec 01 §5). */
export interface CreateUserRequest {
  name: string;
  email: string;
  password: string;
  /** default user */
  profile?: Profile;
  allTicket?: AllTicket;
  /** the user's default connection; null: none */
  whatsappId?: number | null;
  queueIds?: number[];
  /** super users only: the user is made in this company */
  companyId?: number;
}

/** `PUT /users/{id}`: any part of a new user but the company, and the password change. */
export interface UpdateUserRequest {
  name?: string;
  email?: string;
  profile?: Profile;
  allTicket?: AllTicket;
  whatsappId?: number | null;
  queueIds?: number[];
  /** empty or left out: the password stays */
  password?: string;
  /** the current password: required to change one's own (not when an admin sets another user's) */
  oldPassword?: string;
}

/** `GET /companies` (super users). */
export type CompaniesQuery = SearchPageQuery;

/** `POST /companies` (super users; spec 02 §3 "Company"): the company and its first admin (signed in with `email`). */
export interface CreateCompanyRequest {
  name: string;
  email: string;
  planId: number;
  phone?: string;
  /** default true */
  status?: boolean;
  /** YYYY-MM-DD; default: today plus the plan's trial days */
  dueDate?: string;
  /** MENSAL (the default), BIMESTRAL, TRIMESTRAL, SEMESTRAL or ANUAL */
  recurrence?: string;
  /** the company setting campaignsEnabled; default true */
  campaignsEnabled?: boolean;
  /** the first admin's password; without it they choose one through "forgot password" */
  password?: string;
}

/** `PUT /companies/{id}` (super users): any part of a new company but the password; status false signs its users out. */
export interface UpdateCompanyRequest {
  name?: string;
  email?: string;
  planId?: number;
  phone?: string;
  status?: boolean;
  dueDate?: string;
  recurrence?: string;
  campaignsEnabled?: boolean;
}

/** `PUT /settings/{key}` (admins): a company setting's new value. */
export interface UpdateSettingRequest {
  value: string;
}

/** `GET /helps`. */
export type HelpsQuery = SearchPageQuery;

/** `POST /helps` (super users; spec 02 "Help"). */
export interface CreateHelpRequest {
  title: string;
  description?: string;
  /** the video's code (a YouTube id) */
  video: string;
}

/** `PUT /helps/{id}` (super users): any part of a help. */
export type UpdateHelpRequest = Partial<CreateHelpRequest>;

/** `GET /announcements`. */
export type AnnouncementsQuery = SearchPageQuery;

/** `POST /announcements` (super users; spec 02 "Announcement"); the image goes apart (`POST /announcements/{id}/media-upload`). */
export interface CreateAnnouncementRequest {
  title: string;
  text: string;
  /** 1 high, 2 medium, 3 low (the default) */
  priority?: 1 | 2 | 3;
  /** default true; an inactive one is seen by super users only */
  status?: boolean;
}

/** `PUT /announcements/{id}` (super users): any part of an announcement. */
export type UpdateAnnouncementRequest = Partial<CreateAnnouncementRequest>;

/** `POST /plans` (billing, super users; spec 02 §3 "Plan"): counts 0 (the default) for no limit, every flag default true. */
export interface CreatePlanRequest {
  name: string;
  users?: number;
  connections?: number;
  queues?: number;
  /** monthly price in BRL (default 0) */
  value?: number;
  useCampaigns?: boolean;
  useSchedules?: boolean;
  useInternalChat?: boolean;
  useExternalApi?: boolean;
  useKanban?: boolean;
  useOpenAi?: boolean;
  useIntegrations?: boolean;
  /** offered at sign-up (default true) */
  isPublic?: boolean;
  /** free days of a company signing up on it (default 7) */
  trialDays?: number;
}

/** `PUT /plans/{id}` (billing, super users): any part of a plan. */
export type UpdatePlanRequest = Partial<CreatePlanRequest>;
