import { tz } from '@date-fns/tz';
import type { CompanyDto, CreateCompanyRequest, UpdateCompanyRequest } from '@wa/contracts';
import { format, isValid, parseISO } from 'date-fns';
import { errorCode } from '../../app/errors';
import { companyTimeZone, daysUntilDue } from '../../app/expiry';

/** How a company's due date moves on at renewal, and by how many months (spec 02 §4). */
export const RECURRENCE_MONTHS = { MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 } as const;
export type Recurrence = keyof typeof RECURRENCE_MONTHS;
export const RECURRENCES = Object.keys(RECURRENCE_MONTHS) as Recurrence[];
/** spec 02 §4: "Only MENSAL is selectable" (a company already on another one keeps it offered). */
export const SELECTABLE_RECURRENCES: readonly Recurrence[] = ['MENSAL'];
export const DEFAULT_RECURRENCE: Recurrence = 'MENSAL';

export const isRecurrence = (value: unknown): value is Recurrence => typeof value === 'string' && Object.hasOwn(RECURRENCE_MONTHS, value);

/** The recurrences the form offers: the selectable ones, plus the company's own when it is another. */
export function recurrenceChoices(current: string | undefined): Recurrence[] {
  const out = [...SELECTABLE_RECURRENCES];
  if (isRecurrence(current) && !out.includes(current)) out.push(current);
  return out;
}

