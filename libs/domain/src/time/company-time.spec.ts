import { describe, expect, it } from '@jest/globals';
import { brDate, companyTimeZone, daysFromToday, DEFAULT_TIME_ZONE, hourIn, isTimeZone, startOfDayIn, todayIn } from './company-time.js';

describe('company time', () => {
  // 2026-11-25 01:30 UTC is still the evening of the 24th in São Paulo (UTC-3)
  const lateEvening = new Date('2026-11-25T01:30:00Z');

  it('reads "today" on the company\'s calendar, not UTC\'s', () => {
    expect(todayIn('America/Sao_Paulo', lateEvening)).toBe('2026-11-24');
    expect(todayIn('UTC', lateEvening)).toBe('2026-11-25');
    expect(todayIn('Asia/Tokyo', new Date('2026-11-24T15:30:00Z'))).toBe('2026-11-25');
  });

  it("counts days from the company's today, across month and year ends", () => {
    expect(daysFromToday(1, 'America/Sao_Paulo', lateEvening)).toBe('2026-11-25');
    expect(daysFromToday(7, 'America/Sao_Paulo', new Date('2026-12-28T12:00:00Z'))).toBe('2027-01-04');
    expect(daysFromToday(0, 'UTC', lateEvening)).toBe('2026-11-25');
  });

  it("tells the hour on the company's clocks", () => {
    expect(hourIn('America/Sao_Paulo', lateEvening)).toBe(22);
    expect(hourIn('UTC', lateEvening)).toBe(1);
    expect(hourIn('Asia/Kolkata', lateEvening)).toBe(7); // UTC+5:30
  });

  it('knows IANA zones and falls back to São Paulo for anything else', () => {
    expect(isTimeZone('America/Manaus')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    for (const bad of ['Mars/Olympus', '', 'x'.repeat(80), 'America/Sao Paulo']) expect(isTimeZone(bad)).toBe(false);
    expect(companyTimeZone('Europe/Lisbon')).toBe('Europe/Lisbon');
    expect(companyTimeZone('Mars/Olympus')).toBe(DEFAULT_TIME_ZONE);
    expect(companyTimeZone(undefined)).toBe('America/Sao_Paulo');
  });

  it('writes dates as the product shows them', () => {
    expect(brDate('2026-03-09')).toBe('09/03/2026');
    expect(brDate('2026-12-31T00:00:00.000Z')).toBe('31/12/2026');
  });
});

describe('startOfDayIn', () => {
  it('is midnight on the company clocks, not in UTC', () => {
    expect(startOfDayIn('2026-11-24', 'America/Sao_Paulo').toISOString()).toBe('2026-11-24T03:00:00.000Z');
    expect(startOfDayIn('2026-11-24', 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });
});
