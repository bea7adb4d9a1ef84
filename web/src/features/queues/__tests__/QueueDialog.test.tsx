import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { PlanDto, QueueDto, QueueScheduleDto, UserDto } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import { aPrompt } from '../../../test/a-prompt';
import { anIntegration } from '../../queue-integrations/__tests__/an-integration';
import { QueueDialog } from '../QueueDialog';
import { aQueue } from '../../../test/a-queue';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; body: unknown }> = [];
let scheduleType = 'queue';
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;

beforeEach(() => {
  calls = [];
  scheduleType = 'queue';
  answer = () => undefined;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    const sent = text ? (JSON.parse(text) as Partial<QueueDto>) : undefined;
    calls.push({ method: req.method, path: url.pathname, body: sent });
    const custom = answer(req.method, url.pathname);
    if (custom)
      return new Response(JSON.stringify(custom.body), { status: custom.status, headers: { 'content-type': 'application/json' } });
    let body: unknown = {};
    if (url.pathname.startsWith('/settings')) body = [{ key: 'scheduleType', value: scheduleType }];
    else if (url.pathname === '/queue') body = [aQueue(5, 'Vendas', 1)];
    else if (url.pathname === '/prompt') body = { prompts: [aPrompt(3, 'Atendente'), aPrompt(4, 'Vendedor')], count: 2, hasMore: false };
    else if (url.pathname === '/queueIntegration')
      body = { queueIntegrations: [anIntegration(2, 'typebot', 'Typebot vendas')], count: 1, hasMore: false };
    else if (url.pathname.startsWith('/queue/')) body = { ...aQueue(5, 'Vendas', 1), ...sent };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

const queueWrites = () => calls.filter((c) => c.method !== 'GET' && c.path.startsWith('/queue'));
const sentSchedules = (i: number) => (queueWrites()[i]?.body as { schedules: QueueScheduleDto[] }).schedules;

describe('queue dialog: the schedules tab (spec 02 §2 "Queues", §4)', () => {
  it('is there only when scheduleType is queue; kept hours go with the queue when it is saved', async () => {
    const onClose = jest.fn();
    const r = renderWithProviders(<QueueDialog queue={aQueue(5, 'Vendas', 1)} onClose={onClose} />);
    const dialog = await waitFor(() => r.getByTestId('queue-dialog'));
    fireEvent.click(await waitFor(() => within(dialog).getByTestId('queue-tab-schedules')));
    const editor = await waitFor(() => within(dialog).getByTestId('queue-schedules'));
    // no hours saved: the defaults are shown, and none would be sent
    expect((within(editor).getByLabelText('Segunda-feira início') as HTMLInputElement).value).toBe('08:00');
    expect(within(dialog).getByTestId('queue-schedules-note').getAttribute('data-state')).toBe('untouched');

    fireEvent.change(within(editor).getByLabelText('Segunda-feira início'), { target: { value: '09:00' } });
    expect(within(dialog).getByTestId('queue-schedules-note').getAttribute('data-state')).toBe('edited');
    // saving the queue without keeping them sends none
    fireEvent.click(within(dialog).getByTestId('queue-save'));
    await waitFor(() => expect(queueWrites()).toHaveLength(1));
    expect(queueWrites()[0]).toMatchObject({ method: 'PUT', path: '/queue/5' });
    expect(sentSchedules(0)).toEqual([]);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));

    // kept with the tab's button: nothing is sent then, the queue's save takes them
    fireEvent.click(within(editor).getByTestId('queue-schedules-save'));
    await waitFor(() => expect(within(dialog).getByTestId('queue-schedules-note').getAttribute('data-state')).toBe('kept'));
    expect(queueWrites()).toHaveLength(1);
    fireEvent.click(within(dialog).getByTestId('queue-save'));
    await waitFor(() => expect(queueWrites()).toHaveLength(2));
    const days = sentSchedules(1);
    expect(days).toHaveLength(7);
    expect(days[1]).toEqual({ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '09:00', endTime: '18:00' });
    expect(days[6]).toEqual({ weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' });
  });

  it("shows the queue's saved hours; the server's error on a day opens the tab at it", async () => {
    const saved: QueueScheduleDto[] = [{ weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '13:00', endTime: '19:00' }];
    answer = (method) =>
      method === 'PUT'
        ? {
            status: 400,
            body: { error: 'ERR_VALIDATION', message: 'x', details: [{ field: 'schedules.3.startTime', messages: ['Hora inválida'] }] },
          }
        : undefined;
    const r = renderWithProviders(<QueueDialog queue={aQueue(5, 'Vendas', 1, { schedules: saved })} onClose={() => undefined} />);
    const dialog = await waitFor(() => r.getByTestId('queue-dialog'));
    await waitFor(() => within(dialog).getByTestId('queue-tab-schedules'));
    fireEvent.click(within(dialog).getByTestId('queue-save'));
    await waitFor(() => expect(queueWrites()).toHaveLength(1));
    // its hours go back as they are (seven days, the others closed)
    expect(sentSchedules(0).filter((d) => d.startTime !== d.endTime)).toEqual(saved);
    const editor = await waitFor(() => within(dialog).getByTestId('queue-schedules'));
    await waitFor(() => expect(within(editor).getByText('Hora inválida')).toBeTruthy());
    expect((within(editor).getByLabelText('Quarta-feira início') as HTMLInputElement).value).toBe('13:00');
  });

  it("a colour another queue has: the code's text under the colour, on the data tab", async () => {
    answer = (method) => (method === 'PUT' ? { status: 409, body: { error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS', message: 'x' } } : undefined);
    const r = renderWithProviders(<QueueDialog queue={aQueue(5, 'Vendas', 1)} onClose={() => undefined} />);
    const dialog = await waitFor(() => r.getByTestId('queue-dialog'));
    await waitFor(() => within(dialog).getByTestId('queue-tab-schedules'));
    fireEvent.click(within(dialog).getByTestId('queue-tab-schedules'));
    await waitFor(() => within(dialog).getByTestId('queue-schedules'));
    fireEvent.click(within(dialog).getByTestId('queue-save'));
    await waitFor(() => expect(queueWrites()).toHaveLength(1));
    await waitFor(() => expect(within(dialog).getByText('Esta cor já está em uso, escolha outra.')).toBeTruthy());
    expect(within(dialog).getByTestId('queue-name')).toBeTruthy();
  });

  it('without scheduleType queue there is no schedules tab, and a queue without hours is sent with none', async () => {
    scheduleType = 'company';
    const r = renderWithProviders(<QueueDialog queue={aQueue(5, 'Vendas', 1)} onClose={() => undefined} />);
    const dialog = await waitFor(() => r.getByTestId('queue-dialog'));
    await waitFor(() => expect(calls.some((c) => c.path.startsWith('/settings'))).toBe(true));
    fireEvent.click(within(dialog).getByTestId('queue-save'));
    await waitFor(() => expect(queueWrites()).toHaveLength(1));
    expect(within(dialog).queryByTestId('queue-tab-schedules')).toBeNull();
    expect(sentSchedules(0)).toEqual([]);
  });
});

function anAdmin(plan: Partial<PlanDto>): UserDto {
  return {
    id: 1,
    name: 'Admin',
    email: 'admin@x.com',
    profile: 'admin',
    companyId: 1,
    whatsappId: null,
    allTicket: 'enabled',
    super: false,
    online: true,
    queues: [],
    queueIds: [],
    company: {
      id: 1,
      name: 'Loja',
      dueDate: '2027-01-01',
      status: true,
      planId: 1,
      plan: { id: 1, name: 'P', users: 1, connections: 1, queues: 1, value: 0, ...plan } as PlanDto,
      settings: [],
    },
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  };
}

function renderAs(user: UserDto, queue: QueueDto) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 't', user }));
  return renderWithProviders(<QueueDialog queue={queue} onClose={() => undefined} />, { store });
}

describe('queue dialog: prompt and integration (spec 02 §3 "Queue", §6, §7)', () => {
  it("with the plan's useOpenAi and useIntegrations: both pickers, sent with the queue (null for none)", async () => {
    scheduleType = 'disabled';
    const r = renderAs(anAdmin({ useOpenAi: true, useIntegrations: true }), aQueue(5, 'Vendas', 1, { promptId: 3, integrationId: null }));
    const dialog = await waitFor(() => r.getByTestId('queue-dialog'));
    await waitFor(() => expect(within(dialog).getByText('Vendedor')).toBeTruthy());
    await waitFor(() => expect(within(dialog).getByText('Typebot vendas')).toBeTruthy());
    const prompt = within(dialog).getByLabelText('Prompt') as HTMLSelectElement;
    const integration = within(dialog).getByLabelText('Integração') as HTMLSelectElement;
    expect(prompt.value).toBe('3');
    expect(integration.value).toBe('');

    fireEvent.change(integration, { target: { value: '2' } });
    fireEvent.click(within(dialog).getByTestId('queue-save'));
    await waitFor(() => expect(queueWrites()).toHaveLength(1));
    expect(queueWrites()[0]).toMatchObject({ method: 'PUT', path: '/queue/5', body: { promptId: 3, integrationId: 2 } });

    fireEvent.change(prompt, { target: { value: '' } });
    fireEvent.click(within(dialog).getByTestId('queue-save'));
    await waitFor(() => expect(queueWrites()).toHaveLength(2));
    expect(queueWrites()[1]?.body).toMatchObject({ promptId: null, integrationId: 2 });
  });

  it('without those features: no pickers, and the queue keeps what it has (nothing sent for them)', async () => {
    scheduleType = 'disabled';
    const r = renderAs(anAdmin({ useOpenAi: false, useIntegrations: false }), aQueue(5, 'Vendas', 1, { promptId: 3, integrationId: 2 }));
    const dialog = await waitFor(() => r.getByTestId('queue-dialog'));
    expect(within(dialog).queryByTestId('queue-prompt')).toBeNull();
    expect(within(dialog).queryByTestId('queue-integration')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('queue-save'));
    await waitFor(() => expect(queueWrites()).toHaveLength(1));
    const body = queueWrites()[0]?.body as Record<string, unknown>;
    expect('promptId' in body).toBe(false);
    expect('integrationId' in body).toBe(false);
    expect(calls.some((c) => c.path === '/prompt' || c.path === '/queueIntegration')).toBe(false);
  });
});
