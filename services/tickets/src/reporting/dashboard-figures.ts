/**
 * The dashboard's arithmetic, apart from SQL: a day's figures per user, and how a period adds them up.
 * Times are seconds in the figures and minutes (one decimal) in the answers.
 */
export interface UserDayFigures {
  /** tickets the user closed that day */
  finished: number;
  /** closed with an accept time: the sum of (closed − accepted) and how many */
  supportSeconds: number;
  supportCount: number;
  /** accepted from the waiting list that day: the sum of (accepted − queued) and how many */
  accepted: number;
  waitSeconds: number;
  ratingSum: number;
  ratingCount: number;
}

export interface DayFigures {
  /** tickets created that day */
  created: number;
  /** by user id ("0": no user) */
  users: Record<string, UserDayFigures>;
}

export const emptyUserDay = (): UserDayFigures => ({
  finished: 0,
  supportSeconds: 0,
  supportCount: 0,
  accepted: 0,
  waitSeconds: 0,
  ratingSum: 0,
  ratingCount: 0,
});

export function addUserDay(into: UserDayFigures, d: UserDayFigures): UserDayFigures {
  for (const k of Object.keys(into) as Array<keyof UserDayFigures>) into[k] += d[k] ?? 0;
  return into;
}

/** Minutes with one decimal; 0 when nothing was measured. */
export const minutes = (seconds: number, count: number): number => (count > 0 ? Math.round((seconds / count / 60) * 10) / 10 : 0);

/** The period's totals, and each user's. */
export function sumDays(days: DayFigures[]): { created: number; total: UserDayFigures; byUser: Map<number, UserDayFigures> } {
  const total = emptyUserDay();
  const byUser = new Map<number, UserDayFigures>();
  let created = 0;
  for (const day of days) {
    created += day.created;
    for (const [id, f] of Object.entries(day.users)) {
      addUserDay(total, f);
      const userId = Number(id);
      if (userId > 0) byUser.set(userId, addUserDay(byUser.get(userId) ?? emptyUserDay(), f));
    }
  }
  return { created, total, byUser };
}

/** The calendar days from `from` to `to` (YYYY-MM-DD, both included). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end; t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day in YYYY-MM-DD. */
export function isDay(value: string | undefined): value is string {
  if (!value || !DAY.test(value)) return false;
  const t = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === value;
}
