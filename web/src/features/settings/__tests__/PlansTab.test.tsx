import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { PublicPlanDto, SettingDto, UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { loadToaster, ToasterHost } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import SettingsPage from '../SettingsPage';

const SAVE_FAILED =
  'Não foi possível realizar a operação. Verifique se já existe um plano com o mesmo nome ou se os campos foram preenchidos corretamente.';
const DONE = 'Operação realizada com sucesso!';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; body: unknown }> = [];
let plans: PublicPlanDto[] = [];
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;
const settings: SettingDto[] = [{ key: 'userRating', value: 'disabled' }];

const aPlan = (id: number, name: string, extra: Partial<PublicPlanDto> = {}): PublicPlanDto => ({
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
  plans = [aPlan(1, 'Básico'), aPlan(2, 'Ilimitado', { users: 0, connections: 0, value: 0, isPublic: false })];
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
    const id = Number(url.pathname.split('/')[2]);
    if (url.pathname.startsWith('/settings')) body = settings;
    else if (url.pathname === '/plans/all') body = plans;
    else if (url.pathname === '/plans' && req.method === 'POST') {
      const created = { ...aPlan(9, ''), ...sent } as PublicPlanDto;
      plans = [...plans, created];
      body = created;
    } else if (url.pathname.startsWith('/plans/') && req.method === 'PUT') {
      plans = plans.map((p) => (p.id === id ? ({ ...p, ...sent } as PublicPlanDto) : p));
      body = plans.find((p) => p.id === id);
    } else if (url.pathname.startsWith('/plans/') && req.method === 'DELETE') {
      plans = plans.filter((p) => p.id !== id);
      body = { message: 'Plan deleted' };
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

/** Signs in a super user and opens the Planos tab. */
async function openPlans() {
  const r = renderAs(aUser());
  fireEvent.click(await waitFor(() => r.getByTestId('settings-tab-plans')));
  await waitFor(() => r.getByTestId('plan-row-1'));
  return r;
}

const writes = () => calls.filter((c) => c.method !== 'GET');
const planLists = () => calls.filter((c) => c.method === 'GET' && c.path === '/plans/all');

describe('/settings, the Planos tab (spec 02 "Plans", super users)', () => {
  it('a super user sees the Planos tab with every plan: counts (0: no limit), the monthly price in BRL and the features', async () => {
    const r = renderAs(aUser());
    const tab = await waitFor(() => r.getByTestId('settings-tab-plans'));
    expect(tab.textContent).toBe('Planos');
    fireEvent.click(tab);
    const row = await waitFor(() => r.getByTestId('plan-row-1'));
    expect(within(row).getByTestId('plan-name-cell').textContent).toBe('Básico');
    expect(within(row).getByTestId('plan-users-cell').textContent).toBe('3');
    expect(within(row).getByTestId('plan-connections-cell').textContent).toBe('2');
    expect(within(row).getByTestId('plan-queues-cell').textContent).toBe('Sem limite');
    expect(within(row).getByTestId('plan-value-cell').textContent).toBe('R$ 49,90');
    const features = within(row).getByTestId('plan-features-cell');
    expect(within(features).getByText('Campanhas')).toBeTruthy();
    expect(within(features).getByText('Kanban')).toBeTruthy();
    expect(within(features).queryByText('Open.AI')).toBeNull();
    expect(within(features).queryByText('Integrações')).toBeNull();
    expect(within(row).getByTestId('plan-signup-cell').textContent).toBe('Sim · 7 dias de teste');

    const free = r.getByTestId('plan-row-2');
    expect(within(free).getByTestId('plan-value-cell').textContent).toBe('R$ 0,00');
    expect(within(free).getByTestId('plan-users-cell').textContent).toBe('Sem limite');
    expect(within(free).getByTestId('plan-signup-cell').textContent).toBe('Não');
    expect(r.getByTestId('plans-count').textContent).toBe('(2)');
    expect(planLists()).toHaveLength(1);
  });

  it('a non-super admin has no Planos tab and never asks for the plans', async () => {
    const r = renderAs(aUser({ super: false }));
    await waitFor(() => r.getByTestId('settings-options'));
    expect(r.getByTestId('settings-tab-options')).toBeTruthy();
    expect(r.queryByTestId('settings-tab-plans')).toBeNull();
    expect(calls.some((c) => c.path.startsWith('/plans'))).toBe(false);
  });

  it('a new plan starts with 0 counts, price 0 and every feature on, and is sent with numbers and booleans', async () => {
    const r = await openPlans();
    fireEvent.click(r.getByTestId('plans-add'));
    const dialog = await waitFor(() => r.getByTestId('plan-dialog'));
    expect((within(dialog).getByTestId('plan-users') as HTMLInputElement).value).toBe('0');
    expect((within(dialog).getByTestId('plan-value') as HTMLInputElement).value).toBe('0');
    expect((within(dialog).getByLabelText('Kanban') as HTMLInputElement).checked).toBe(true);
    fireEvent.change(within(dialog).getByTestId('plan-name'), { target: { value: '  Ouro  ' } });
    fireEvent.click(within(dialog).getByTestId('plan-save'));

    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({
      method: 'POST',
      path: '/plans',
      body: {
        name: 'Ouro',
        users: 0,
        connections: 0,
        queues: 0,
        value: 0,
        useCampaigns: true,
        useSchedules: true,
        useInternalChat: true,
        useExternalApi: true,
        useKanban: true,
        useOpenAi: true,
        useIntegrations: true,
        isPublic: true,
        trialDays: 7,
      },
    });
    await r.findByText(DONE);
    await waitFor(() => expect(r.queryByTestId('plan-dialog')).toBeNull());
    // the list is fetched again and has the new plan
    const row = await waitFor(() => r.getByTestId('plan-row-9'));
    expect(within(row).getByTestId('plan-name-cell').textContent).toBe('Ouro');
    expect(planLists()).toHaveLength(2);
  });

  it('typed numbers go as numbers (the price with a comma) and a switched-off feature as false', async () => {
    const r = await openPlans();
    fireEvent.click(r.getByTestId('plans-add'));
    const dialog = await waitFor(() => r.getByTestId('plan-dialog'));
    fireEvent.change(within(dialog).getByTestId('plan-name'), { target: { value: 'Prata' } });
    fireEvent.change(within(dialog).getByTestId('plan-users'), { target: { value: '5' } });
    fireEvent.change(within(dialog).getByTestId('plan-connections'), { target: { value: '2' } });
    fireEvent.change(within(dialog).getByTestId('plan-value'), { target: { value: '99,90' } });
    fireEvent.click(within(dialog).getByLabelText('Kanban'));
    await waitFor(() => expect(within(dialog).getByTestId('plan-useKanban').getAttribute('data-state')).toBe('unchecked'));
    fireEvent.click(within(dialog).getByTestId('plan-save'));

    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0].body).toMatchObject({
      name: 'Prata',
      users: 5,
      connections: 2,
      queues: 0,
      value: 99.9,
      useKanban: false,
      useCampaigns: true,
    });
  });

  it('an edit shows the saved plan and sends PUT /plans/{id} with what changed', async () => {
    const r = await openPlans();
    fireEvent.click(within(r.getByTestId('plan-row-1')).getByTestId('plan-edit'));
    const dialog = await waitFor(() => r.getByTestId('plan-dialog'));
    expect((within(dialog).getByTestId('plan-name') as HTMLInputElement).value).toBe('Básico');
    expect((within(dialog).getByTestId('plan-users') as HTMLInputElement).value).toBe('3');
    expect((within(dialog).getByTestId('plan-value') as HTMLInputElement).value).toBe('49.90');
    expect((within(dialog).getByLabelText('Open.AI') as HTMLInputElement).checked).toBe(false);

    fireEvent.change(within(dialog).getByTestId('plan-users'), { target: { value: '10' } });
    fireEvent.change(within(dialog).getByTestId('plan-value'), { target: { value: '59,9' } });
    fireEvent.click(within(dialog).getByLabelText('Open.AI'));
    await waitFor(() => expect(within(dialog).getByTestId('plan-useOpenAi').getAttribute('data-state')).toBe('checked'));
    fireEvent.click(within(dialog).getByTestId('plan-save'));

    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({ method: 'PUT', path: '/plans/1', body: { users: 10, value: 59.9, useOpenAi: true } });
    await r.findByText(DONE);
    await waitFor(() => expect(r.queryByTestId('plan-dialog')).toBeNull());
    await waitFor(() => expect(within(r.getByTestId('plan-row-1')).getByTestId('plan-value-cell').textContent).toBe('R$ 59,90'));
  });

  it('a name already taken (409 ERR_PLAN_NAME_EXISTS) shows the save-failure text and keeps the dialog open', async () => {
    answer = (method, path) =>
      method === 'POST' && path === '/plans'
        ? { status: 409, body: { error: 'ERR_PLAN_NAME_EXISTS', message: 'Plan name exists' } }
        : undefined;
    const r = await openPlans();
    fireEvent.click(r.getByTestId('plans-add'));
    const dialog = await waitFor(() => r.getByTestId('plan-dialog'));
    fireEvent.change(within(dialog).getByTestId('plan-name'), { target: { value: 'Básico' } });
    fireEvent.click(within(dialog).getByTestId('plan-save'));

    await r.findByText(SAVE_FAILED);
    expect(writes()).toHaveLength(1);
    expect(r.getByTestId('plan-dialog')).toBeTruthy();
    expect(within(r.getByTestId('plan-dialog')).getByText('Já existe um plano com este nome.')).toBeTruthy();
    expect(r.queryByText(DONE)).toBeNull();
    expect(planLists()).toHaveLength(1);
  });

  it('a refused validation (400 ERR_VALIDATION) shows the save-failure text and the server message on its field', async () => {
    answer = (method, path) =>
      method === 'PUT' && path === '/plans/1'
        ? {
            status: 400,
            body: { error: 'ERR_VALIDATION', message: 'name: too long', details: [{ field: 'name', messages: ['Nome inválido'] }] },
          }
        : undefined;
    const r = await openPlans();
    fireEvent.click(within(r.getByTestId('plan-row-1')).getByTestId('plan-edit'));
    const dialog = await waitFor(() => r.getByTestId('plan-dialog'));
    fireEvent.change(within(dialog).getByTestId('plan-name'), { target: { value: 'Outro nome' } });
    fireEvent.click(within(dialog).getByTestId('plan-save'));

    await r.findByText(SAVE_FAILED);
    expect(within(dialog).getByText('Nome inválido')).toBeTruthy();
    expect(r.getByTestId('plan-dialog')).toBeTruthy();
  });

  it('delete asks for confirmation first, then sends DELETE /plans/{id}', async () => {
    const r = await openPlans();
    fireEvent.click(within(r.getByTestId('plan-row-2')).getByTestId('plan-delete'));
    const confirm = await waitFor(() => r.getByTestId('confirm-dialog'));
    expect(confirm.textContent).toContain('Ilimitado');
    expect(writes()).toHaveLength(0);
    fireEvent.click(within(confirm).getByTestId('confirm-ok'));

    await waitFor(() => expect(writes()).toEqual([{ method: 'DELETE', path: '/plans/2', body: undefined }]));
    await r.findByText(DONE);
    await waitFor(() => expect(r.queryByTestId('plan-row-2')).toBeNull());
    expect(r.getByTestId('plan-row-1')).toBeTruthy();
  });

  it('cancelling the confirmation sends nothing', async () => {
    const r = await openPlans();
    fireEvent.click(within(r.getByTestId('plan-row-1')).getByTestId('plan-delete'));
    const confirm = await waitFor(() => r.getByTestId('confirm-dialog'));
    fireEvent.click(within(confirm).getByText('Cancelar'));
    await waitFor(() => expect(r.queryByTestId('confirm-dialog')).toBeNull());
    expect(writes()).toHaveLength(0);
  });

  it('a plan companies are on (409 ERR_PLAN_IN_USE) is kept: the delete-failure text with the reason', async () => {
    answer = (method) => (method === 'DELETE' ? { status: 409, body: { error: 'ERR_PLAN_IN_USE', message: 'Plan in use' } } : undefined);
    const r = await openPlans();
    fireEvent.click(within(r.getByTestId('plan-row-1')).getByTestId('plan-delete'));
    fireEvent.click(within(await waitFor(() => r.getByTestId('confirm-dialog'))).getByTestId('confirm-ok'));

    await r.findByText('Não foi possível realizar a operação. Há empresas neste plano: mude-as de plano antes.');
    expect(r.getByTestId('plan-row-1')).toBeTruthy();
    expect(r.getByTestId('confirm-dialog')).toBeTruthy();
  });

  it('a negative count or a price with 3 decimals shows the field error and sends nothing; so does an empty name', async () => {
    const r = await openPlans();
    fireEvent.click(r.getByTestId('plans-add'));
    const dialog = await waitFor(() => r.getByTestId('plan-dialog'));
    fireEvent.change(within(dialog).getByTestId('plan-name'), { target: { value: 'Ouro' } });
    fireEvent.change(within(dialog).getByTestId('plan-queues'), { target: { value: '-1' } });
    fireEvent.change(within(dialog).getByTestId('plan-value'), { target: { value: '10,999' } });
    fireEvent.click(within(dialog).getByTestId('plan-save'));

    await waitFor(() => expect(within(dialog).getByText('Informe um número inteiro maior ou igual a 0')).toBeTruthy());
    expect(within(dialog).getByText('Informe um valor maior ou igual a 0, com até 2 casas decimais')).toBeTruthy();
    expect(writes()).toHaveLength(0);

    fireEvent.change(within(dialog).getByTestId('plan-queues'), { target: { value: '1.5' } });
    fireEvent.change(within(dialog).getByTestId('plan-value'), { target: { value: '10,99' } });
    fireEvent.change(within(dialog).getByTestId('plan-name'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByTestId('plan-save'));
    await waitFor(() => expect(within(dialog).getByText('Obrigatório')).toBeTruthy());
    expect(within(dialog).getByText('Informe um número inteiro maior ou igual a 0')).toBeTruthy();
    expect(within(dialog).queryByText('Informe um valor maior ou igual a 0, com até 2 casas decimais')).toBeNull();
    expect(writes()).toHaveLength(0);
  });
});
