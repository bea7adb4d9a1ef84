import { describe, expect, it } from '@jest/globals';
import { nextOpening, withinWorkingHours, type WorkingDay } from './working-hours.js';

const week: WorkingDay[] = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
  { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
];

describe('withinWorkingHours', () => {
  it('reads the hours on the company’s clocks, start included, end excluded', () => {
    // Monday 2026-11-23, 08:00 in São Paulo is 11:00 UTC
    expect(withinWorkingHours(week, 'America/Sao_Paulo', new Date('2026-11-23T11:00:00Z'))).toBe(true);
    expect(withinWorkingHours(week, 'America/Sao_Paulo', new Date('2026-11-23T10:59:00Z'))).toBe(false);
    expect(withinWorkingHours(week, 'America/Sao_Paulo', new Date('2026-11-23T20:59:00Z'))).toBe(true);
    expect(withinWorkingHours(week, 'America/Sao_Paulo', new Date('2026-11-23T21:00:00Z'))).toBe(false);
    // the same instant is 12:00 in Lisbon: inside there
    expect(withinWorkingHours(week, 'Europe/Lisbon', new Date('2026-11-23T12:00:00Z'))).toBe(true);
    // Tuesday 02:00 UTC is still Monday 23:00 in São Paulo: closed
    expect(withinWorkingHours(week, 'America/Sao_Paulo', new Date('2026-11-24T02:00:00Z'))).toBe(false);
  });

  it('closes a day set 00:00–00:00 and a day without an entry; no entries at all is always open', () => {
    // Sunday 2026-11-29 noon in São Paulo
    expect(withinWorkingHours(week, 'America/Sao_Paulo', new Date('2026-11-29T15:00:00Z'))).toBe(false);
    // Wednesday has no entry
    expect(withinWorkingHours(week, 'America/Sao_Paulo', new Date('2026-11-25T15:00:00Z'))).toBe(false);
    // Saturday morning open, afternoon closed
    expect(withinWorkingHours(week, 'America/Sao_Paulo', new Date('2026-11-28T13:00:00Z'))).toBe(true);
    expect(withinWorkingHours(week, 'America/Sao_Paulo', new Date('2026-11-28T16:00:00Z'))).toBe(false);
    expect(withinWorkingHours([], 'America/Sao_Paulo', new Date('2026-11-29T15:00:00Z'))).toBe(true);
  });
});

describe('nextOpening', () => {
  it('is the next start ahead on the company’s clocks, skipping closed days', () => {
    // Monday 19:00 in São Paulo (22:00 UTC): next is Tuesday 08:00 there (11:00 UTC)
    expect(nextOpening(week, 'America/Sao_Paulo', new Date('2026-11-23T22:00:00Z'))?.toISOString()).toBe('2026-11-24T11:00:00.000Z');
    // Monday 07:00 there: the same day's start
    expect(nextOpening(week, 'America/Sao_Paulo', new Date('2026-11-23T10:00:00Z'))?.toISOString()).toBe('2026-11-23T11:00:00.000Z');
    // Tuesday evening: Wednesday to Friday have no entry, Saturday 08:00 is next
    expect(nextOpening(week, 'America/Sao_Paulo', new Date('2026-11-24T22:00:00Z'))?.toISOString()).toBe('2026-11-28T11:00:00.000Z');
    // Saturday afternoon: Sunday is 00:00–00:00 (closed), Monday 08:00
    expect(nextOpening(week, 'America/Sao_Paulo', new Date('2026-11-28T16:00:00Z'))?.toISOString()).toBe('2026-11-30T11:00:00.000Z');
  });

  it('is null when no day ever opens', () => {
    expect(nextOpening([], 'America/Sao_Paulo')).toBeNull();
    expect(nextOpening([{ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' }], 'UTC')).toBeNull();
  });
});
