import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor } from '@testing-library/react';
import type { ScheduleDto } from '@wa/contracts';
import axe from 'axe-core';
import { aSchedule } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import SchedulesPage from '../SchedulesPage';

const realFetch = globalThis.fetch;
let lists: URLSearchParams[] = [];
let deleted: string[] = [];
let server: ScheduleDto[] = [];

/** a day of this month at `h` o'clock, on this machine's clock (the month view opens on today's month) */
const thisMonth = (day: number, h: number) => {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), day, h).toISOString();
};

beforeEach(() => {
  // react-big-calendar's CommonJS build (what jest loads) uses an old JSX helper React 19 warns about in development
  jest.spyOn(globalThis.console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes('outdated JSX transform')) process.stderr.write(`${args.map(String).join(' ')}\n`);
  });
  lists = [];
  deleted = [];
  server = [
    aSchedule({ id: 1, sendAt: thisMonth(10, 9), contact: { id: 101, name: 'Ana Souza', number: '5511988887777' } }),
    aSchedule({
      id: 2,
      sendAt: thisMonth(12, 15),
      status: 'ERRO',
      reason: 'Sem conexão',
      contact: { id: 102, name: 'Bruno Lima', number: '5511977776666' },
    }),
  ];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    let body: unknown = {};
    if (req.method === 'DELETE') {
      deleted.push(url.pathname);
      server = server.filter((s) => `/schedules/${s.id}` !== url.pathname);
    } else if (url.pathname === '/schedules') {
      lists.push(url.searchParams);
      body = { schedules: server, hasMore: false, count: server.length };
    } else if (url.pathname.startsWith('/schedules/')) body = server.find((s) => url.pathname.endsWith(`/${s.id}`));
    else if (url.pathname.startsWith('/contacts/')) body = { id: 21, name: 'Carla Dias', number: '5511966665555' };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.restoreAllMocks();
});

describe('schedules calendar (spec 02 §2 "Schedules calendar")', () => {
  it('shows the month in Portuguese with a count and each schedule by contact, coloured by status', async () => {
    const r = renderWithProviders(<SchedulesPage />, { route: '/schedules' });
    await waitFor(() => expect(r.getAllByTestId('schedule-event')).toHaveLength(2));
    expect(r.getByTestId('schedules-title').textContent).toBe('Agendamentos (2)');
    expect(r.getAllByTestId('schedule-event-name').map((e) => e.textContent)).toEqual(['Ana Souza', 'Bruno Lima']);
    expect(r.getAllByTestId('schedule-event').map((e) => e.getAttribute('data-status'))).toEqual(['PENDENTE', 'ERRO']);
    for (const label of ['Hoje', 'Anterior', 'Próximo', 'Mês', 'Semana', 'Dia', 'Agenda'])
      expect(r.getByRole('button', { name: label })).toBeTruthy();
    // the month's whole weeks were asked for
    const first = new Date(new Date().getFullYear(), new Date().getMonth(), 1);
    expect(new Date(lists[0].get('from') ?? '').getTime()).toBeLessThanOrEqual(first.getTime());
    expect(lists[0].get('to')).toBeTruthy();
  });

  it('opens an event with its status in the title; deletes one after confirmation', async () => {
    const r = renderWithProviders(<SchedulesPage />, { route: '/schedules' });
    await waitFor(() => expect(r.getAllByTestId('schedule-event')).toHaveLength(2));
    fireEvent.click(r.getAllByTestId('schedule-event-edit')[1]);
    await waitFor(() => expect(r.getByTestId('schedule-dialog-title').textContent).toBe('Agendamento — Erro: Sem conexão'));
    fireEvent.click(r.getByTestId('schedule-cancel'));
    await waitFor(() => expect(r.queryByTestId('schedule-dialog')).toBeNull());
    fireEvent.click(r.getAllByTestId('schedule-event-delete')[0]);
    fireEvent.click(await waitFor(() => r.getByTestId('confirm-ok')));
    await waitFor(() => expect(r.getAllByTestId('schedule-event')).toHaveLength(1));
    expect(deleted).toEqual(['/schedules/1']);
    expect(r.getByTestId('schedules-title').textContent).toBe('Agendamentos (1)');
  });

  it("the month view is a table whose rows hold only cells (axe: no serious or critical violation), named in the user's language", async () => {
    const r = renderWithProviders(<SchedulesPage />, { route: '/schedules' });
    await waitFor(() => expect(r.getAllByTestId('schedule-event')).toHaveLength(2));
    // the events' buttons sit in cells of the week's row, not in the row itself
    await waitFor(() =>
      expect(r.getAllByTestId('schedule-event-edit').every((b) => b.closest('[role=cell]')?.closest('[role=row]'))).toBe(true),
    );
    expect(r.getByRole('table').getAttribute('aria-label')).toBe('Calendário do mês');
    // jsdom draws no colours: the contrast is the browser test's
    const { violations } = await axe.run(r.container, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } });
    const found = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
    expect(found).toEqual([]);
  });

  it('?contactId= opens the create dialog for that contact', async () => {
    const r = renderWithProviders(<SchedulesPage />, { route: '/schedules?contactId=21' });
    await waitFor(() => expect((r.getByTestId('schedule-contact') as HTMLInputElement).value).toBe('Carla Dias (5511966665555)'));
    expect(r.getByTestId('schedule-dialog-title').textContent).toBe('Novo agendamento');
  });
});