/** The bounds the server keeps (services/auth companies.dto.ts). */
export const COMPANY_LIMITS = { nameMin: 2, nameMax: 100, emailMax: 200, phoneMax: 50, passwordMin: 5, passwordMax: 50 } as const;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether text is a real calendar day written YYYY-MM-DD. */
export function isIsoDay(text: string): boolean {
  const m = ISO_DAY.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const pad = (n: number, len = 2) => String(n).padStart(len, '0');

/** YYYY-MM-DD plus `months`, the day kept or, past the new month's end, its last day (2026-01-31 + 1 = 2026-02-28). */
export function addMonthsToDay(day: string, months: number): string {
  const m = ISO_DAY.exec(day);
  if (!m) throw new Error(`not a YYYY-MM-DD day: ${day}`);
  const total = Number(m[1]) * 12 + (Number(m[2]) - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(Number(m[3]), daysInMonth(year, month)))}`;
}

/**
 * "Renovar" (spec 02 §4): the next due date, the recurrence's months (MENSAL 1, BIMESTRAL 2, TRIMESTRAL 3,
 * SEMESTRAL 6, ANUAL 12; an unknown one as MENSAL) added to the current due date, or to today when the
 * due date has already passed (or is missing). `today` is YYYY-MM-DD on the company's calendar.
 */
export function renewedDueDate(dueDate: string | null | undefined, recurrence: string | null | undefined, today: string): string {
  const months = RECURRENCE_MONTHS[isRecurrence(recurrence) ? recurrence : DEFAULT_RECURRENCE];
  const current = dueDate?.slice(0, 10) ?? '';
  const from = isIsoDay(current) && current >= today ? current : today;
  return addMonthsToDay(from, months);
}

/**
 * Where a due date stands, `days` from today (negative: overdue): past (overdue), soon (today up to 5 days
 * ahead) or ok; and the row's tint as spec 02 §4 has it: 5 days ahead yellow, from 3 days overdue to 4 days
 * ahead orange, exactly 4 days overdue red, none otherwise.
 */
export type DueState = 'past' | 'soon' | 'ok';
export type DueTone = 'yellow' | 'orange' | 'red';
export const DUE_SOON_DAYS = 5;

export function dueStateOf(days: number | null): DueState {
  if (days === null) return 'ok';
  if (days < 0) return 'past';
  return days <= DUE_SOON_DAYS ? 'soon' : 'ok';
}

export function dueToneOf(days: number | null): DueTone | null {
  if (days === null) return null;
  if (days === 5) return 'yellow';
  if (days >= -3 && days <= 4) return 'orange';
  if (days === -4) return 'red';
  return null;
}

/** A company row's due state and tint, on the company's calendar. */
export function companyDue(
  company: Pick<CompanyDto, 'dueDate' | 'settings'>,
  now: Date = new Date(),
): { days: number | null; state: DueState; tone: DueTone | null } {
  const days = daysUntilDue(company.dueDate, now, companyTimeZone(company));
  return { days, state: dueStateOf(days), tone: dueToneOf(days) };
}

/** A date-time (createdAt) as DD/MM/YYYY on the company's calendar; '' when there is none. */
export function companyDay(isoDateTime: string | null | undefined, company: Pick<CompanyDto, 'settings'>): string {
  if (!isoDateTime) return '';
  const at = parseISO(isoDateTime);
  return isValid(at) ? format(at, 'dd/MM/yyyy', { in: tz(companyTimeZone(company)) }) : isoDateTime;
}

/** The campaignsEnabled setting (spec 02 "Company"): 'true' / 'false', on when missing (the server's default). */
export function campaignsEnabledOf(company: Pick<CompanyDto, 'settings'> | null | undefined): boolean {
  const value = company?.settings?.find((s) => s.key === 'campaignsEnabled')?.value;
  return value !== 'false' && value !== 'disabled';
}

/** The form as typed. */
export interface CompanyFormValues {
  name: string;
  email: string;
  phone: string;
  planId: number | '';
  status: boolean;
  campaignsEnabled: boolean;
  /** YYYY-MM-DD, '' for the server's default (today plus the plan's trial days) when adding */
  dueDate: string;
  recurrence: string;
  /** the first admin's password, only when adding ('' : they use "forgot password") */
  password: string;
}

/** What is wrong with a field (texts under `settings.companies.validation`). */
export type CompanyProblem = 'required' | 'tooShort' | 'tooLong' | 'email' | 'date';
export type CompanyField = 'name' | 'email' | 'phone' | 'planId' | 'dueDate' | 'password';
export type CompanyErrors = Partial<Record<CompanyField, CompanyProblem>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * spec 02 §5 "Company form: email required, plan required"; the name 2–100 (the server's bounds), a valid email,
 * the due date a real day (required once saved: a new company may leave it for the default), the password 5–50 when given.
 */
export function validateCompanyForm(v: CompanyFormValues, creating: boolean): CompanyErrors {
  const errors: CompanyErrors = {};
  const name = v.name.trim();
  if (!name) errors.name = 'required';
  else if (name.length < COMPANY_LIMITS.nameMin) errors.name = 'tooShort';
  else if (name.length > COMPANY_LIMITS.nameMax) errors.name = 'tooLong';
  const email = v.email.trim();
  if (!email) errors.email = 'required';
  else if (email.length > COMPANY_LIMITS.emailMax) errors.email = 'tooLong';
  else if (!EMAIL.test(email)) errors.email = 'email';
  if (v.phone.trim().length > COMPANY_LIMITS.phoneMax) errors.phone = 'tooLong';
  if (v.planId === '') errors.planId = 'required';
  if (!v.dueDate) {
    if (!creating) errors.dueDate = 'required';
  } else if (!isIsoDay(v.dueDate)) errors.dueDate = 'date';
  if (creating && v.password) {
    if (v.password.length < COMPANY_LIMITS.passwordMin) errors.password = 'tooShort';
    else if (v.password.length > COMPANY_LIMITS.passwordMax) errors.password = 'tooLong';
  }
  return errors;
}

export const hasCompanyErrors = (e: CompanyErrors): boolean => Object.values(e).some(Boolean);

/** The bound a tooShort / tooLong problem names. */
export function companyFieldBound(key: CompanyField): { min?: number; max?: number } {
  if (key === 'name') return { min: COMPANY_LIMITS.nameMin, max: COMPANY_LIMITS.nameMax };
  if (key === 'email') return { max: COMPANY_LIMITS.emailMax };
  if (key === 'phone') return { max: COMPANY_LIMITS.phoneMax };
  if (key === 'password') return { min: COMPANY_LIMITS.passwordMin, max: COMPANY_LIMITS.passwordMax };
  return {};
}

/** A new company: active, campaigns on, monthly, the due date left to the server; a saved one as the server has it. */
export function companyFormOf(c: CompanyDto | null): CompanyFormValues {
  if (!c) {
    return {
      name: '',
      email: '',
      phone: '',
      planId: '',
      status: true,
      campaignsEnabled: true,
      dueDate: '',
      recurrence: DEFAULT_RECURRENCE,
      password: '',
    };
  }
  return {
    name: c.name,
    email: c.email ?? '',
    phone: c.phone ?? '',
    planId: c.planId ?? '',
    status: c.status !== false,
    campaignsEnabled: campaignsEnabledOf(c),
    dueDate: c.dueDate?.slice(0, 10) ?? '',
    recurrence: c.recurrence || DEFAULT_RECURRENCE,
    password: '',
  };
}

/** The body of a valid form (validateCompanyForm found nothing): trimmed text, the plan as a number; blanks left out. */
export function companyPayload(v: CompanyFormValues, creating: boolean): CreateCompanyRequest {
  const body: CreateCompanyRequest = {
    name: v.name.trim(),
    email: v.email.trim(),
    planId: Number(v.planId),
    status: v.status,
    recurrence: v.recurrence || DEFAULT_RECURRENCE,
    campaignsEnabled: v.campaignsEnabled,
  };
  const phone = v.phone.trim();
  // an edit sends a cleared phone as '' (the server clears it); a new company leaves it out
  if (phone || !creating) body.phone = phone;
  if (v.dueDate) body.dueDate = v.dueDate;
  if (creating && v.password) body.password = v.password;
  return body;
}

/** What an edit changed (the `PUT /companies/{id}` body): the fields that differ from the saved company. */
export function changedCompanyFields(saved: CompanyDto, body: CreateCompanyRequest): UpdateCompanyRequest {
  const before = companyPayload(companyFormOf(saved), false);
  const out: UpdateCompanyRequest = {};
  for (const key of Object.keys(body) as (keyof CreateCompanyRequest)[]) {
    if (key === 'password') continue;
    if (body[key] !== before[key]) (out as Record<string, unknown>)[key] = body[key];
  }
  return out;
}

/**
 * spec 02 §8: a refused save (a company with that name, an email a user has, fields the server did not take) shows
 * 'Não foi possível realizar a operação. Verifique se já existe uma empresa com o mesmo nome...'; other failures
 * (no network, not allowed) show their own text.
 */
export function isCompanySaveRefusal(err: unknown): boolean {
  const code = errorCode(err);
  if (code === 'ERR_VALIDATION' || code === 'ERR_EMAIL_ALREADY_EXISTS') return true;
  const status = err && typeof err === 'object' && 'status' in err ? (err as { status: unknown }).status : undefined;
  return status === 400 || status === 409 || status === 422;
}
