import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { CompanyDto, SettingDto, UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import SettingsPage from '../SettingsPage';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; body: unknown }> = [];
let settings: SettingDto[] = [];
let company: CompanyDto;
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;

const anAdmin = (extra: Partial<UserDto> = {}): UserDto => ({
  id: 1,
  name: 'Admin',
  email: 'admin@x.com',
  profile: 'admin',
  companyId: 7,
  whatsappId: null,
  allTicket: 'enabled',
  super: false,
  online: true,
  queues: [],
  queueIds: [],
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...extra,
});

beforeEach(() => {
  calls = [];
  answer = () => undefined;
  settings = [
    { key: 'call', value: 'enabled' },
    { key: 'scheduleType', value: 'disabled' },
    { key: 'timezone', value: 'America/Sao_Paulo' },
    { key: 'userRating', value: 'disabled' },
  ];
  company = {
    id: 7,
    name: 'Loja',
    dueDate: '2027-01-01',
    status: true,
    planId: 1,
    plan: {} as CompanyDto['plan'],
    settings: [],
    schedules: [],
  };
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    const sent = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    calls.push({ method: req.method, path: url.pathname, body: sent });
    const custom = answer(req.method, url.pathname);
    if (custom)
      return new Response(JSON.stringify(custom.body), { status: custom.status, headers: { 'content-type': 'application/json' } });
    let body: unknown = {};
    if (url.pathname.startsWith('/settings')) {
      const key = decodeURIComponent(url.pathname.split('/')[2] ?? '');
      if (req.method === 'PUT') settings = settings.map((s) => (s.key === key ? { key, value: String(sent?.value) } : s));
      body = req.method === 'PUT' ? { key, value: sent?.value } : settings;
    } else if (url.pathname === '/companies/7/schedules') {
      company = { ...company, schedules: sent?.schedules as CompanyDto['schedules'] };
      body = company;
    } else if (url.pathname === '/companies/7') body = company;
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

function renderAs(user: UserDto) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 't', user }));
  return renderWithProviders(
    <Routes>
      <Route path="/settings" element={<SettingsPage />} />
      <Route path="/tickets" element={<div data-testid="tickets" />} />
    </Routes>,
    { store, route: '/settings' },
  );
}

const writes = () => calls.filter((c) => c.method !== 'GET');

