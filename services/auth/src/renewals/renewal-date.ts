import { RECURRENCE_MONTHS } from '@wa/contracts';
import { addMonths, format, parseISO } from 'date-fns';

/** Months a renewal adds for a recurrence (spec 02 §4); one for a recurrence it does not know. */
export function recurrenceMonths(recurrence: string): number {
  return Object.hasOwn(RECURRENCE_MONTHS, recurrence) ? (RECURRENCE_MONTHS[recurrence] as number) : 1;
}

/**
 * The due date a paid invoice gives: the later of the current due date and today (both YYYY-MM-DD on the
 * company's calendar), plus the recurrence's months. A day the month does not have is its last one
 * (2026-01-31 + 1 month = 2026-02-28): the calendar, not 30 days.
 */
export function renewedDueDate(dueDate: string, today: string, recurrence: string): string {
  const from = dueDate > today ? dueDate : today;
  return format(addMonths(parseISO(from), recurrenceMonths(recurrence)), 'yyyy-MM-dd');
}
