/** spec 01 §2 "Ticket cards": the age of the last interaction and its colour, refreshed every 30 s. */
export const AGE_REFRESH_MS = 30_000;

export type AgeColor = 'green' | 'orange' | 'red' | null;

export interface AgeLabel {
  unit: 'minutes' | 'hours' | 'days';
  value: number;
  color: AgeColor;
}

/**
 * green for 3 to 10 minutes, orange for 30 to 59 minutes, red for more than 60 minutes; shown in
 * minutes under an hour, in hours while under 24, in days from 24 hours.
 */
export function ageLabel(since: string | Date, now: Date = new Date()): AgeLabel {
  const ms = Math.max(0, now.getTime() - new Date(since).getTime());
  const minutes = Math.floor(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  let color: AgeColor = null;
  if (minutes >= 3 && minutes <= 10) color = 'green';
  else if (minutes >= 30 && minutes <= 59) color = 'orange';
  else if (minutes > 60) color = 'red';
  if (hours >= 24) return { unit: 'days', value: Math.floor(hours / 24), color };
  if (minutes >= 60) return { unit: 'hours', value: hours, color };
  return { unit: 'minutes', value: minutes, color };
}