describe('/settings (spec 02 §2 "Settings")', () => {
  it('shows a labelled selector for each setting the server has; a change is saved at once', async () => {
    const r = renderAs(anAdmin());
    const options = await waitFor(() => r.getByTestId('settings-options'));
    expect(within(options).getAllByRole('combobox')).toHaveLength(3);
    expect(r.queryByTestId('setting-CheckMsgIsGroup')).toBeNull();
    const rating = r.getByLabelText('Avaliações') as HTMLSelectElement;
    expect(rating.value).toBe('disabled');
    expect([...rating.options].map((o) => o.textContent)).toEqual(['Desabilitadas', 'Habilitadas']);
    expect((r.getByLabelText('Aceitar chamadas') as HTMLSelectElement).value).toBe('enabled');
    // no Horarios tab while scheduleType is not company
    expect(r.queryByTestId('settings-tab-schedules')).toBeNull();

    fireEvent.change(rating, { target: { value: 'enabled' } });
    await waitFor(() => expect(writes()).toEqual([{ method: 'PUT', path: '/settings/userRating', body: { value: 'enabled' } }]));
    await waitFor(() => expect((r.getByLabelText('Avaliações') as HTMLSelectElement).value).toBe('enabled'));
  });

  it("shows the platform's sign-up switch (userCreation) to a super user only; a change is saved at once", async () => {
    settings = [...settings, { key: 'userCreation', value: 'enabled' }];
    const admin = renderAs(anAdmin());
    await waitFor(() => admin.getByTestId('settings-options'));
    expect(admin.queryByTestId('setting-userCreation')).toBeNull();
    admin.unmount();

    const r = renderAs(anAdmin({ super: true }));
    const signup = (await waitFor(() => r.getByLabelText('Cadastro de novas empresas (plataforma)'))) as HTMLSelectElement;
    expect(signup.value).toBe('enabled');
    expect([...signup.options].map((o) => o.textContent)).toEqual(['Habilitado', 'Desabilitado']);
    fireEvent.change(signup, { target: { value: 'disabled' } });
    await waitFor(() => expect(writes()).toEqual([{ method: 'PUT', path: '/settings/userCreation', body: { value: 'disabled' } }]));
  });

  it('scheduleType company brings the Horarios tab: the defaults while the company has none, saved with PUT /companies/{id}/schedules', async () => {
    const r = renderAs(anAdmin());
    const type = (await waitFor(() => r.getByLabelText('Gerenciamento de expediente'))) as HTMLSelectElement;
    fireEvent.change(type, { target: { value: 'company' } });
    fireEvent.click(await waitFor(() => r.getByTestId('settings-tab-schedules')));
    const editor = await waitFor(() => r.getByTestId('company-schedules'));
    expect(r.getByTestId('company-schedules-none')).toBeTruthy();
    expect((within(editor).getByLabelText('Segunda-feira início') as HTMLInputElement).value).toBe('08:00');
    expect((within(editor).getByLabelText('Sábado fim') as HTMLInputElement).value).toBe('12:00');
    expect(within(editor).getByTestId('company-schedules-sunday-closed')).toBeTruthy();

    fireEvent.change(within(editor).getByLabelText('Segunda-feira início'), { target: { value: '09:00' } });
    fireEvent.change(within(editor).getByLabelText('Segunda-feira fim'), { target: { value: '17:00' } });
    fireEvent.click(within(editor).getByTestId('company-schedules-save'));
    await waitFor(() => expect(writes().filter((c) => c.path.startsWith('/companies'))).toHaveLength(1));
    const put = writes().find((c) => c.path === '/companies/7/schedules');
    const sent = (put?.body as { schedules: Array<Record<string, string>> }).schedules;
    expect(sent).toHaveLength(7);
    expect(sent[1]).toEqual({ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '09:00', endTime: '17:00' });
    expect(sent[0]).toEqual({ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' });
    // the company has hours now
    await waitFor(() => expect(r.queryByTestId('company-schedules-none')).toBeNull());
  });

  it("loads the company's saved hours; an empty time is refused here, the server's errors show on their day", async () => {
    settings = [{ key: 'scheduleType', value: 'company' }];
    company = { ...company, schedules: [{ weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '10:00', endTime: '15:00' }] };
    answer = (method, path) =>
      method === 'PUT' && path === '/companies/7/schedules'
        ? {
            status: 400,
            body: {
              error: 'ERR_VALIDATION',
              message: 'schedules.2.endTime: Hora inválida',
              details: [{ field: 'schedules.2.endTime', messages: ['Hora inválida'] }],
            },
          }
        : undefined;
    const r = renderAs(anAdmin());
    fireEvent.click(await waitFor(() => r.getByTestId('settings-tab-schedules')));
    const editor = await waitFor(() => r.getByTestId('company-schedules'));
    expect((within(editor).getByLabelText('Terça-feira início') as HTMLInputElement).value).toBe('10:00');
    // a day it has no entry for is closed
    expect((within(editor).getByLabelText('Segunda-feira início') as HTMLInputElement).value).toBe('00:00');
    expect(r.queryByTestId('company-schedules-none')).toBeNull();

    fireEvent.change(within(editor).getByLabelText('Quarta-feira fim'), { target: { value: '' } });
    fireEvent.click(within(editor).getByTestId('company-schedules-save'));
    await waitFor(() => expect(within(editor).getByText('Obrigatório')).toBeTruthy());
    expect(writes()).toHaveLength(0);

    fireEvent.change(within(editor).getByLabelText('Quarta-feira fim'), { target: { value: '12:00' } });
    fireEvent.click(within(editor).getByTestId('company-schedules-save'));
    await waitFor(() => expect(within(editor).getByText('Hora inválida')).toBeTruthy());
    // changing the field takes its server error away
    fireEvent.change(within(editor).getByLabelText('Terça-feira fim'), { target: { value: '16:00' } });
    expect(within(editor).queryByText('Hora inválida')).toBeNull();
  });

  it('is for admins: an agent goes to /tickets', async () => {
    const r = renderAs(anAdmin({ profile: 'user' }));
    await waitFor(() => expect(r.getByTestId('tickets')).toBeTruthy());
    expect(calls).toHaveLength(0);
  });
});
