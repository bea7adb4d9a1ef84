import type { DashboardAnswer, DashboardChart, DashboardQuery as DashboardRequestQuery } from '@wa/contracts';

/** spec 01 §2 "Dashboard": the filter is by date (from–to) or by period (the last N days). */
export type FilterType = 'date' | 'period';

/** spec 01 §2: the period choices, in days. */
export const PERIOD_CHOICES = [3, 7, 15, 30, 60, 90] as const;

/** The longest range the server gives figures for, in days. */
export const DASHBOARD_MAX_DAYS = 366;

export interface DashboardFilter {
  type: FilterType;
  /** days; '' while none is chosen */
  period: number | '';
  /** YYYY-MM-DD, as a date field holds it; '' when cleared */
  dateFrom: string;
  dateTo: string;
}

/** `GET /dashboard`'s query: the last N days, or from–to. */
export type DashboardQuery = Required<Pick<DashboardRequestQuery, 'days'>> | Required<Pick<DashboardRequestQuery, 'date_from' | 'date_to'>>;

/** Why a filter is not sent: nothing given ("Parametrize o filtro", spec 01 §5, §8), or too long a range. */
export type FilterProblem = 'empty' | 'tooLong';

export interface DayRange {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day a `YYYY-MM-DD` text names (noon UTC, so day arithmetic ignores clock changes), or null. */
function parseDay(value: string): Date | null {
  const m = DAY.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d, 12));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d ? date : null;
}

export const isDay = (value: string): boolean => parseDay(value) !== null;

/** `day` (YYYY-MM-DD) moved by `n` days (a negative n goes back). */
function shiftDay(day: string, n: number): string {
  const d = parseDay(day);
  if (!d) return day;
  d.setUTCDate(d.getUTCDate() + n);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** How many days from–to covers, both included (0 when they are not days in order). */
export function daysIn(range: DayRange): number {
  const from = parseDay(range.from);
  const to = parseDay(range.to);
  if (!from || !to || from > to) return 0;
  return Math.round((to.getTime() - from.getTime()) / 86_400_000) + 1;
}

/**
 * spec 01 §2: by default from the first day of the current month to today. `today` (YYYY-MM-DD) is the
 * company's, as the server counts its days: a browser whose clock is on another day would otherwise ask
 * for a day the company has not reached, or leave its today out.
 */
export function defaultRange(today: string): DayRange {
  return { from: `${today.slice(0, 8)}01`, to: today };
}

export function defaultFilter(today: string): DashboardFilter {
  const { from, to } = defaultRange(today);
  return { type: 'date', period: '', dateFrom: from, dateTo: to };
}

/** The days a range of dates covers, when it is one: both days valid, in order, and not longer than the server serves. */
function checkRange(range: DayRange): DayRange | FilterProblem {
  if (!range.from && !range.to) return 'empty';
  const n = daysIn(range);
  if (n === 0) return 'empty';
  if (n > DASHBOARD_MAX_DAYS) return 'tooLong';
  return range;
}

/** The query the filter sends, or why it sends none (spec 01 §5: nothing given shows "Parametrize o filtro"). */
export function dashboardQuery(filter: DashboardFilter): { query: DashboardQuery } | { problem: FilterProblem } {
  if (filter.type === 'period') return filter.period ? { query: { days: filter.period } } : { problem: 'empty' };
  const range = checkRange({ from: filter.dateFrom, to: filter.dateTo });
  return typeof range === 'string' ? { problem: range } : { query: { date_from: range.from, date_to: range.to } };
}

/** The days the filter covers (the last N days end `today`, the company's), or null when it is not a filter yet. */
export function filterRange(filter: DashboardFilter, today: string): DayRange | null {
  if (filter.type === 'period') {
    if (!filter.period) return null;
    return { from: shiftDay(today, 1 - filter.period), to: today };
  }
  const range = checkRange({ from: filter.dateFrom, to: filter.dateTo });
  return typeof range === 'string' ? null : range;
}

/** A chart's own range once the user set one; until then the filter's (or the default when the filter has none). */
export function chartRange(own: DayRange | null, filter: DashboardFilter, today: string): DayRange {
  return own ?? filterRange(filter, today) ?? defaultRange(today);
}

/** `GET /dashboard/ticketsUsers` and `/ticketsDay`'s query, or why none is sent. */
export function chartQuery(range: DayRange): { query: { initialDate: string; finalDate: string } } | { problem: FilterProblem } {
  const checked = checkRange(range);
  return typeof checked === 'string' ? { problem: checked } : { query: { initialDate: checked.from, finalDate: checked.to } };
}

/**
 * A time in minutes as the cards and the table show it: "N min" under an hour ("< 1 min" for a few
 * seconds), HH:mm from an hour on (hours go past 24).
 */
export function formatMinutes(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined || !Number.isFinite(minutes) || minutes <= 0) return '0 min';
  const whole = Math.round(minutes);
  if (whole === 0) return '< 1 min';
  if (whole < 60) return `${whole} min`;
  return `${pad(Math.floor(whole / 60))}:${pad(whole % 60)}`;
}

