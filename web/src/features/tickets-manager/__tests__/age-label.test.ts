import { describe, expect, it } from '@jest/globals';
import { ageLabel } from '../age-label';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

describe('ticket age label (spec 01 §2 "Ticket cards")', () => {
  it.each([
    [0, null],
    [2, null],
    [3, 'green'],
    [10, 'green'],
    [11, null],
    [29, null],
    [30, 'orange'],
    [59, 'orange'],
    [60, null],
    [61, 'red'],
    [23 * 60, 'red'],
    [3 * 24 * 60, 'red'],
  ])('%i minutes → %s', (minutes, color) => {
    expect(ageLabel(ago(minutes as number), NOW).color).toBe(color);
  });

  it('counts minutes under an hour, hours under a day, then days', () => {
    expect(ageLabel(ago(45), NOW)).toEqual({ unit: 'minutes', value: 45, color: 'orange' });
    expect(ageLabel(ago(125), NOW)).toEqual({ unit: 'hours', value: 2, color: 'red' });
    expect(ageLabel(ago(23 * 60 + 59), NOW)).toEqual({ unit: 'hours', value: 23, color: 'red' });
    expect(ageLabel(ago(24 * 60), NOW)).toEqual({ unit: 'days', value: 1, color: 'red' });
    expect(ageLabel(ago(50 * 60), NOW)).toEqual({ unit: 'days', value: 2, color: 'red' });
  });

  it('treats a time in the future (clock skew) as now', () => {
    expect(ageLabel(new Date(NOW.getTime() + 60_000), NOW)).toEqual({ unit: 'minutes', value: 0, color: null });
  });
});
