import { describe, expect, it } from '@jest/globals';
import { recurrenceMonths, renewedDueDate } from './renewal-date.js';

describe('the due date a paid invoice gives', () => {
  it('adds the recurrence’s months (MENSAL 1, BIMESTRAL 2, TRIMESTRAL 3, SEMESTRAL 6, ANUAL 12; unknown 1)', () => {
    const today = '2026-03-01';
    expect(
      ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL', 'QUINZENAL', '', 'constructor'].map((r) =>
        renewedDueDate('2026-03-10', today, r),
      ),
    ).toEqual(['2026-04-10', '2026-05-10', '2026-06-10', '2026-09-10', '2027-03-10', '2026-04-10', '2026-04-10', '2026-04-10']);
    expect(recurrenceMonths('toString')).toBe(1);
  });

  it('counts from today when the due date has passed, from the due date when it is today or later', () => {
    expect(renewedDueDate('2026-01-05', '2026-02-20', 'MENSAL')).toBe('2026-03-20');
    expect(renewedDueDate('2026-02-20', '2026-02-20', 'MENSAL')).toBe('2026-03-20');
    expect(renewedDueDate('2026-02-25', '2026-02-20', 'TRIMESTRAL')).toBe('2026-05-25');
  });

  it('keeps to the calendar: a day the month lacks is its last day', () => {
    expect(renewedDueDate('2026-01-31', '2026-01-10', 'MENSAL')).toBe('2026-02-28');
    expect(renewedDueDate('2028-01-31', '2028-01-10', 'MENSAL')).toBe('2028-02-29');
    expect(renewedDueDate('2026-08-31', '2026-08-01', 'SEMESTRAL')).toBe('2027-02-28');
    expect(renewedDueDate('2026-12-15', '2026-12-01', 'MENSAL')).toBe('2027-01-15');
  });
});
