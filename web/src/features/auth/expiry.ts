/** spec 01 §4 "Session": the warning shows when fewer than 5 days of subscription remain. */
export const EXPIRY_WARNING_DAYS = 5;

function utcDay(isoDate: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
}

/** Whole days from today (local calendar day) to the due date; negative once it has passed. */
export function daysUntilDue(dueDate: string | undefined | null, now: Date = new Date()): number | null {
  if (!dueDate) return null;
  const due = utcDay(dueDate);
  if (due === null) return null;
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  return Math.round((due - today) / 86_400_000);
}

/** The number of days to show in "Sua assinatura vence em N dia(s)", or null when no warning is due. */
export function expiryWarningDays(dueDate: string | undefined | null, now: Date = new Date()): number | null {
  const days = daysUntilDue(dueDate, now);
  return days !== null && days >= 0 && days < EXPIRY_WARNING_DAYS ? days : null;
}

/** YYYY-MM-DD → DD/MM/YYYY (spec 01 §9). */
export function brDate(isoDate: string | undefined | null): string {
  const m = isoDate ? /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate) : null;
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
}
