import { describe, expect, it } from '@jest/globals';
import { Boom } from '@hapi/boom';
import { DisconnectReason } from '@whiskeysockets/baileys';
import { connectionIntent } from './providers/baileys/mapping.js';
import {
  CloseCodes,
  decideClose,
  NO_CLOSES,
  reconnectDelay,
  type CloseDecision,
  type CloseHistory,
  type ClosePolicy,
} from './reconnect-backoff.js';

const opts = { baseMs: 1000, maxMs: 60_000 };

describe('reconnectDelay', () => {
  it('doubles its ceiling on each attempt, from the base up to the cap', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 8, 50].map((attempt) => reconnectDelay(attempt, opts, () => 0.999_999_9));
    expect(ceilings).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it('draws between half the ceiling and the ceiling (jitter)', () => {
    expect(reconnectDelay(1, opts, () => 0)).toBe(500);
    expect(reconnectDelay(3, opts, () => 0.5)).toBe(3000);
    expect(reconnectDelay(20, opts, () => 0)).toBe(30_000);
    const draws = new Set(Array.from({ length: 200 }, () => reconnectDelay(4, opts)));
    for (const d of draws) {
      expect(d).toBeGreaterThanOrEqual(4000);
      expect(d).toBeLessThanOrEqual(8000);
    }
    expect(draws.size).toBeGreaterThan(1);
  });

  it('stays finite and capped for any attempt number, and never goes below half the base', () => {
    for (const attempt of [0, -3, 1.7, 1023, 1e9, Number.MAX_SAFE_INTEGER]) {
      const d = reconnectDelay(attempt, opts, () => 0.3);
      expect(Number.isFinite(d)).toBe(true);
      expect(d).toBeGreaterThanOrEqual(500);
      expect(d).toBeLessThanOrEqual(60_000);
    }
    expect(reconnectDelay(0, opts, () => 1)).toBe(1000);
    expect(reconnectDelay(1e9, opts, () => 1)).toBe(60_000);
  });

  it('keeps a small base small (a test clock)', () => {
    expect(reconnectDelay(1, { baseMs: 20, maxMs: 80 }, () => 1)).toBe(20);
    expect(reconnectDelay(9, { baseMs: 20, maxMs: 80 }, () => 1)).toBe(80);
  });
});