export type CounterKey = keyof DashboardAnswer['counters'];

/** The cards in their order: the provider's two (spec 01 §6: super users only) first, then the company's five. */
export const COUNTER_KEYS: readonly CounterKey[] = [
  'totalWhatsappSessions',
  'totalCompanies',
  'supportHappening',
  'supportPending',
  'supportFinished',
  'avgSupportTime',
  'avgWaitTime',
];

const SUPER_ONLY: ReadonlySet<CounterKey> = new Set<CounterKey>(['totalWhatsappSessions', 'totalCompanies']);
const TIMES: ReadonlySet<CounterKey> = new Set<CounterKey>(['avgSupportTime', 'avgWaitTime']);

export interface CounterCard {
  key: CounterKey;
  value: number;
  /** what the card shows */
  text: string;
}

/** The cards this viewer sees, with their values (a time in minutes formatted). */
export function counterCards(counters: DashboardAnswer['counters'] | undefined, isSuper: boolean): CounterCard[] {
  return COUNTER_KEYS.filter((key) => isSuper || !SUPER_ONLY.has(key)).map((key) => {
    const value = counters?.[key] ?? 0;
    return { key, value, text: TIMES.has(key) ? formatMinutes(value) : String(value) };
  });
}

/** A rating (1 to 3, an average) as three stars: full, half or empty; null when there is none. */
export function ratingStars(rating: number | null | undefined): Array<'full' | 'half' | 'empty'> | null {
  if (rating === null || rating === undefined || !Number.isFinite(rating)) return null;
  const halves = Math.round(Math.min(3, Math.max(0, rating)) * 2);
  return [0, 1, 2].map((i) => (halves >= (i + 1) * 2 ? 'full' : halves === i * 2 + 1 ? 'half' : 'empty'));
}

export interface ChartPoint {
  label: string;
  value: number;
}

/** Tickets per user, most first (`{nome, quantidade}`). */
export function usersChartPoints(chart: DashboardChart | undefined): ChartPoint[] {
  return (chart?.data ?? []).flatMap((d) => ('nome' in d ? [{ label: d.nome, value: d.quantidade }] : []));
}

/** Tickets per day (`{data, total}`, shown DD/MM) or, for a one-day period, per hour (`{horario, total}`, shown HH:00). */
export function daysChartPoints(chart: DashboardChart | undefined): ChartPoint[] {
  return (chart?.data ?? []).flatMap((d) => {
    if ('horario' in d) return [{ label: `${d.horario.padStart(2, '0')}:00`, value: d.total }];
    if ('data' in d) {
      const m = DAY.exec(d.data);
      return [{ label: m ? `${m[3]}/${m[2]}` : d.data, value: d.total }];
    }
    return [];
  });
}
