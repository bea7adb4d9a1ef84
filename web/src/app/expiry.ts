import { tz } from '@date-fns/tz';
import { differenceInCalendarDays, format, isValid, parseISO } from 'date-fns';

/** spec 01 §4 "Session": the warning shows when fewer than 5 days of subscription remain. */
export const EXPIRY_WARNING_DAYS = 5;
/** A company's calendar unless its `timezone` setting says otherwise (as the services read it). */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/** The company's time zone: its `timezone` setting when this browser knows the zone, else São Paulo's. */
export function companyTimeZone(company: { settings?: Array<{ key: string; value: string }> } | null | undefined): string {
  const zone = company?.settings?.find((s) => s.key === 'timezone')?.value;
  if (!zone) return DEFAULT_TIME_ZONE;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

/** Today (YYYY-MM-DD) on a company's calendar (its timezone setting, else São Paulo's), as the services count days. */
export function companyToday(
  company: { settings?: Array<{ key: string; value: string }> } | null | undefined,
  now: Date = new Date(),
): string {
  return format(now, 'yyyy-MM-dd', { in: tz(companyTimeZone(company)) });
}

/** Whole days from today on the company's calendar to the due date; negative once it has passed. */
export function daysUntilDue(
  dueDate: string | undefined | null,
  now: Date = new Date(),
  timeZone: string = DEFAULT_TIME_ZONE,
): number | null {
  if (!dueDate || !/^\d{4}-\d{2}-\d{2}/.test(dueDate)) return null;
  const zone = { in: tz(timeZone) };
  const due = parseISO(dueDate.slice(0, 10), zone);
  return isValid(due) ? differenceInCalendarDays(due, now, zone) : null;
}

/** The number of days to show in "Sua assinatura vence em N dia(s)", or null when no warning is due. */
export function expiryWarningDays(
  dueDate: string | undefined | null,
  now: Date = new Date(),
  timeZone: string = DEFAULT_TIME_ZONE,
): number | null {
  const days = daysUntilDue(dueDate, now, timeZone);
  return days !== null && days >= 0 && days < EXPIRY_WARNING_DAYS ? days : null;
}

// YYYY-MM-DD → DD/MM/YYYY (spec 01 §9), without date-fns
export { brDate } from './br-date';
