import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { tz } from '@date-fns/tz';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { CompanyDto, PublicPlanDto, SettingDto, UserDto } from '@wa/contracts';
import { addDays, format } from 'date-fns';
import { Route, Routes } from 'react-router-dom';
import { loadToaster, ToasterHost } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import SettingsPage from '../SettingsPage';

const SAVE_FAILED =
  'Não foi possível realizar a operação. Verifique se já existe uma empresa com o mesmo nome ou se os campos foram preenchidos corretamente.';
const DONE = 'Operação realizada com sucesso!';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; query: string; body: unknown }> = [];
let companies: CompanyDto[] = [];
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;
const settings: SettingDto[] = [{ key: 'userRating', value: 'disabled' }];

/** A day `n` days from today on São Paulo's calendar (the companies' default), YYYY-MM-DD. */
const dayFromToday = (n: number) =>
  format(addDays(new Date(), n, { in: tz('America/Sao_Paulo') }), 'yyyy-MM-dd', { in: tz('America/Sao_Paulo') });

const aPlan = (id: number, name: string): PublicPlanDto => ({
  id,
  name,
  users: 3,
  connections: 2,
  queues: 0,
  value: 49.9,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: false,
  useIntegrations: false,
  isPublic: true,
  trialDays: 7,
});
const plans = [aPlan(1, 'Básico'), aPlan(2, 'Ouro')];

const aCompany = (id: number, name: string, extra: Partial<CompanyDto> = {}): CompanyDto => ({
  id,
  name,
  email: `${name.toLowerCase()}@x.com`,
  phone: '5511999990000',
  dueDate: '2099-01-31',
  status: true,
  planId: 1,
  plan: plans[0],
  recurrence: 'MENSAL',
  createdAt: '2026-01-02T15:00:00.000Z',
  settings: [{ key: 'campaignsEnabled', value: 'true' }],
  ...extra,
});

const aUser = (extra: Partial<UserDto> = {}): UserDto => ({
  id: 1,
  name: 'Root',
  email: 'root@x.com',
  profile: 'admin',
  companyId: 1,
  whatsappId: null,
  allTicket: 'enabled',
  super: true,
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
  companies = [
    aCompany(1, 'Provedor'),
    aCompany(2, 'Atrasada', {
      dueDate: dayFromToday(-4),
      status: false,
      plan: plans[1],
      planId: 2,
      settings: [{ key: 'campaignsEnabled', value: 'false' }],
    }),
  ];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    const sent = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    calls.push({ method: req.method, path: url.pathname, query: url.search, body: sent });
    const custom = answer(req.method, url.pathname);
    if (custom)
      return new Response(JSON.stringify(custom.body), { status: custom.status, headers: { 'content-type': 'application/json' } });
    let body: unknown = {};
    const id = Number(url.pathname.split('/')[2]);
    if (url.pathname.startsWith('/settings')) body = settings;
    else if (url.pathname === '/plans/all') body = plans;
    else if (url.pathname === '/invoices/next') {
      const ids = (url.searchParams.get('companyIds') ?? '').split(',').map(Number);
      body = [
        { companyId: 2, invoiceId: 31, dueDate: dayFromToday(-4), value: 1234.5, status: 'open', overdue: true },
        { companyId: 5, invoiceId: 50, dueDate: '2099-01-31', value: 10, status: 'open', overdue: false },
      ].filter((n) => ids.includes(n.companyId));
    } else if (url.pathname === '/companies' && req.method === 'GET') {
      const search = (url.searchParams.get('searchParam') ?? '').toLowerCase();
      const found = companies.filter((c) => c.name.toLowerCase().includes(search));
      body = { companies: found, count: found.length, hasMore: false };
    } else if (url.pathname === '/companies' && req.method === 'POST') {
      const { password: _password, campaignsEnabled, ...rest } = sent ?? {};
      const created = {
        ...aCompany(9, ''),
        ...rest,
        settings: [{ key: 'campaignsEnabled', value: String(campaignsEnabled) }],
      } as CompanyDto;
      companies = [...companies, created];
      body = created;
    } else if (url.pathname.startsWith('/companies/') && req.method === 'PUT') {
      companies = companies.map((c) => (c.id === id ? ({ ...c, ...sent } as CompanyDto) : c));
      body = companies.find((c) => c.id === id);
    } else if (url.pathname.startsWith('/companies/') && req.method === 'DELETE') {
      companies = companies.filter((c) => c.id !== id);
      body = { message: 'Company deleted' };
    }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(async () => {
  globalThis.fetch = realFetch;
  // the toaster outlives a test: its toasts must not show in the next one
  (await loadToaster()).toaster.remove();
});

function renderAs(user: UserDto) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 't', user }));
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/settings" element={<SettingsPage />} />
        <Route path="/tickets" element={<div data-testid="tickets" />} />
      </Routes>
      <ToasterHost />
    </>,
    { store, route: '/settings' },
  );
}

