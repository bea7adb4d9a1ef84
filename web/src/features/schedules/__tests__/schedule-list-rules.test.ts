import { describe, expect, it } from '@jest/globals';
import { aSchedule } from '../../../test/fixtures';
import {
  inRange,
  matchesSearch,
  removeSchedule,
  toEvent,
  upsertSchedule,
  visibleRange,
  type ScheduleListArgs,
} from '../schedule-list-rules';

/** a time on this machine's clock, as the calendar lays it out */
const at = (...parts: [number, number, number, number?, number?]) =>
  new Date(parts[0], parts[1], parts[2], parts[3] ?? 0, parts[4] ?? 0).toISOString();

describe('the calendar range (what GET /schedules?from&to is asked for)', () => {
  it("a month is its whole weeks, from the locale's first weekday", () => {
    // November 2026: Sunday the 1st to Monday the 30th
    expect(visibleRange(new Date(2026, 10, 18), 'month', 0)).toEqual({ from: at(2026, 10, 1), to: at(2026, 11, 6) });
    expect(visibleRange(new Date(2026, 10, 18), 'month', 1)).toEqual({ from: at(2026, 9, 26), to: at(2026, 11, 7) });
  });

  it("a week, a day, and the agenda's 30 days", () => {
    expect(visibleRange(new Date(2026, 10, 25, 13), 'week', 0)).toEqual({ from: at(2026, 10, 22), to: at(2026, 10, 29) });
    expect(visibleRange(new Date(2026, 10, 25, 13), 'day')).toEqual({ from: at(2026, 10, 25), to: at(2026, 10, 26) });
    expect(visibleRange(new Date(2026, 10, 25, 13), 'agenda')).toEqual({ from: at(2026, 10, 25), to: at(2026, 11, 26) });
  });

  it('holds [from, to)', () => {
    const range = { from: at(2026, 10, 1), to: at(2026, 11, 6) };
    expect(inRange(at(2026, 10, 1), range)).toBe(true);
    expect(inRange(at(2026, 11, 5, 23, 59), range)).toBe(true);
    expect(inRange(at(2026, 11, 6), range)).toBe(false);
  });
});

describe('cached ranges follow changes', () => {
  const args: ScheduleListArgs = { from: at(2026, 10, 1), to: at(2026, 11, 6), searchParam: '' };

  it('searches like the server: contact name or number, or the text', () => {
    const s = aSchedule({ body: 'Lembrete da consulta' });
    expect(matchesSearch(s, '')).toBe(true);
    expect(matchesSearch(s, 'contato 1')).toBe(true);
    expect(matchesSearch(s, '5511999')).toBe(true);
    expect(matchesSearch(s, 'CONSULTA')).toBe(true);
    expect(matchesSearch(s, 'boleto')).toBe(false);
  });

  it('adds in send order, replaces, and drops one moved out of the range or the search', () => {
    const list = [aSchedule({ id: 1, sendAt: at(2026, 10, 3) }), aSchedule({ id: 2, sendAt: at(2026, 10, 20) })];
    expect(upsertSchedule(list, aSchedule({ id: 3, sendAt: at(2026, 10, 10) }), args).map((s) => s.id)).toEqual([1, 3, 2]);
    expect(
      upsertSchedule(list, aSchedule({ id: 1, sendAt: at(2026, 10, 25), status: 'ENVIADA' }), args).map((s) => [s.id, s.status]),
    ).toEqual([
      [2, 'PENDENTE'],
      [1, 'ENVIADA'],
    ]);
    expect(upsertSchedule(list, aSchedule({ id: 2, sendAt: at(2027, 0, 10) }), args).map((s) => s.id)).toEqual([1]);
    expect(upsertSchedule(list, aSchedule({ id: 9, sendAt: at(2027, 0, 10) }), args)).toBe(list);
    expect(
      upsertSchedule(list, aSchedule({ id: 2, sendAt: at(2026, 10, 20) }), { ...args, searchParam: 'boleto' }).map((s) => s.id),
    ).toEqual([1]);
    expect(removeSchedule(list, 1).map((s) => s.id)).toEqual([2]);
    expect(removeSchedule(list, 5)).toBe(list);
  });

  it("an event carries the contact's name and stays within its day", () => {
    const e = toEvent(aSchedule({ sendAt: at(2026, 10, 24, 15) }), 'Contato removido');
    expect([e.title, e.start.toISOString(), e.end.toISOString()]).toEqual(['Contato 1', at(2026, 10, 24, 15), at(2026, 10, 24, 15, 30)]);
    const late = toEvent(aSchedule({ sendAt: at(2026, 10, 24, 23, 50), contact: null }), 'Contato removido');
    expect(late.title).toBe('Contato removido');
    expect(late.end.getDate()).toBe(24);
  });
});
