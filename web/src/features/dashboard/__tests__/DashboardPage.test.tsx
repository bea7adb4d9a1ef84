import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor, within } from '@testing-library/react';
import type { DashboardAnswer, UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import { companyToday } from '../../../app/expiry';
import { defaultRange } from '../dashboard-rules';
import DashboardPage from '../DashboardPage';
import HomePage from '../HomePage';

/** Fakes the date alone (at `now`): the page's timers run as usual. */
const fakeTheDate = (now: Date) =>
  jest.useFakeTimers({
    now,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
const realFetch = globalThis.fetch;
const realRect = HTMLElement.prototype.getBoundingClientRect;
let calls: Array<{ path: string; params: Record<string, string> }> = [];
let failing: string[] = [];

const answer: DashboardAnswer = {
  counters: {
    supportHappening: 3,
    supportPending: 2,
    supportFinished: 10,
    avgSupportTime: 75,
    avgWaitTime: 4,
    totalWhatsappSessions: 5,
    totalCompanies: 8,
  },
  attendants: [
    { id: 1, name: 'Ana', rating: 2.5, avgSupportTime: 12, tickets: 4, online: true },
    { id: 2, name: 'Bia', rating: null, avgSupportTime: 0, tickets: 0, online: false },
  ],
  period: { from: '2026-11-01', to: '2026-11-24', timeZone: 'America/Sao_Paulo' },
};

beforeEach(() => {
  // jsdom lays nothing out: the charts get a size to draw in
  HTMLElement.prototype.getBoundingClientRect = () =>
    ({ x: 0, y: 0, top: 0, left: 0, right: 480, bottom: 288, width: 480, height: 288, toJSON: () => ({}) }) as DOMRect;
  calls = [];
  failing = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    calls.push({ path: url.pathname, params: Object.fromEntries(url.searchParams) });
    if (failing.includes(url.pathname))
      return new Response(JSON.stringify({ error: 'ERR_INTERNAL' }), { status: 500, headers: { 'content-type': 'application/json' } });
    let body: unknown = {};
    if (url.pathname === '/dashboard') body = answer;
    if (url.pathname === '/dashboard/ticketsUsers') body = { data: [{ nome: 'Ana', quantidade: 4 }], count: 4 };
    if (url.pathname === '/dashboard/ticketsDay') body = { data: [{ data: '2026-11-23', total: 1 }], count: 1 };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  HTMLElement.prototype.getBoundingClientRect = realRect;
});

function storeAs(user: Partial<UserDto>) {
  const store = makeStore();
  store.dispatch(
    sessionStarted({ token: 't', user: { id: 1, name: 'Admin', companyId: 1, profile: 'admin', super: false, ...user } as UserDto }),
  );
  return store;
}

const dashboardCalls = () => calls.filter((c) => c.path === '/dashboard');

describe('dashboard (spec 01 §2 "Dashboard")', () => {
  it('loads the month so far: counters, attendants and both charts', async () => {
    const r = renderWithProviders(<DashboardPage />, { store: storeAs({}) });
    const { from, to } = defaultRange(companyToday(null));
    expect((r.getByTestId('dashboard-date-from') as HTMLInputElement).value).toBe(from);
    expect((r.getByTestId('dashboard-date-to') as HTMLInputElement).value).toBe(to);
    await waitFor(() => expect(r.getByTestId('dashboard-counter-supportHappening').textContent).toBe('3'));
    expect(dashboardCalls()[0].params).toEqual({ date_from: from, date_to: to });
    expect(r.getByTestId('dashboard-counter-supportPending').textContent).toBe('2');
    expect(r.getByTestId('dashboard-counter-supportFinished').textContent).toBe('10');
    expect(r.getByTestId('dashboard-counter-avgSupportTime').textContent).toBe('01:15');
    expect(r.getByTestId('dashboard-counter-avgWaitTime').textContent).toBe('4 min');
    // the provider's cards: super users only
    expect(r.queryByTestId('dashboard-counter-totalCompanies')).toBeNull();
    expect(r.queryByTestId('dashboard-counter-totalWhatsappSessions')).toBeNull();
    const rows = r.getAllByTestId('dashboard-attendant');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('Online')).toBeTruthy();
    expect(within(rows[0]).getByText('12 min')).toBeTruthy();
    expect(within(rows[1]).getByText('Offline')).toBeTruthy();
    expect(within(rows[1]).getByText('Sem avaliação')).toBeTruthy();
    await waitFor(() => expect(r.getByTestId('dashboard-chart-users-total').textContent).toBe('Total: 4'));
    await waitFor(() => expect(r.getByTestId('dashboard-chart-days-total').textContent).toBe('Total: 1'));
    expect(calls.find((c) => c.path === '/dashboard/ticketsUsers')?.params).toEqual({ initialDate: from, finalDate: to });
  });

  it("asks for the company's days, not the browser clock's", async () => {
    // 00:40 on 1 December UTC is still 30 November in São Paulo (the company's zone unless it sets one)
    fakeTheDate(new Date('2026-12-01T00:40:00.000Z'));
    try {
      const inSaoPaulo = renderWithProviders(<DashboardPage />, { store: storeAs({}) });
      expect((inSaoPaulo.getByTestId('dashboard-date-to') as HTMLInputElement).value).toBe('2026-11-30');
      await waitFor(() => expect(calls.find((c) => c.path === '/dashboard/ticketsDay')).toBeTruthy());
      expect(calls.find((c) => c.path === '/dashboard/ticketsDay')?.params).toEqual({ initialDate: '2026-11-01', finalDate: '2026-11-30' });
      inSaoPaulo.unmount();
      calls = [];
      const company = { id: 1, name: 'Tóquio', settings: [{ key: 'timezone', value: 'Asia/Tokyo' }] };
      const inTokyo = renderWithProviders(<DashboardPage />, { store: storeAs({ company } as Partial<UserDto>) });
      expect((inTokyo.getByTestId('dashboard-date-from') as HTMLInputElement).value).toBe('2026-12-01');
      await waitFor(() => expect(dashboardCalls()).toHaveLength(1));
      expect(dashboardCalls()[0].params).toEqual({ date_from: '2026-12-01', date_to: '2026-12-01' });
    } finally {
      jest.useRealTimers();
    }
  });

  it('shows the active connections and companies cards to super users', async () => {
    const r = renderWithProviders(<DashboardPage />, { store: storeAs({ super: true }) });
    await waitFor(() => expect(r.getByTestId('dashboard-counter-totalCompanies').textContent).toBe('8'));
    expect(r.getByTestId('dashboard-counter-totalWhatsappSessions').textContent).toBe('5');
  });

  it('an empty filter shows "Parametrize o filtro" and sends nothing; a period sends days', async () => {
    const r = renderWithProviders(<DashboardPage />, { store: storeAs({}) });
    await waitFor(() => expect(dashboardCalls()).toHaveLength(1));
    fireEvent.change(r.getByTestId('dashboard-filter-type'), { target: { value: 'period' } });
    expect(r.getByTestId('dashboard-filter-error').textContent).toBe('Parametrize o filtro');
    await act(() => new Promise((resolve) => setTimeout(resolve, 700)));
    expect(dashboardCalls()).toHaveLength(1);
    fireEvent.change(r.getByTestId('dashboard-period'), { target: { value: '7' } });
    expect(r.queryByTestId('dashboard-filter-error')).toBeNull();
    await waitFor(() => expect(dashboardCalls()).toHaveLength(2), { timeout: 2000 });
    expect(dashboardCalls()[1].params).toEqual({ days: '7' });
  });

  it("shows each chart's own error text when it fails", async () => {
    failing = ['/dashboard/ticketsUsers', '/dashboard/ticketsDay'];
    const r = renderWithProviders(<DashboardPage />, { store: storeAs({}) });
    await waitFor(() => expect(r.getByTestId('dashboard-chart-users-error').textContent).toBe('Erro ao obter informações da conversa'));
    await waitFor(() => expect(r.getByTestId('dashboard-chart-days-error').textContent).toBe('Erro ao buscar informações dos tickets'));
  });
});

describe('/ (spec 01 §2: admin only)', () => {
  it('sends agents to the ticket manager', async () => {
    const r = renderWithProviders(
      <Routes>
        <Route index element={<HomePage />} />
        <Route path="/tickets" element={<div data-testid="tickets" />} />
      </Routes>,
      { store: storeAs({ profile: 'user' }) },
    );
    await waitFor(() => expect(r.getByTestId('tickets')).toBeTruthy());
    expect(calls).toHaveLength(0);
  });
});
