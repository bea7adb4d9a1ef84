import { describe, expect, it } from '@jest/globals';
import { reconnectDelay } from './reconnect-backoff.js';

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