/** As the runner answers a Baileys close: `connection.update` through the mapping, its code through the table. */
describe('decideClose: the disconnect table', () => {
  const policy: ClosePolicy = {
    baseMs: 1000,
    maxMs: 60_000,
    fastTries: 10,
    slowMs: 300_000,
    badSessionTries: 3,
    falseLogoutWindowMs: 10_000,
  };
  const now = 1_800_000_000_000;
  /** the code of a close as Baileys emits it: `lastDisconnect.error` a Boom with the status code, or a plain error */
  const codeOf = (statusCode?: number): number | undefined => {
    const error = statusCode === undefined ? new Error('socket hang up') : new Boom('Connection Failure', { statusCode });
    const change = connectionIntent({ connection: 'close', lastDisconnect: { error, date: new Date(now) } });
    if (change.kind !== 'close') throw new Error('not a close');
    return change.code;
  };
  const decide = (statusCode: number | undefined, history: CloseHistory = NO_CLOSES, retries = 0, at = now) =>
    decideClose({ code: codeOf(statusCode), history, retries, now: at }, policy, () => 0.999_999_9);

  it('answers every code Baileys closes with', () => {
    const table: Array<[string, number | undefined, Pick<CloseDecision, 'action' | 'reason' | 'forgetPairing' | 'delayMs'>]> = [
      ['restartRequired', DisconnectReason.restartRequired, { action: 'restart', forgetPairing: false, delayMs: 0 }],
      ['loggedOut', DisconnectReason.loggedOut, { action: 'logged-out', reason: 'logged_out', forgetPairing: true, delayMs: 0 }],
      ['forbidden', DisconnectReason.forbidden, { action: 'logged-out', reason: 'banned', forgetPairing: true, delayMs: 0 }],
      [
        'connectionReplaced',
        DisconnectReason.connectionReplaced,
        { action: 'replaced', reason: 'replaced', forgetPairing: false, delayMs: 0 },
      ],
      ['badSession', DisconnectReason.badSession, { action: 'retry', forgetPairing: false, delayMs: 1000 }],
      [
        'multideviceMismatch',
        DisconnectReason.multideviceMismatch,
        { action: 'logged-out', reason: 'logged_out', forgetPairing: true, delayMs: 0 },
      ],
      ['connectionLost / timedOut', DisconnectReason.connectionLost, { action: 'retry', forgetPairing: false, delayMs: 1000 }],
      ['connectionClosed', DisconnectReason.connectionClosed, { action: 'retry', forgetPairing: false, delayMs: 1000 }],
      ['unavailableService', DisconnectReason.unavailableService, { action: 'retry', forgetPairing: false, delayMs: 1000 }],
      ['a stream error of its own (499)', 499, { action: 'retry', forgetPairing: false, delayMs: 1000 }],
      ['no code (a socket error)', undefined, { action: 'retry', forgetPairing: false, delayMs: 1000 }],
    ];
    // the table's codes are Baileys' own
    expect(CloseCodes).toEqual({
      loggedOut: DisconnectReason.loggedOut,
      forbidden: DisconnectReason.forbidden,
      multideviceMismatch: DisconnectReason.multideviceMismatch,
      connectionReplaced: DisconnectReason.connectionReplaced,
      badSession: DisconnectReason.badSession,
      restartRequired: DisconnectReason.restartRequired,
    });
    // every value of Baileys' DisconnectReason has its row
    const codes = new Set(table.map(([, code]) => code));
    const baileysCodes = Object.values(DisconnectReason).filter((v) => typeof v === 'number') as number[];
    expect(baileysCodes.length).toBeGreaterThanOrEqual(10);
    for (const value of baileysCodes) expect({ value, covered: codes.has(value) }).toEqual({ value, covered: true });
    for (const [name, code, expected] of table) {
      const d = decide(code);
      expect({ name, ...d }).toMatchObject({ name, ...expected });
      if (!expected.reason) expect({ name, reason: d.reason }).toEqual({ name, reason: undefined });
    }
  });

  it('restarts a 401 that comes within the window after a 515 (a false logout), once; a lone or late 401 logs out', () => {
    const restarted = decide(DisconnectReason.restartRequired);
    expect(restarted.next).toEqual({ restartAt: now, badSessions: 0 });
    const falseLogout = decide(DisconnectReason.loggedOut, restarted.next, 0, now + 3000);
    expect(falseLogout).toMatchObject({ action: 'restart', forgetPairing: false, delayMs: 0 });
    expect(falseLogout.why).toMatch(/false logout 3000 ms after a restart/);
    // the 515 excused one 401: the next one is a logout
    expect(decide(DisconnectReason.loggedOut, falseLogout.next, 0, now + 4000)).toMatchObject({
      action: 'logged-out',
      reason: 'logged_out',
    });
    // too late after the 515, or with a drop between: a logout
    expect(decide(DisconnectReason.loggedOut, restarted.next, 0, now + 10_001)).toMatchObject({ action: 'logged-out' });
    const dropped = decide(DisconnectReason.connectionLost, restarted.next, 0, now + 1000);
    expect(decide(DisconnectReason.loggedOut, dropped.next, 1, now + 2000)).toMatchObject({ action: 'logged-out' });
    // a 403 or a 440 right after a 515 is no false logout
    expect(decide(DisconnectReason.forbidden, restarted.next, 0, now + 1000)).toMatchObject({ action: 'logged-out', reason: 'banned' });
    expect(decide(DisconnectReason.connectionReplaced, restarted.next, 0, now + 1000)).toMatchObject({ action: 'replaced' });
  });

  it('retries a bad session (500) three times, with back-off, then forgets the pairing', () => {
    let history: CloseHistory = NO_CLOSES;
    const delays: number[] = [];
    for (let retries = 0; retries < 3; retries++) {
      const d = decide(DisconnectReason.badSession, history, retries);
      expect(d).toMatchObject({ action: 'retry', forgetPairing: false });
      delays.push(d.delayMs);
      history = d.next;
    }
    expect(delays).toEqual([1000, 2000, 4000]);
    expect(history.badSessions).toBe(3);
    // other drops between them do not clear the count (the runner clears it on CONNECTED)
    const lost = decide(DisconnectReason.connectionLost, history, 3);
    expect(lost.next.badSessions).toBe(3);
    expect(decide(DisconnectReason.badSession, lost.next, 4)).toMatchObject({
      action: 'logged-out',
      reason: 'logged_out',
      forgetPairing: true,
    });
  });

  it('backs off from 1 s to 60 s with jitter, then tries every few minutes, never giving up', () => {
    const ceilings = Array.from({ length: 14 }, (_, retries) => decide(DisconnectReason.connectionLost, NO_CLOSES, retries).delayMs);
    expect(ceilings).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000, 300_000, 300_000, 300_000, 300_000]);
    const low = decideClose({ code: 428, history: NO_CLOSES, retries: 0, now }, policy, () => 0);
    expect(low.delayMs).toBe(500);
    expect(decideClose({ code: 428, history: NO_CLOSES, retries: 1e6, now }, policy, () => 0)).toMatchObject({
      action: 'retry',
      delayMs: 150_000,
    });
    for (let retries = 0; retries < 200; retries++) {
      const d = decideClose({ code: undefined, history: NO_CLOSES, retries, now }, policy);
      expect(d.action).toBe('retry');
      expect(d.delayMs).toBeGreaterThanOrEqual(500);
      expect(d.delayMs).toBeLessThanOrEqual(retries < 10 ? 60_000 : 300_000);
    }
  });
});
