import type { QueueScheduleDto } from '@wa/contracts';

/** One day of working hours, as queues and companies keep them (`weekday` is the Portuguese name). */
export type WorkingDay = QueueScheduleDto;
export type WeekdayEn = WorkingDay['weekdayEn'];
export type TimeField = 'startTime' | 'endTime';

/** The week as the product stores it, Sunday first; `weekday` is sent in Portuguese whatever the UI's language. */
export const WEEKDAYS: ReadonlyArray<{ weekdayEn: WeekdayEn; weekday: string }> = [
  { weekdayEn: 'sunday', weekday: 'Domingo' },
  { weekdayEn: 'monday', weekday: 'Segunda-feira' },
  { weekdayEn: 'tuesday', weekday: 'Terça-feira' },
  { weekdayEn: 'wednesday', weekday: 'Quarta-feira' },
  { weekdayEn: 'thursday', weekday: 'Quinta-feira' },
  { weekdayEn: 'friday', weekday: 'Sexta-feira' },
  { weekdayEn: 'saturday', weekday: 'Sábado' },
];

/** A closed day: 00:00 to 00:00 (any day whose start is not before its end is closed). */
export const CLOSED_TIME = '00:00';

/** HH:mm, 00:00 to 23:59 (spec 02 §5: working-hours fields use the ##:## format; the server checks the same). */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

const day = (weekdayEn: WeekdayEn, startTime: string, endTime: string): WorkingDay => ({
  weekdayEn,
  weekday: WEEKDAYS.find((d) => d.weekdayEn === weekdayEn)?.weekday ?? weekdayEn,
  startTime,
  endTime,
});

/** spec 02 §9: Monday to Friday 08:00–18:00, Saturday 08:00–12:00, Sunday closed. */
export function defaultWorkingHours(): WorkingDay[] {
  return WEEKDAYS.map(({ weekdayEn }) => {
    if (weekdayEn === 'sunday') return day(weekdayEn, CLOSED_TIME, CLOSED_TIME);
    if (weekdayEn === 'saturday') return day(weekdayEn, '08:00', '12:00');
    return day(weekdayEn, '08:00', '18:00');
  });
}

/**
 * The seven days to edit, Sunday first, from what a queue or company has saved: a day it has no entry for is
 * closed (as the server reads it). Nothing saved (no hours: always open): `fallback` (the defaults).
 */
export function sevenDaysOf(
  saved: ReadonlyArray<WorkingDay> | null | undefined,
  fallback: WorkingDay[] = defaultWorkingHours(),
): WorkingDay[] {
  if (!saved || saved.length === 0) return fallback.map((d) => ({ ...d }));
  return WEEKDAYS.map(({ weekdayEn }) => {
    const found = saved.find((d) => d.weekdayEn === weekdayEn);
    return day(weekdayEn, found?.startTime ?? CLOSED_TIME, found?.endTime ?? CLOSED_TIME);
  });
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** A day the queue or company does not attend: its start is not before its end (00:00–00:00). */
export function isClosedDay(d: Pick<WorkingDay, 'startTime' | 'endTime'>): boolean {
  if (!TIME_OF_DAY.test(d.startTime) || !TIME_OF_DAY.test(d.endTime)) return false;
  return minutes(d.startTime) >= minutes(d.endTime);
}

/** A time input's value as HH:mm (a browser may add seconds: `08:00:00`). */
export function normalizeTime(value: string): string {
  const v = value.trim();
  return /^\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(v) ? v.slice(0, 5) : v;
}

/** What is wrong with a time (texts under `workingHours.validation`). */
export type WorkingHoursProblem = 'required' | 'time';

/** By the day's place in the week (0 Sunday … 6 Saturday). */
export type WorkingDaysErrors = Partial<Record<number, Partial<Record<TimeField, WorkingHoursProblem>>>>;

/** Each time is required and HH:mm; a start not before its end is allowed (a closed day). */
export function validateWorkingDays(days: ReadonlyArray<WorkingDay>): WorkingDaysErrors {
  const errors: WorkingDaysErrors = {};
  days.forEach((d, i) => {
    for (const field of ['startTime', 'endTime'] as const) {
      const value = normalizeTime(d[field]);
      const problem: WorkingHoursProblem | null = !value ? 'required' : TIME_OF_DAY.test(value) ? null : 'time';
      if (problem) errors[i] = { ...errors[i], [field]: problem };
    }
  });
  return errors;
}

export const hasWorkingDaysErrors = (e: WorkingDaysErrors): boolean => Object.values(e).some((d) => d && Object.values(d).some(Boolean));

/**
 * What `PUT /queue/{id}`, `POST /queue` and `PUT /companies/{id}/schedules` take: the seven days in week order,
 * each once, times HH:mm and the day's Portuguese name (closed days are sent as 00:00–00:00).
 */
export function workingDaysPayload(days: ReadonlyArray<WorkingDay>): WorkingDay[] {
  return WEEKDAYS.map(({ weekdayEn, weekday }) => {
    const d = days.find((x) => x.weekdayEn === weekdayEn);
    return { weekday, weekdayEn, startTime: normalizeTime(d?.startTime ?? CLOSED_TIME), endTime: normalizeTime(d?.endTime ?? CLOSED_TIME) };
  });
}

/** The server's field errors about working hours, by day: for a body sent by `workingDaysPayload` (index = day). */
export interface WorkingHoursServerErrors {
  days: Partial<Record<number, Partial<Record<TimeField, string>>>>;
  /** about the list as a whole ('Dia repetido') or a day's name */
  general?: string;
}

const DAY_FIELD = /^schedules\.(\d+)\.(\w+)$/;

/**
 * Reads `serverFieldErrors(err)` (fields such as `schedules.1.startTime` or `schedules`) for the editor;
 * other fields are left out.
 */
export function workingHoursServerErrors(fieldErrors: Readonly<Record<string, string>>): WorkingHoursServerErrors {
  const out: WorkingHoursServerErrors = { days: {} };
  for (const [field, message] of Object.entries(fieldErrors)) {
    if (!message) continue;
    const m = DAY_FIELD.exec(field);
    if (m && (m[2] === 'startTime' || m[2] === 'endTime')) {
      const i = Number(m[1]);
      out.days[i] = { ...out.days[i], [m[2]]: message };
    } else if (field === 'schedules' || field.startsWith('schedules.')) {
      out.general ??= message;
    }
  }
  return out;
}

/** Whether a server answer's field errors are about the working hours. */
export const hasWorkingHoursServerErrors = (fieldErrors: Readonly<Record<string, string>>): boolean =>
  Object.entries(fieldErrors).some(([field, message]) => !!message && (field === 'schedules' || field.startsWith('schedules.')));
