import type { ScheduleDto } from '@wa/contracts';

/** What one cached calendar list holds: the schedules whose sendAt is in [from, to) and match the search. */
export interface ScheduleListArgs {
  /** ISO times */
  from: string;
  to: string;
  searchParam: string;
}

export type CalendarView = 'month' | 'week' | 'day' | 'agenda';

/** How many days the agenda view lists (react-big-calendar's default). */
export const AGENDA_DAYS = 30;

const DAY_MS = 86_400_000;

function startOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
}

/** `days` calendar days later (at the same clock time, whatever the daylight saving does). */
function addDays(d: Date, days: number): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days, d.getHours(), d.getMinutes());
}

function startOfWeek(d: Date, weekStartsOn: number): Date {
  const day = startOfDay(d);
  return addDays(day, -((day.getDay() - weekStartsOn + 7) % 7));
}

/**
 * The times a calendar view shows, as the calendar lays them out: the month's whole weeks, the week, the
 * day, or the agenda's days from the date. [from, to) in this browser's clock, sent as ISO times.
 */
export function visibleRange(date: Date, view: CalendarView, weekStartsOn = 0): { from: string; to: string } {
  let from: Date;
  let to: Date;
  switch (view) {
    case 'month': {
      from = startOfWeek(new Date(date.getFullYear(), date.getMonth(), 1), weekStartsOn);
      const last = new Date(date.getFullYear(), date.getMonth() + 1, 0);
      to = addDays(startOfWeek(last, weekStartsOn), 7);
      break;
    }
    case 'week':
      from = startOfWeek(date, weekStartsOn);
      to = addDays(from, 7);
      break;
    case 'day':
      from = startOfDay(date);
      to = addDays(from, 1);
      break;
    case 'agenda':
      from = startOfDay(date);
      to = addDays(from, AGENDA_DAYS + 1);
      break;
  }
  return { from: from.toISOString(), to: to.toISOString() };
}

export function inRange(sendAt: string, args: Pick<ScheduleListArgs, 'from' | 'to'>): boolean {
  const at = Date.parse(sendAt);
  return at >= Date.parse(args.from) && at < Date.parse(args.to);
}

/** The server's search: the contact's name or number, or the message's text. */
export function matchesSearch(s: Pick<ScheduleDto, 'body' | 'contact'>, searchParam: string): boolean {
  const term = searchParam.trim().toLowerCase();
  if (!term) return true;
  return (
    (s.contact?.name.toLowerCase().includes(term) ?? false) ||
    (s.contact?.number.includes(term) ?? false) ||
    s.body.toLowerCase().includes(term)
  );
}

export const belongsToList = (s: ScheduleDto, args: ScheduleListArgs): boolean =>
  inRange(s.sendAt, args) && matchesSearch(s, args.searchParam);

const bySendAt = (a: ScheduleDto, b: ScheduleDto) => Date.parse(a.sendAt) - Date.parse(b.sendAt) || a.id - b.id;

/** A schedule changed (live or saved here): replaced, added, or dropped when it no longer belongs to the list. */
export function upsertSchedule(list: ScheduleDto[], s: ScheduleDto, args: ScheduleListArgs): ScheduleDto[] {
  const others = list.filter((x) => x.id !== s.id);
  if (!belongsToList(s, args)) return others.length === list.length ? list : others;
  return [...others, s].sort(bySendAt);
}

export function removeSchedule(list: ScheduleDto[], id: number): ScheduleDto[] {
  const others = list.filter((x) => x.id !== id);
  return others.length === list.length ? list : others;
}

/** A calendar event: at its send time, half an hour long (so the week and day views can show it), within its day. */
export interface ScheduleEvent {
  id: number;
  title: string;
  start: Date;
  end: Date;
  schedule: ScheduleDto;
}

export function toEvent(s: ScheduleDto, fallbackTitle: string): ScheduleEvent {
  const start = new Date(s.sendAt);
  const dayEnd = new Date(start.getFullYear(), start.getMonth(), start.getDate(), 23, 59, 59);
  const end = new Date(Math.min(start.getTime() + DAY_MS / 48, dayEnd.getTime()));
  return { id: s.id, title: s.contact?.name || fallbackTitle, start, end, schedule: s };
}
