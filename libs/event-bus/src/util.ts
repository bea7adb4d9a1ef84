/** Pure helpers (unit-tested in util.spec.ts). */

export const DEFAULT_BACKOFF_MS = [200, 1000, 5000, 15000] as const;

/** 32-bit FNV-1a hash of a string (UTF-16 code units). */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The lane (0..lanes-1) that handles a conversation key. Same key, same lane. */
export function laneOf(key: string, lanes: number): number {
  return lanes <= 1 ? 0 : fnv1a(key) % lanes;
}

/**
 * Delay before the next attempt after `failedAttempt` (1-based) failed.
 * The schedule's last value repeats; an empty schedule means no delay.
 */
export function backoffDelay(schedule: readonly number[], failedAttempt: number): number {
  if (schedule.length === 0) return 0;
  const i = Math.min(Math.max(failedAttempt, 1), schedule.length) - 1;
  return Math.max(0, schedule[i] ?? 0);
}

/** `dlq.<durable>.<original subject>` */
export function dlqSubject(durable: string, subject: string): string {
  return `dlq.${durable}.${subject}`;
}

/** Header values must not contain CR/LF and should stay small. */
export function headerValue(v: unknown, max = 1024): string {
  const s = String(v ?? '').replace(/[\r\n]+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  try {
    return typeof err === 'string' ? err : JSON.stringify(err);
  } catch {
    return String(err);
  }
}

/** Defaults for ConsumerSpec numbers, validated. */
export function positiveInt(v: number | undefined, dflt: number, name: string): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer, got ${v}`);
  return v;
}

/** Pull request lifetime: half the ack wait, within nats.js' bounds (1 s .. 30 s). */
export function pullExpiresMs(ackWaitMs: number): number {
  return Math.min(30_000, Math.max(1000, Math.floor(ackWaitMs / 2)));
}
