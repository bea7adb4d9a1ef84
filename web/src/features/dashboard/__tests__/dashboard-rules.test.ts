import { describe, expect, it } from '@jest/globals';
import {
  chartQuery,
  chartRange,
  counterCards,
  daysChartPoints,
  dashboardQuery,
  daysIn,
  defaultFilter,
  defaultRange,
  filterRange,
  formatMinutes,
  PERIOD_CHOICES,
  ratingStars,
  usersChartPoints,
  type DashboardFilter,
} from '../dashboard-rules';

// 24 November 2026 on the company's calendar
const now = '2026-11-24';
const byDate = (dateFrom: string, dateTo: string): DashboardFilter => ({ type: 'date', period: '', dateFrom, dateTo });
const byPeriod = (period: number | ''): DashboardFilter => ({ type: 'period', period, dateFrom: '2026-11-01', dateTo: '2026-11-24' });

describe('dashboard filter (spec 01 §2 "Dashboard", §5)', () => {
  it('starts by date, from the first day of the current month to today', () => {
    expect(defaultRange(now)).toEqual({ from: '2026-11-01', to: '2026-11-24' });
    expect(defaultFilter(now)).toEqual({ type: 'date', period: '', dateFrom: '2026-11-01', dateTo: '2026-11-24' });
    expect(defaultRange('2027-01-01')).toEqual({ from: '2027-01-01', to: '2027-01-01' });
  });

  it('offers the last 3, 7, 15, 30, 60 and 90 days', () => {
    expect(PERIOD_CHOICES).toEqual([3, 7, 15, 30, 60, 90]);
  });

  it('sends days for a period, date_from and date_to for dates', () => {
    expect(dashboardQuery(byPeriod(7))).toEqual({ query: { days: 7 } });
    expect(dashboardQuery(byDate('2026-11-01', '2026-11-24'))).toEqual({ query: { date_from: '2026-11-01', date_to: '2026-11-24' } });
    expect(dashboardQuery(byDate('2026-11-24', '2026-11-24'))).toEqual({ query: { date_from: '2026-11-24', date_to: '2026-11-24' } });
  });

  it('sends nothing for an empty filter ("Parametrize o filtro"): no period chosen, dates cleared, a date missing, wrong or out of order', () => {
    expect(dashboardQuery(byPeriod(''))).toEqual({ problem: 'empty' });
    expect(dashboardQuery(byDate('', ''))).toEqual({ problem: 'empty' });
    expect(dashboardQuery(byDate('2026-11-01', ''))).toEqual({ problem: 'empty' });
    expect(dashboardQuery(byDate('', '2026-11-24'))).toEqual({ problem: 'empty' });
    expect(dashboardQuery(byDate('2026-02-31', '2026-03-02'))).toEqual({ problem: 'empty' });
    expect(dashboardQuery(byDate('2026-11-24', '2026-11-01'))).toEqual({ problem: 'empty' });
  });

  it('refuses more than the 366 days the server serves', () => {
    expect(daysIn({ from: '2025-01-01', to: '2025-12-31' })).toBe(365);
    expect(dashboardQuery(byDate('2024-01-01', '2024-12-31'))).toEqual({ query: { date_from: '2024-01-01', date_to: '2024-12-31' } });
    expect(dashboardQuery(byDate('2024-01-01', '2025-01-01'))).toEqual({ problem: 'tooLong' });
  });

  it('a filter covers days: the last N end today', () => {
    expect(filterRange(byPeriod(7), now)).toEqual({ from: '2026-11-18', to: '2026-11-24' });
    expect(filterRange(byPeriod(30), now)).toEqual({ from: '2026-10-26', to: '2026-11-24' });
    expect(filterRange(byDate('2026-10-01', '2026-10-31'), now)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(filterRange(byPeriod(''), now)).toBeNull();
    // across a month's and a year's end, and a leap day
    expect(filterRange(byPeriod(3), '2027-01-01')).toEqual({ from: '2026-12-30', to: '2027-01-01' });
    expect(filterRange(byPeriod(3), '2028-03-01')).toEqual({ from: '2028-02-28', to: '2028-03-01' });
  });
});

describe('dashboard charts ranges', () => {
  it('follow the filter until given their own; with no filter, the month so far', () => {
    expect(chartRange(null, byPeriod(3), now)).toEqual({ from: '2026-11-22', to: '2026-11-24' });
    expect(chartRange({ from: '2026-06-01', to: '2026-06-30' }, byPeriod(3), now)).toEqual({ from: '2026-06-01', to: '2026-06-30' });
    expect(chartRange(null, byPeriod(''), now)).toEqual({ from: '2026-11-01', to: '2026-11-24' });
  });

  it('send initialDate and finalDate, or nothing for an unusable range', () => {
    expect(chartQuery({ from: '2026-11-01', to: '2026-11-24' })).toEqual({ query: { initialDate: '2026-11-01', finalDate: '2026-11-24' } });
    expect(chartQuery({ from: '', to: '' })).toEqual({ problem: 'empty' });
    expect(chartQuery({ from: '2026-11-24', to: '2026-11-01' })).toEqual({ problem: 'empty' });
  });

  it('name the points: users by name, days as DD/MM, a single day by hour', () => {
    expect(
      usersChartPoints({
        data: [
          { nome: 'Ana', quantidade: 4 },
          { nome: 'Bia', quantidade: 1 },
        ],
        count: 5,
      }),
    ).toEqual([
      { label: 'Ana', value: 4 },
      { label: 'Bia', value: 1 },
    ]);
    expect(
      daysChartPoints({
        data: [
          { data: '2026-11-23', total: 2 },
          { data: '2026-11-24', total: 0 },
        ],
        count: 2,
      }),
    ).toEqual([
      { label: '23/11', value: 2 },
      { label: '24/11', value: 0 },
    ]);
    expect(
      daysChartPoints({
        data: [
          { horario: '09', total: 3 },
          { horario: '14', total: 1 },
        ],
        count: 4,
      }),
    ).toEqual([
      { label: '09:00', value: 3 },
      { label: '14:00', value: 1 },
    ]);
    expect(usersChartPoints(undefined)).toEqual([]);
  });
});

describe('dashboard figures', () => {
  it('shows times in minutes as "N min" under an hour and HH:mm from an hour on', () => {
    expect(formatMinutes(0)).toBe('0 min');
    expect(formatMinutes(0.3)).toBe('< 1 min');
    expect(formatMinutes(1)).toBe('1 min');
    expect(formatMinutes(12.4)).toBe('12 min');
    expect(formatMinutes(59.4)).toBe('59 min');
    expect(formatMinutes(59.6)).toBe('01:00');
    expect(formatMinutes(75)).toBe('01:15');
    expect(formatMinutes(1565)).toBe('26:05');
    expect(formatMinutes(null)).toBe('0 min');
    expect(formatMinutes(Number.NaN)).toBe('0 min');
  });

  const counters = {
    supportHappening: 3,
    supportPending: 2,
    supportFinished: 10,
    avgSupportTime: 75,
    avgWaitTime: 4.2,
    totalWhatsappSessions: 5,
    totalCompanies: 8,
  };

  it('shows the company cards to admins, and the active connections and companies cards to super users only (spec 01 §6)', () => {
    expect(counterCards(counters, false)).toEqual([
      { key: 'supportHappening', value: 3, text: '3' },
      { key: 'supportPending', value: 2, text: '2' },
      { key: 'supportFinished', value: 10, text: '10' },
      { key: 'avgSupportTime', value: 75, text: '01:15' },
      { key: 'avgWaitTime', value: 4.2, text: '4 min' },
    ]);
    expect(counterCards(counters, true).map((c) => c.key)).toEqual([
      'totalWhatsappSessions',
      'totalCompanies',
      'supportHappening',
      'supportPending',
      'supportFinished',
      'avgSupportTime',
      'avgWaitTime',
    ]);
    expect(
      counterCards(counters, true)
        .slice(0, 2)
        .map((c) => c.text),
    ).toEqual(['5', '8']);
  });

  it('draws a rating (1 to 3, an average) as three stars, to the nearest half', () => {
    expect(ratingStars(3)).toEqual(['full', 'full', 'full']);
    expect(ratingStars(2.3)).toEqual(['full', 'full', 'half']);
    expect(ratingStars(2.2)).toEqual(['full', 'full', 'empty']);
    expect(ratingStars(1)).toEqual(['full', 'empty', 'empty']);
    expect(ratingStars(null)).toBeNull();
  });
});
