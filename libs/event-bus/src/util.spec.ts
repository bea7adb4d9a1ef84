import { describe, expect, it } from '@jest/globals';
import {
  DEFAULT_BACKOFF_MS,
  backoffDelay,
  dlqSubject,
  fnv1a,
  headerValue,
  laneOf,
  outageDelay,
  positiveInt,
  pullExpiresMs,
} from './util.js';

describe('laneOf', () => {
  it('is stable and in range', () => {
    for (const lanes of [1, 2, 8, 13]) {
      for (let i = 0; i < 200; i++) {
        const key = `wa.inbound.1.${i}.5511999${i}`;
        const l = laneOf(key, lanes);
        expect(l).toBeGreaterThanOrEqual(0);
        expect(l).toBeLessThan(lanes);
        expect(laneOf(key, lanes)).toBe(l);
      }
    }
  });

  it('spreads conversations over the lanes', () => {
    const counts = new Array(8).fill(0);
    for (let i = 0; i < 8000; i++) counts[laneOf(`wa.inbound.7.3.55119${100000 + i}`, 8)]++;
    for (const c of counts) {
      expect(c).toBeGreaterThan(700);
      expect(c).toBeLessThan(1300);
    }
  });

  it('hashes with FNV-1a', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
});

describe('backoffDelay', () => {
  it('follows the schedule and repeats its last value', () => {
    const s = DEFAULT_BACKOFF_MS;
    expect([1, 2, 3, 4, 5, 9].map((a) => backoffDelay(s, a))).toEqual([200, 1000, 5000, 15000, 15000, 15000]);
  });
  it('grows with the default schedule', () => {
    for (let a = 1; a < DEFAULT_BACKOFF_MS.length; a++) {
      expect(backoffDelay(DEFAULT_BACKOFF_MS, a + 1)).toBeGreaterThan(backoffDelay(DEFAULT_BACKOFF_MS, a));
    }
  });
  it('handles empty schedules and odd attempts', () => {
    expect(backoffDelay([], 3)).toBe(0);
    expect(backoffDelay([50], 0)).toBe(50);
    expect(backoffDelay([-5], 1)).toBe(0);
  });
});

describe('helpers', () => {
  it('builds dead-letter subjects', () => {
    expect(dlqSubject('inbound-store', 'wa.inbound.1.2.55')).toBe('dlq.inbound-store.wa.inbound.1.2.55');
  });
  it('makes header-safe values', () => {
    expect(headerValue('a\r\nb\nc')).toBe('a b c');
    expect(headerValue('x'.repeat(2000)).length).toBe(1024);
    expect(headerValue(undefined)).toBe('');
  });
  it('expires pull requests well before ack wait', () => {
    expect(pullExpiresMs(30_000)).toBe(15_000);
    expect(pullExpiresMs(1500)).toBe(1000);
    expect(pullExpiresMs(120_000)).toBe(30_000);
  });
  it('validates positive integers', () => {
    expect(positiveInt(undefined, 8, 'n')).toBe(8);
    expect(positiveInt(3, 8, 'n')).toBe(3);
    expect(() => positiveInt(0, 8, 'n')).toThrow();
    expect(() => positiveInt(1.5, 8, 'n')).toThrow();
  });
});

describe('outageDelay', () => {
  it('doubles from the initial wait up to the cap, with jitter in the upper half', () => {
    const lo = () => 0;
    const hi = () => 1;
    expect([1, 2, 3, 4, 5, 6].map((n) => outageDelay(n, 250, 5000, hi))).toEqual([250, 500, 1000, 2000, 4000, 5000]);
    expect([1, 2, 3, 4, 5, 6].map((n) => outageDelay(n, 250, 5000, lo))).toEqual([125, 250, 500, 1000, 2000, 2500]);
    expect(outageDelay(10_000, 250, 5000, hi)).toBe(5000); // no overflow after a long outage
  });
});
