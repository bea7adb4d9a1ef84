import type { SessionEndReason } from '@wa/contracts';
import type { CloseAction } from './providers/provider.js';

export interface BackoffOptions {
  /** the first attempt's delay at most */
  baseMs: number;
  /** no delay is longer than this */
  maxMs: number;
}

/**
 * How long to wait before reconnect attempt `attempt` (1, 2, …) of a dropped session: the ceiling
 * doubles from `baseMs` on each attempt up to `maxMs`, and the delay is drawn between half the ceiling
 * and the ceiling, so that sessions dropped together (a network outage) do not all come back at the
 * same instant. `random` is in [0, 1) (Math.random; tests pass their own).
 */
export function reconnectDelay(attempt: number, { baseMs, maxMs }: BackoffOptions, random: () => number = Math.random): number {
  const step = Math.max(0, Math.min(Math.floor(attempt) - 1, 52)); // past 2^52 the ceiling is capped anyway
  const ceiling = Math.min(maxMs, baseMs * 2 ** step);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(ceiling / 2 + (ceiling / 2) * r);
}

/**
 * WhatsApp's close codes (Baileys' `DisconnectReason`, the status code of the Boom its `lastDisconnect`
 * carries), written out so that the rules below read without Baileys (the sandbox speaks them too).
 */
export const CloseCodes = {
  loggedOut: 401,
  forbidden: 403,
  multideviceMismatch: 411,
  connectionReplaced: 440,
  badSession: 500,
  restartRequired: 515,
} as const;

/** How a session's closes are answered (WhatsappSessionsEnv's BAILEYS_RECONNECT_* and friends). */
export interface ClosePolicy extends BackoffOptions {
  /** attempts backed off from `baseMs` to `maxMs`; past them, one every `slowMs` (with jitter), without end */
  fastTries: number;
  /** the pause between attempts once the fast ones are spent */
  slowMs: number;
  /** 500s (bad session) in a row retried before the pairing is forgotten */
  badSessionTries: number;
  /** a 401 this soon after a 515 whose session reopened is a false logout: restarted, not logged out */
  falseLogoutWindowMs: number;
}

/** What the runner remembers of a session's last closes, between two of them. */
export interface CloseHistory {
  /** when a 515 (restart required) last reopened the session; undefined once a close used it or none came */
  restartAt?: number;
  /** 500s (bad session) since the session was last CONNECTED */
  badSessions: number;
}

export const NO_CLOSES: CloseHistory = Object.freeze({ badSessions: 0 });

/** What one close comes to. */
export interface CloseDecision {
  /** restart: reopen now; retry: reopen after `delayMs`; logged-out / replaced: stop, DISCONNECTED */
  action: CloseAction;
  /** told with the DISCONNECTED event (campaigns pause on `banned` and `logged_out`); only when the session stops */
  reason?: SessionEndReason;
  /** the stored pairing is forgotten (the next start shows a QR code) */
  forgetPairing: boolean;
  /** before reopening; 0 unless `retry` */
  delayMs: number;
  /** the history the next close is decided with */
  next: CloseHistory;
  /** why, for the log */
  why: string;
}

export interface CloseInput {
  /** WhatsApp's close code; undefined for a close without one (a socket error, a start that failed) */
  code: number | undefined;
  history: CloseHistory;
  /** reconnect attempts already made since the session was last CONNECTED (this close's retry is the next one) */
  retries: number;
  now: number;
}

/**
 * The disconnect table (issue 42 §7): what a session does when WhatsApp closes it.
 * - 515 restart required (after pairing, and now and then): reopen at once, remembering when.
 * - 401 logged out: forget the pairing, DISCONNECTED `logged_out`; except a 401 within `falseLogoutWindowMs`
 *   after a 515 that reopened the session, a known false logout: restarted (once per 515), and logged.
 * - 403 forbidden (a ban): stop, pairing forgotten, DISCONNECTED `banned` (its campaigns pause, admins see it).
 * - 440 connection replaced (another client took the session): stop, pairing kept, DISCONNECTED `replaced`.
 * - 500 bad session: retried with back-off `badSessionTries` times in a row; the next one forgets the pairing
 *   (DISCONNECTED `logged_out`).
 * - 411 multi-device mismatch: the pairing cannot work; forgotten, DISCONNECTED `logged_out`.
 * - anything else (408 lost or timed out, 428 closed, 503, none): retry, backing off with jitter from
 *   `baseMs` to `maxMs` for `fastTries` attempts, then every `slowMs` (jittered) for as long as it takes.
 */
export function decideClose(input: CloseInput, policy: ClosePolicy, random: () => number = Math.random): CloseDecision {
  const { code, history, now } = input;
  const stop = (action: 'logged-out' | 'replaced', reason: SessionEndReason, why: string): CloseDecision => ({
    action,
    reason,
    forgetPairing: action === 'logged-out',
    delayMs: 0,
    next: NO_CLOSES,
    why,
  });
  const retry = (next: CloseHistory, why: string): CloseDecision => ({
    action: 'retry',
    forgetPairing: false,
    delayMs: retryDelay(input.retries + 1, policy, random),
    next,
    why,
  });
  // what a 515 left is good for the close right after it only
  const kept: CloseHistory = { badSessions: history.badSessions };
  switch (code) {
    case CloseCodes.restartRequired:
      return {
        action: 'restart',
        forgetPairing: false,
        delayMs: 0,
        next: { badSessions: history.badSessions, restartAt: now },
        why: 'restart required',
      };
    case CloseCodes.loggedOut: {
      const sinceRestart = history.restartAt === undefined ? Infinity : now - history.restartAt;
      if (sinceRestart >= 0 && sinceRestart <= policy.falseLogoutWindowMs) {
        return { action: 'restart', forgetPairing: false, delayMs: 0, next: kept, why: `false logout ${sinceRestart} ms after a restart` };
      }
      return stop('logged-out', 'logged_out', 'logged out');
    }
    case CloseCodes.forbidden:
      return stop('logged-out', 'banned', 'forbidden (banned)');
    case CloseCodes.connectionReplaced:
      return stop('replaced', 'replaced', 'connection replaced');
    case CloseCodes.multideviceMismatch:
      return stop('logged-out', 'logged_out', 'multi-device mismatch');
    case CloseCodes.badSession: {
      const badSessions = history.badSessions + 1;
      if (badSessions > policy.badSessionTries) return stop('logged-out', 'logged_out', `bad session ${badSessions} times in a row`);
      return retry({ badSessions }, `bad session (${badSessions} of ${policy.badSessionTries} retried)`);
    }
    default:
      return retry(kept, code === undefined ? 'closed' : `closed (${code})`);
  }
}

/** Attempt `attempt`'s pause: backed off up to `maxMs` for the fast attempts, then `slowMs` (jittered the same way). */
export function retryDelay(attempt: number, policy: ClosePolicy, random: () => number = Math.random): number {
  if (attempt <= policy.fastTries) return reconnectDelay(attempt, policy, random);
  return reconnectDelay(1, { baseMs: policy.slowMs, maxMs: policy.slowMs }, random);
}
