import { dailyCap, dayOf, gapMs, nextSlot, sendingHours, WARMUP_RAMP, type SlotInput } from './pace.js';

const ZONE = 'America/Sao_Paulo';
/** 2026-11-28 10:00 in São Paulo (UTC-3) */
const NOW = Date.parse('2026-11-28T13:00:00Z');

/** A seeded generator (mulberry32): the same gaps every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function input(over: Partial<SlotInput> = {}): SlotInput {
  return {
    now: NOW,
    state: { lastAt: NOW - 1000, sentInRun: 1, sentByDay: {} },
    settings: { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60 },
    limits: { dailyLimit: 0, warmup: false, hours: '', since: NOW - 365 * 86_400_000 },
    floorMs: 5000,
    timeZone: ZONE,
    random: seeded(42),
    ...over,
  };
}

describe('gapMs', () => {
  it('is random in [0, messageInterval) seconds, never under the floor', () => {
    const random = seeded(7);
    const gaps = Array.from({ length: 500 }, () =>
      gapMs({ messageInterval: 20, longerIntervalAfter: 0, greaterInterval: 60 }, 3, 5000, random),
    );
    expect(Math.min(...gaps)).toBe(5000);
    expect(Math.max(...gaps)).toBeLessThan(20_000);
    expect(new Set(gaps).size).toBeGreaterThan(100);
  });

  it('is greaterInterval after every longerIntervalAfter sends', () => {
    const s = { messageInterval: 20, longerIntervalAfter: 5, greaterInterval: 60 };
    expect(gapMs(s, 5, 5000, () => 0.5)).toBe(60_000);
    expect(gapMs(s, 10, 5000, () => 0.5)).toBe(60_000);
    expect(gapMs(s, 6, 5000, () => 0.5)).toBe(10_000);
  });

  it('with every setting 0 is the platform floor, never a burst', () => {
    const zero = { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 };
    expect(gapMs(zero, 1, 5000, Math.random)).toBe(5000);
    expect(gapMs(zero, 1, 0, Math.random)).toBe(0);
    expect(gapMs({ ...zero, longerIntervalAfter: 1 }, 4, 1000, Math.random)).toBe(1000);
  });
});

describe('nextSlot', () => {
  it('sends the first message of a connection at once', () => {
    expect(nextSlot(input({ state: { lastAt: null, sentInRun: 0, sentByDay: {} } }))).toEqual({ at: NOW, heldBy: null });
  });

  it('waits the gap after the previous send, the same for the same seed', () => {
    const a = nextSlot(input({ random: seeded(1) }));
    const b = nextSlot(input({ random: seeded(1) }));
    expect(a).toEqual(b);
    expect(a.at).toBeGreaterThanOrEqual(NOW - 1000 + 5000);
    expect(a.at).toBeLessThan(NOW - 1000 + 20_000);
  });

  it('never answers a time in the past after a long pause', () => {
    expect(nextSlot(input({ state: { lastAt: NOW - 3_600_000, sentInRun: 3, sentByDay: {} } })).at).toBe(NOW);
  });

  it('holds a connection whose day is full until the next day on the company clocks', () => {
    const today = dayOf(NOW, ZONE);
    const slot = nextSlot(
      input({
        limits: { dailyLimit: 100, warmup: false, hours: '', since: 0 },
        state: { lastAt: NOW, sentInRun: 100, sentByDay: { [today]: 100 } },
      }),
    );
    expect(slot.heldBy).toBe('cap');
    // midnight in São Paulo is 03:00 UTC
    expect(new Date(slot.at).toISOString()).toBe('2026-11-29T03:00:00.000Z');
  });

  it('lets a day under its cap go on', () => {
    const today = dayOf(NOW, ZONE);
    const slot = nextSlot(
      input({
        limits: { dailyLimit: 100, warmup: false, hours: '', since: 0 },
        state: { lastAt: NOW - 60_000, sentInRun: 3, sentByDay: { [today]: 99 } },
      }),
    );
    expect(slot).toEqual({ at: NOW, heldBy: null });
  });

  it('ramps a warm-up number: 20 a day in its first week, then 50, 100, 200, then its own cap', () => {
    const since = NOW;
    const at = (days: number) => dayOf(NOW + days * 86_400_000, ZONE);
    const limits = { dailyLimit: 0, warmup: true, hours: '', since };
    expect(dailyCap(limits, at(0), ZONE)).toBe(WARMUP_RAMP[0]);
    expect(dailyCap(limits, at(6), ZONE)).toBe(20);
    expect(dailyCap(limits, at(7), ZONE)).toBe(50);
    expect(dailyCap(limits, at(14), ZONE)).toBe(100);
    expect(dailyCap(limits, at(21), ZONE)).toBe(200);
    expect(dailyCap(limits, at(28), ZONE)).toBe(Infinity);
    expect(dailyCap({ ...limits, dailyLimit: 30 }, at(28), ZONE)).toBe(30);
    expect(dailyCap({ ...limits, dailyLimit: 10 }, at(0), ZONE)).toBe(10);
    const today = dayOf(NOW, ZONE);
    expect(nextSlot(input({ limits, state: { lastAt: NOW, sentInRun: 20, sentByDay: { [today]: 20 } } })).heldBy).toBe('cap');
  });

  it('waits for the sending hours, the same day or the next', () => {
    // 10:00 local, window 14:00-18:00: today 14:00 (17:00 UTC)
    const later = nextSlot(
      input({
        limits: { dailyLimit: 0, warmup: false, hours: '14:00-18:00', since: 0 },
        state: { lastAt: null, sentInRun: 0, sentByDay: {} },
      }),
    );
    expect(later).toEqual({ at: Date.parse('2026-11-28T17:00:00Z'), heldBy: 'window' });
    // window 08:00-09:30: tomorrow 08:00 (11:00 UTC)
    const tomorrow = nextSlot(
      input({
        limits: { dailyLimit: 0, warmup: false, hours: '08:00-09:30', since: 0 },
        state: { lastAt: null, sentInRun: 0, sentByDay: {} },
      }),
    );
    expect(tomorrow).toEqual({ at: Date.parse('2026-11-29T11:00:00Z'), heldBy: 'window' });
    // inside: at once
    expect(
      nextSlot(
        input({
          limits: { dailyLimit: 0, warmup: false, hours: '09:00-11:00', since: 0 },
          state: { lastAt: null, sentInRun: 0, sentByDay: {} },
        }),
      ).heldBy,
    ).toBeNull();
    // a window past midnight (22:00-11:00) holds 10:00
    expect(
      nextSlot(
        input({
          limits: { dailyLimit: 0, warmup: false, hours: '22:00-11:00', since: 0 },
          state: { lastAt: null, sentInRun: 0, sentByDay: {} },
        }),
      ).heldBy,
    ).toBeNull();
  });

  it('combines a full day with the sending hours: the next day at its opening', () => {
    const today = dayOf(NOW, ZONE);
    const slot = nextSlot(
      input({
        limits: { dailyLimit: 5, warmup: false, hours: '08:00-18:00', since: 0 },
        state: { lastAt: NOW, sentInRun: 5, sentByDay: { [today]: 5 } },
      }),
    );
    expect(slot).toEqual({ at: Date.parse('2026-11-29T11:00:00Z'), heldBy: 'cap' });
  });
});

describe('sendingHours', () => {
  it('reads HH:MM-HH:MM and takes anything else as any hour', () => {
    expect(sendingHours('08:00-18:30')).toEqual({ start: 480, end: 1110 });
    expect(sendingHours('')).toBeNull();
    expect(sendingHours('8-18')).toBeNull();
    expect(sendingHours('10:00-10:00')).toBeNull();
  });
});