/** Signs in a super user and opens the Empresas tab. */
async function openCompanies() {
  const r = renderAs(aUser());
  fireEvent.click(await waitFor(() => r.getByTestId('settings-tab-companies')));
  await waitFor(() => r.getByTestId('company-row-1'));
  return r;
}

/** Opens the add dialog, with the plans loaded in its select. */
async function openAdd(r: Awaited<ReturnType<typeof openCompanies>>) {
  fireEvent.click(r.getByTestId('companies-add'));
  const dialog = await waitFor(() => r.getByTestId('company-dialog'));
  await waitFor(() => expect(within(dialog).getByTestId('company-planId').querySelectorAll('option')).toHaveLength(3));
  return dialog;
}

const writes = () => calls.filter((c) => c.method !== 'GET');
const companyLists = () => calls.filter((c) => c.method === 'GET' && c.path === '/companies');

describe('/settings, the Empresas tab (spec 02 "Companies", super users)', () => {
  it('a super user sees Empresas before Planos, and each company with its plan, status, campaigns and dates', async () => {
    const r = renderAs(aUser());
    const tab = await waitFor(() => r.getByTestId('settings-tab-companies'));
    expect(tab.textContent).toBe('Empresas');
    const triggers = [...r.container.ownerDocument.querySelectorAll('[data-testid^="settings-tab-"]')].map((e) =>
      e.getAttribute('data-testid'),
    );
    expect(triggers).toEqual([
      'settings-tab-options',
      'settings-tab-companies',
      'settings-tab-plans',
      'settings-tab-helps',
      'settings-tab-sessions',
    ]);
    fireEvent.click(tab);

    const row = await waitFor(() => r.getByTestId('company-row-1'));
    expect(within(row).getByTestId('company-name-cell').textContent).toBe('Provedor');
    expect(within(row).getByTestId('company-email-cell').textContent).toBe('provedor@x.com');
    expect(within(row).getByTestId('company-phone-cell').textContent).toBe('5511999990000');
    expect(within(row).getByTestId('company-plan-cell').textContent).toBe('Básico');
    expect(within(row).getByTestId('company-status-cell').textContent).toBe('Ativo');
    expect(within(row).getByTestId('company-campaigns-cell').textContent).toBe('Habilitadas');
    expect(within(row).getByTestId('company-created-cell').textContent).toBe('02/01/2026');
    expect(within(row).getByTestId('company-due-cell').textContent).toBe('31/01/2099');
    expect(within(row).getByTestId('company-recurrence-cell').textContent).toBe('Mensal');
    expect(row.getAttribute('data-due')).toBe('ok');
    expect(row.getAttribute('data-due-tone')).toBeNull();

    const late = r.getByTestId('company-row-2');
    expect(within(late).getByTestId('company-plan-cell').textContent).toBe('Ouro');
    expect(within(late).getByTestId('company-status-cell').textContent).toBe('Inativo');
    expect(within(late).getByTestId('company-campaigns-cell').textContent).toBe('Desabilitadas');
    expect(r.getByTestId('companies-count').textContent).toBe('(2)');
    expect(companyLists()).toHaveLength(1);
    expect(companyLists()[0].query).toBe('?pageNumber=1');
  });

  it('shows each company’s next invoice (due date, value in BRL, an overdue badge) from one GET /invoices/next for the page', async () => {
    const r = await openCompanies();
    const late = r.getByTestId('company-row-2');
    const cell = await waitFor(() => within(late).getByTestId('company-next-invoice'));
    const [y, m, d] = dayFromToday(-4).split('-');
    expect(cell.textContent).toBe(`${d}/${m}/${y}R$ 1.234,50Vencida`);
    expect(within(cell).getByTestId('company-next-invoice-overdue').textContent).toBe('Vencida');
    expect(within(r.getByTestId('company-row-1')).getByTestId('company-next-invoice-none').textContent).toBe('Sem fatura');
    const asked = calls.filter((c) => c.path === '/invoices/next');
    expect(asked).toHaveLength(1);
    expect(new URLSearchParams(asked[0].query).get('companyIds')).toBe('1,2');
  });

  it('a past-due row is marked: 4 days overdue is past and red; 5 days ahead is soon and yellow', async () => {
    companies = [...companies, aCompany(3, 'Quase', { dueDate: dayFromToday(5) })];
    const r = await openCompanies();
    const late = r.getByTestId('company-row-2');
    expect(late.getAttribute('data-due')).toBe('past');
    expect(late.getAttribute('data-due-tone')).toBe('red');
    expect(within(late).getByTestId('company-due-cell').textContent).toBe(dayFromToday(-4).split('-').reverse().join('/'));
    const soon = r.getByTestId('company-row-3');
    expect(soon.getAttribute('data-due')).toBe('soon');
    expect(soon.getAttribute('data-due-tone')).toBe('yellow');
  });

  it('a non-super admin has no Empresas tab and never asks for the companies', async () => {
    const r = renderAs(aUser({ super: false }));
    await waitFor(() => r.getByTestId('settings-options'));
    expect(r.queryByTestId('settings-tab-companies')).toBeNull();
    expect(calls.some((c) => c.path === '/companies')).toBe(false);
  });

  it('the search asks again after 500 ms with searchParam', async () => {
    const r = await openCompanies();
    fireEvent.change(r.getByTestId('companies-search'), { target: { value: 'atra' } });
    await waitFor(() => expect(r.queryByTestId('company-row-1')).toBeNull());
    expect(companyLists().at(-1)?.query).toBe('?searchParam=atra&pageNumber=1');
    expect(r.getByTestId('company-row-2')).toBeTruthy();
  });

  it('adding sends POST /companies with the plan as a number, the switches as booleans and the password', async () => {
    const r = await openCompanies();
    const dialog = await openAdd(r);
    expect((within(dialog).getByTestId('company-status').querySelector('input') as HTMLInputElement).checked).toBe(true);
    fireEvent.change(within(dialog).getByTestId('company-name'), { target: { value: '  Loja Nova ' } });
    fireEvent.change(within(dialog).getByTestId('company-email'), { target: { value: 'nova@x.com' } });
    fireEvent.change(within(dialog).getByTestId('company-phone'), { target: { value: '5511988887777' } });
    fireEvent.change(within(dialog).getByTestId('company-planId'), { target: { value: '2' } });
    fireEvent.change(within(dialog).getByTestId('company-password'), { target: { value: 'segredo1' } });
    fireEvent.click(within(dialog).getByLabelText('Campanhas: Habilitadas'));
    await waitFor(() => expect(within(dialog).getByTestId('company-campaignsEnabled').getAttribute('data-state')).toBe('unchecked'));
    fireEvent.click(within(dialog).getByTestId('company-save'));

    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({
      method: 'POST',
      path: '/companies',
      body: {
        name: 'Loja Nova',
        email: 'nova@x.com',
        phone: '5511988887777',
        planId: 2,
        status: true,
        recurrence: 'MENSAL',
        campaignsEnabled: false,
        password: 'segredo1',
      },
    });
    // no due date typed: the server's default (today plus the plan's trial days)
    expect(writes()[0].body).not.toHaveProperty('dueDate');
    await r.findByText(DONE);
    await waitFor(() => expect(r.queryByTestId('company-dialog')).toBeNull());
    // the list is fetched again and has the new company
    const row = await waitFor(() => r.getByTestId('company-row-9'));
    expect(within(row).getByTestId('company-name-cell').textContent).toBe('Loja Nova');
    expect(within(row).getByTestId('company-campaigns-cell').textContent).toBe('Desabilitadas');
    expect(companyLists()).toHaveLength(2);
  });

  it('a missing email or plan shows the field error and sends nothing', async () => {
    const r = await openCompanies();
    const dialog = await openAdd(r);
    fireEvent.change(within(dialog).getByTestId('company-name'), { target: { value: 'Loja Nova' } });
    fireEvent.click(within(dialog).getByTestId('company-save'));
    await waitFor(() => expect(within(dialog).getAllByText('Obrigatório')).toHaveLength(2));
    expect(writes()).toHaveLength(0);

    fireEvent.change(within(dialog).getByTestId('company-email'), { target: { value: 'nova@x' } });
    fireEvent.change(within(dialog).getByTestId('company-planId'), { target: { value: '1' } });
    fireEvent.click(within(dialog).getByTestId('company-save'));
    await waitFor(() => expect(within(dialog).getByText('E-mail inválido')).toBeTruthy());
    expect(within(dialog).queryByText('Obrigatório')).toBeNull();
    expect(writes()).toHaveLength(0);
    expect(r.getByTestId('company-dialog')).toBeTruthy();
  });

  it('a name already taken (400 with the name detail) shows the save-failure text and keeps the dialog open', async () => {
    answer = (method, path) =>
      method === 'POST' && path === '/companies'
        ? {
            status: 400,
            body: {
              error: 'ERR_VALIDATION',
              message: 'A company with this name already exists',
              details: [{ field: 'name', messages: ['A company with this name already exists'] }],
            },
          }
        : undefined;
    const r = await openCompanies();
    const dialog = await openAdd(r);
    fireEvent.change(within(dialog).getByTestId('company-name'), { target: { value: 'Provedor' } });
    fireEvent.change(within(dialog).getByTestId('company-email'), { target: { value: 'outro@x.com' } });
    fireEvent.change(within(dialog).getByTestId('company-planId'), { target: { value: '1' } });
    fireEvent.click(within(dialog).getByTestId('company-save'));

    await r.findByText(SAVE_FAILED);
    expect(writes()).toHaveLength(1);
    expect(r.getByTestId('company-dialog')).toBeTruthy();
    expect(within(r.getByTestId('company-dialog')).getByText('A company with this name already exists')).toBeTruthy();
    expect(r.queryByText(DONE)).toBeNull();
    expect(companyLists()).toHaveLength(1);
  });

  it('an edit shows the saved company (no password) and sends PUT /companies/{id} with what changed', async () => {
    const r = await openCompanies();
    fireEvent.click(within(r.getByTestId('company-row-1')).getByTestId('company-edit'));
    const dialog = await waitFor(() => r.getByTestId('company-dialog'));
    await waitFor(() => expect((within(dialog).getByTestId('company-planId') as HTMLSelectElement).value).toBe('1'));
    expect((within(dialog).getByTestId('company-name') as HTMLInputElement).value).toBe('Provedor');
    expect((within(dialog).getByTestId('company-dueDate') as HTMLInputElement).value).toBe('2099-01-31');
    expect(within(dialog).queryByTestId('company-password')).toBeNull();

    fireEvent.change(within(dialog).getByTestId('company-planId'), { target: { value: '2' } });
    fireEvent.click(within(dialog).getByLabelText('Status: Ativo'));
    await waitFor(() => expect(within(dialog).getByTestId('company-status').getAttribute('data-state')).toBe('unchecked'));
    fireEvent.click(within(dialog).getByTestId('company-save'));

    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({ method: 'PUT', path: '/companies/1', body: { planId: 2, status: false } });
    expect(Object.keys(writes()[0].body as object).sort()).toEqual(['planId', 'status']);
    await r.findByText(DONE);
    await waitFor(() => expect(r.queryByTestId('company-dialog')).toBeNull());
    await waitFor(() => expect(within(r.getByTestId('company-row-1')).getByTestId('company-status-cell').textContent).toBe('Inativo'));
  });

  it('Renovar sends PUT with the due date a month on (2099-01-31 → 2099-02-28) and the row shows it', async () => {
    const r = await openCompanies();
    fireEvent.click(within(r.getByTestId('company-row-1')).getByTestId('company-renew'));

    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({ method: 'PUT', path: '/companies/1', query: '', body: { dueDate: '2099-02-28' } });
    await r.findByText(DONE);
    await waitFor(() => expect(within(r.getByTestId('company-row-1')).getByTestId('company-due-cell').textContent).toBe('28/02/2099'));
  });

  it('Renovar on an overdue company moves on from today', async () => {
    companies = [aCompany(1, 'Provedor'), aCompany(2, 'Atrasada', { dueDate: dayFromToday(-40), recurrence: 'ANUAL' })];
    const r = await openCompanies();
    fireEvent.click(within(r.getByTestId('company-row-2')).getByTestId('company-renew'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    const today = dayFromToday(0);
    const expected = `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`.replace(/-02-29$/, '-02-28');
    expect(writes()[0].body).toEqual({ dueDate: expected });
  });

  it('delete asks for confirmation first, then sends DELETE /companies/{id}', async () => {
    const r = await openCompanies();
    fireEvent.click(within(r.getByTestId('company-row-2')).getByTestId('company-delete'));
    const confirm = await waitFor(() => r.getByTestId('confirm-dialog'));
    expect(confirm.textContent).toContain('Atrasada');
    expect(writes()).toHaveLength(0);
    fireEvent.click(within(confirm).getByTestId('confirm-ok'));

    await waitFor(() => expect(writes()).toEqual([{ method: 'DELETE', path: '/companies/2', query: '', body: undefined }]));
    await r.findByText(DONE);
    await waitFor(() => expect(r.queryByTestId('company-row-2')).toBeNull());
    expect(r.getByTestId('company-row-1')).toBeTruthy();
  });

  it('a refused delete (403: the company signed in to) keeps the row: the delete-failure text with the reason', async () => {
    answer = (method) =>
      method === 'DELETE'
        ? { status: 403, body: { error: 'ERR_NO_PERMISSION', message: 'The company you are signed in to cannot be deleted.' } }
        : undefined;
    const r = await openCompanies();
    fireEvent.click(within(r.getByTestId('company-row-1')).getByTestId('company-delete'));
    fireEvent.click(within(await waitFor(() => r.getByTestId('confirm-dialog'))).getByTestId('confirm-ok'));

    await r.findByText(
      'Não foi possível realizar a operação. A empresa em que você está conectado e a empresa do provedor não podem ser excluídas.',
    );
    expect(r.getByTestId('company-row-1')).toBeTruthy();
    expect(r.getByTestId('confirm-dialog')).toBeTruthy();
  });
});
