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
  const s = String(v ?? '')
    .replace(/[\r\n]+/g, ' ')
    .trim();
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

/** Capped exponential back-off with jitter: the n-th wait (1-based) is in [d/2, d], d = min(max, initial·2^(n-1)). */
export function outageDelay(n: number, initialMs: number, maxMs: number, random: () => number = Math.random): number {
  const d = Math.min(maxMs, initialMs * 2 ** Math.min(Math.max(n, 1) - 1, 30));
  return Math.round(d / 2 + (random() * d) / 2);
}

/** An error thrown by a handler to say "this will work later" (an outage), whatever its cause looks like. */
export class TransientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransientError';
  }
}

/** An error thrown by a handler to say "this will never work" (dead-letter it after its attempts). */
export class PoisonError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PoisonError';
  }
}

const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTCONN',
  'ESOCKETTIMEDOUT',
]);
/** NATS client and JetStream codes of an unreachable or restarting server (and of a full stream, see below). */
const TRANSIENT_NATS_CODES = new Set([
  '503',
  '408',
  'TIMEOUT',
  'DISCONNECT',
  'CONNECTION_CLOSED',
  'CONNECTION_REFUSED',
  'CONNECTION_DRAINING',
  'CLOSED',
  'NO_RESPONDERS',
  'REQUEST_TIMEOUT',
]);
/** PostgreSQL SQLSTATEs of an outage, a restart, a failover or a conflict that a retry resolves. */
function transientSqlState(code: string): boolean {
  return (
    code.startsWith('08') || // connection exception
    code === '57P01' || // admin_shutdown
    code === '57P02' || // crash_shutdown
    code === '57P03' || // cannot_connect_now (starting up, recovery)
    code === '57P05' || // idle_session_timeout
    code === '40001' || // serialization_failure
    code === '40P01' || // deadlock_detected
    code === '55P03' || // lock_not_available
    code === '53300' || // too_many_connections
    code === '53400' || // configuration_limit_exceeded
    code === '25006' // read_only_sql_transaction (a standby during failover)
  );
}
const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /connection (?:is )?closed/i,
  /timeout exceeded when trying to connect/i,
  /terminating connection/i,
  /the database system is (?:starting up|shutting down|in recovery mode)/i,
  /client has encountered a connection error/i,
  /connection refused/i,
  /socket hang up/i,
  /max(?:imum)? ?retries ?per ?request/i, // ioredis MaxRetriesPerRequestError
  /stream isn't writeable/i, // ioredis offline, queue disabled
  /redis .*(?:not ready|connect|end|reconnecting)/i,
  /Reached the max retries per request limit/i,
  /publish timed out/i,
  /no responders/i,
  /\bnot connected\b/i,
];

/**
 * True when `err` says a dependency (PostgreSQL, Redis, NATS) is unreachable, restarting or briefly in
 * conflict: a retry later will succeed, so the message must wait, not be dead-lettered. Looks through
 * `cause`, TypeORM's `driverError` and AggregateError's `errors`.
 */
export function isTransientError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return typeof err === 'string' ? TRANSIENT_MESSAGES.some((r) => r.test(err)) : false;
  if (err instanceof PoisonError) return false;
  if (err instanceof TransientError) return true;
  const e = err as {
    code?: unknown;
    message?: unknown;
    name?: unknown;
    cause?: unknown;
    driverError?: unknown;
    errors?: unknown;
    api_error?: { err_code?: number };
  };
  if (typeof e.code === 'string') {
    if (TRANSIENT_NODE_CODES.has(e.code) || TRANSIENT_NATS_CODES.has(e.code)) return true;
    if (/^[0-9A-Z]{5}$/.test(e.code) && transientSqlState(e.code)) return true;
  }
  if (e.api_error?.err_code === 10047 || e.api_error?.err_code === 10023) return true; // JetStream: insufficient resources / storage
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (typeof e.message === 'string' && TRANSIENT_MESSAGES.some((r) => r.test(e.message as string))) return true;
  if (e.driverError && isTransientError(e.driverError, depth + 1)) return true;
  if (e.cause && isTransientError(e.cause, depth + 1)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isTransientError(x, depth + 1))) return true;
  return false;
}
