import { TZDate, tz } from '@date-fns/tz';
import { format } from 'date-fns';

/** The company's campaign settings that pace its sends (spec 02 §9), in seconds and counts. */
export interface PaceSettings {
  /** each gap is random in [0, messageInterval) seconds */
  messageInterval: number;
  /** after every this many sends the gap is greaterInterval instead (0: never) */
  longerIntervalAfter: number;
  greaterInterval: number;
}

/** The connection's own limits (PUT /whatsapp/{id}). */
export interface ConnectionLimits {
  /** sends a day (company time zone) across the company's campaigns on the connection; 0: no cap */
  dailyLimit: number;
  /** a new number's cap ramps up over its first four weeks (WARMUP_RAMP) */
  warmup: boolean;
  /** 'HH:MM-HH:MM' on the company's clocks (may pass midnight), '' for any hour */
  hours: string;
  /** since when the number is in use (the warm-up counts its weeks from here) */
  since: number;
}

export interface PaceState {
  /** when the connection's previous campaign send left for its lane (ms), null for none yet */
  lastAt: number | null;
  /** sends of the connection's current run (the longer interval counts them) */
  sentInRun: number;
  /** sends per day (YYYY-MM-DD on the company's clocks) so far */
  sentByDay: Readonly<Record<string, number>>;
}

export interface SlotInput {
  now: number;
  state: PaceState;
  settings: PaceSettings;
  limits: ConnectionLimits;
  /** the platform's floor between two sends (CAMPAIGN_MIN_GAP_MS) */
  floorMs: number;
  timeZone: string;
  /** [0, 1): Math.random, or a seeded one in tests */
  random: () => number;
}

export interface Slot {
  /** when the next send may leave (ms) */
  at: number;
  /** what moved it past the gap: a full day ('cap') or the sending hours ('window') */
  heldBy: 'cap' | 'window' | null;
}

/** A warm-up number's cap per day in its first weeks (week 1: 20 a day, week 2: 50, week 3: 100, week 4: 200), then its own cap only. */
export const WARMUP_RAMP = [20, 50, 100, 200] as const;

const DAY_MS = 24 * 3600_000;
const HOURS = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;

/** The gap before the next send: random in [0, messageInterval) s, greaterInterval after every longerIntervalAfter sends, never under the floor. */
export function gapMs(settings: PaceSettings, sentInRun: number, floorMs: number, random: () => number): number {
  const longer = settings.longerIntervalAfter > 0 && sentInRun > 0 && sentInRun % settings.longerIntervalAfter === 0;
  const gap = longer ? settings.greaterInterval * 1000 : Math.floor(random() * settings.messageInterval * 1000);
  return Math.max(gap, floorMs);
}

/** The day's cap of the connection on `day` (Infinity: none). */
export function dailyCap(limits: ConnectionLimits, day: string, timeZone: string): number {
  let cap = limits.dailyLimit > 0 ? limits.dailyLimit : Infinity;
  if (limits.warmup) {
    const ageDays = Math.floor((dayStart(day, timeZone) - dayStart(dayOf(limits.since, timeZone), timeZone)) / DAY_MS);
    const week = Math.floor(Math.max(0, ageDays) / 7);
    if (week < WARMUP_RAMP.length) cap = Math.min(cap, WARMUP_RAMP[week] as number);
  }
  return cap;
}

/** The sending hours as minutes of the day, or null for any hour (an unreadable value counts as any hour). */
export function sendingHours(hours: string): { start: number; end: number } | null {
  const m = HOURS.exec(hours.trim());
  if (!m) return null;
  const start = Number(m[1]) * 60 + Number(m[2]);
  const end = Number(m[3]) * 60 + Number(m[4]);
  return start === end ? null : { start, end };
}

/**
 * When the connection's next campaign send may leave: the gap after the previous one (gapMs), then the next
 * moment that is inside the sending hours and on a day whose cap is not reached. The first send of a
 * connection leaves at once.
 */
export function nextSlot(input: SlotInput): Slot {
  const { now, state, settings, limits, floorMs, timeZone, random } = input;
  let at = state.lastAt === null ? now : Math.max(now, state.lastAt + gapMs(settings, state.sentInRun, floorMs, random));
  let heldBy: Slot['heldBy'] = null;
  const window = sendingHours(limits.hours);
  // each round moves `at` to a later day or into the window; a year of full days ends it
  for (let round = 0; round < 800; round++) {
    const day = dayOf(at, timeZone);
    if ((state.sentByDay[day] ?? 0) >= dailyCap(limits, day, timeZone)) {
      at = dayStart(nextDay(day), timeZone);
      heldBy = 'cap';
      continue;
    }
    if (window) {
      const minute = minuteOf(at, timeZone);
      const inside =
        window.start < window.end ? minute >= window.start && minute < window.end : minute >= window.start || minute < window.end;
      if (!inside) {
        // the next opening: today's when it is still ahead, else tomorrow's
        const opening =
          minute < window.start ? at + (window.start - minute) * 60_000 : dayStart(nextDay(day), timeZone) + window.start * 60_000;
        at = Math.floor(opening / 60_000) * 60_000;
        heldBy = heldBy ?? 'window';
        continue;
      }
    }
    return { at, heldBy };
  }
  return { at, heldBy };
}

/** The day (YYYY-MM-DD) on the company's clocks at `at`. */
export function dayOf(at: number, timeZone: string): string {
  return format(at, 'yyyy-MM-dd', { in: tz(timeZone) });
}

function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

function dayStart(day: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new TZDate(y, m - 1, d, timeZone).getTime();
}

function minuteOf(at: number, timeZone: string): number {
  const t = new TZDate(at, timeZone);
  return t.getHours() * 60 + t.getMinutes();
}
