import { TZDate, tz } from '@date-fns/tz';
import { addDays, format, getHours, parseISO } from 'date-fns';

/**
 * Dates as a company lives them: "today", due dates and hours are read in the company's time zone (its
 * `timezone` setting), never in the server's or in UTC. A Brazilian company's due date lasts until
 * midnight in São Paulo, not until 21:00 there (midnight UTC).
 */
export const TIME_ZONE_SETTING = 'timezone';
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/** An IANA time zone this runtime knows (America/Sao_Paulo, UTC, Europe/Lisbon…). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The zone to use: the setting when it is a known zone, otherwise the default. */
export function companyTimeZone(setting: string | null | undefined): string {
  return setting && isTimeZone(setting) ? setting : DEFAULT_TIME_ZONE;
}

/** The calendar day (YYYY-MM-DD) it is in `timeZone` at `now`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return format(now, 'yyyy-MM-dd', { in: tz(timeZone) });
}

/** The calendar day `days` after today in `timeZone` (YYYY-MM-DD). */
export function daysFromToday(days: number, timeZone: string = DEFAULT_TIME_ZONE, now: Date = new Date()): string {
  return format(addDays(now, days, { in: tz(timeZone) }), 'yyyy-MM-dd');
}

/** The hour (0–23) on the clocks of `timeZone` at `now`. */
export function hourIn(timeZone: string, now: Date = new Date()): number {
  return getHours(now, { in: tz(timeZone) });
}

/** DD/MM/YYYY of a YYYY-MM-DD date (the product's texts). */
export function brDate(isoDate: string): string {
  return format(parseISO(isoDate.slice(0, 10)), 'dd/MM/yyyy');
}

/** The instant a calendar day (YYYY-MM-DD) begins on the clocks of `timeZone`. */
export function startOfDayIn(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, timeZone).getTime());
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * An instant a user typed: an ISO time with its offset (`2026-11-24T15:00:00.000Z`) as it is, or a time
 * without one (`2026-11-24T15:00`, what a datetime-local field sends) read on the company's clocks.
 * Null when it is neither, or not a real date (31 February).
 */
export function instantIn(value: string, timeZone: string): Date | null {
  const local = LOCAL_TIME.exec(value);
  if (local) {
    const [, y, mo, d, h, mi, s] = local.map(Number) as number[];
    const at = new TZDate(
      y as number,
      (mo as number) - 1,
      d as number,
      h as number,
      mi as number,
      Number.isNaN(s) ? 0 : (s as number),
      timeZone,
    );
    // 31/02 rolls over to March in Date: a day that does not exist is refused
    if (at.getDate() !== d || at.getMonth() !== (mo as number) - 1) return null;
    return new Date(at.getTime());
  }
  if (!ZONED_TIME.test(value)) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}
