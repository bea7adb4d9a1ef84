import { describe, expect, it } from '@jest/globals';
import { clockLabel, loadPalette, loadPercent, NO_FILTERS, pageCount, sessionsViewArg } from '../sessions-rules';

describe('the sessions view’s query (GET /platform/sessions)', () => {
  it('sends only the filters set, with the page', () => {
    expect(sessionsViewArg(NO_FILTERS, 1)).toEqual({ pageNumber: 1 });
    expect(sessionsViewArg({ companyId: ' 7 ', replica: 'whatsapp-sessions-2', status: 'TIMEOUT' }, 3)).toEqual({
      companyId: 7,
      replica: 'whatsapp-sessions-2',
      status: 'TIMEOUT',
      pageNumber: 3,
    });
  });

  it('a company id that is not a whole number above 0 is no filter (the server would refuse it)', () => {
    for (const companyId of ['abc', '0', '-3', '1.5', '7a', ''])
      expect(sessionsViewArg({ ...NO_FILTERS, companyId }, 1)).toEqual({ pageNumber: 1 });
  });

  it('counts the pages of 100 connections, at least one', () => {
    expect([0, 1, 100, 101, 250].map(pageCount)).toEqual([1, 1, 1, 2, 3]);
  });
});

describe('a replica’s load', () => {
  it('is its sessions over its capacity in whole percent, at most 100; no capacity with sessions is full', () => {
    expect(loadPercent({ load: 50, capacity: 200 })).toBe(25);
    expect(loadPercent({ load: 1, capacity: 3 })).toBe(33);
    expect(loadPercent({ load: 250, capacity: 200 })).toBe(100);
    expect(loadPercent({ load: 0, capacity: 0 })).toBe(0);
    expect(loadPercent({ load: 2, capacity: 0 })).toBe(100);
  });

  it('turns orange above 80 % and red above 95 %', () => {
    expect([0, 80, 81, 95, 96, 100].map(loadPalette)).toEqual(['teal', 'teal', 'orange', 'orange', 'red', 'red']);
  });
});

describe('clockLabel', () => {
  it('writes a time as HH:mm:ss on this browser’s clock, and nothing for what is not a time', () => {
    const at = new Date(2026, 10, 29, 9, 5, 7);
    expect(clockLabel(at.toISOString())).toBe('09:05:07');
    expect(clockLabel('not a time')).toBe('');
    expect(clockLabel(null)).toBe('');
  });
});
