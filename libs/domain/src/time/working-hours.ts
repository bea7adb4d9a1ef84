import { TZDate, tz } from '@date-fns/tz';
import { addDays, format } from 'date-fns';

/** The days of a week, as the product names them in its schedules (`weekdayEn`), Sunday first. */
export const WEEKDAYS_EN = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type WeekdayEn = (typeof WEEKDAYS_EN)[number];

/** One day of working hours (spec 02 "schedules": weekday, weekdayEn, startTime, endTime; times HH:mm). */
export interface WorkingDay {
  weekday: string;
  weekdayEn: WeekdayEn;
  startTime: string;
  endTime: string;
}

/** HH:mm, 00:00 to 23:59. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether `at` falls inside the working hours, on the clocks of `timeZone`: the day's entry open from its
 * start (included) to its end (excluded). A day whose start is not before its end (00:00–00:00), or with no
 * entry, is closed. No entries at all: no hours were set, always open.
 */
export function withinWorkingHours(days: readonly WorkingDay[], timeZone: string, at: Date = new Date()): boolean {
  if (days.length === 0) return true;
  const weekday = WEEKDAYS_EN[Number(format(at, 'i', { in: tz(timeZone) })) % 7] as WeekdayEn;
  const now = minutes(format(at, 'HH:mm', { in: tz(timeZone) }));
  const day = days.find((d) => d.weekdayEn === weekday);
  if (!day || !TIME_OF_DAY.test(day.startTime) || !TIME_OF_DAY.test(day.endTime)) return false;
  return minutes(day.startTime) <= now && now < minutes(day.endTime);
}

/**
 * When the working hours next begin after `at` (on the clocks of `timeZone`): the start of the first open
 * day's entry that lies ahead, looking up to a week on. Null when no day is ever open (or none is set:
 * always open, nothing to wait for). An out-of-hours period lasts until then, which is how "once per period"
 * is kept: a reply sent before that instant is not sent again.
 */
export function nextOpening(days: readonly WorkingDay[], timeZone: string, at: Date = new Date()): Date | null {
  const zone = { in: tz(timeZone) };
  for (let ahead = 0; ahead <= 7; ahead++) {
    const date = addDays(at, ahead, zone);
    const weekday = WEEKDAYS_EN[Number(format(date, 'i', zone)) % 7];
    const day = days.find((d) => d.weekdayEn === weekday);
    if (!day || !TIME_OF_DAY.test(day.startTime) || !TIME_OF_DAY.test(day.endTime) || minutes(day.startTime) >= minutes(day.endTime))
      continue;
    const [y, m, d] = format(date, 'yyyy-MM-dd', zone).split('-').map(Number) as [number, number, number];
    const start = new Date(
      new TZDate(y, m - 1, d, Number(day.startTime.slice(0, 2)), Number(day.startTime.slice(3, 5)), timeZone).getTime(),
    );
    if (start.getTime() > at.getTime()) return start;
  }
  return null;
}
