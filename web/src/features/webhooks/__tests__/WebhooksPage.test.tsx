import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { WEBHOOK_EVENTS, type PlanDto, type UserDto, type WebhookDeliveryDto, type WebhookSettingsDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import WebhooksPage from '../WebhooksPage';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; search: string; body: unknown }> = [];
let settings: WebhookSettingsDto;
/** the log's pages the server answers, by page number */
let logPages: Record<number, { deliveries: WebhookDeliveryDto[]; hasMore: boolean }>;
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;

const MADE = 'whsec_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';

function aDelivery(id: number, extra: Partial<WebhookDeliveryDto> = {}): WebhookDeliveryDto {
  return {
    id: String(id),
    event: 'message.received',
    ticketId: 3,
    status: 'delivered',
    attempts: 1,
    lastStatus: 200,
    lastError: null,
    createdAt: '2026-11-29T12:00:00.000Z',
    deliveredAt: '2026-11-29T12:00:01.000Z',
    nextAttemptAt: null,
    replayOf: null,
    ...extra,
  };
}

beforeEach(() => {
  calls = [];
  answer = () => undefined;
  settings = { url: null, events: [], enabled: false, hasSecret: false, updatedAt: null };
  logPages = { 1: { deliveries: [], hasMore: false } };
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    const sent = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    calls.push({ method: req.method, path: url.pathname, search: url.search, body: sent });
    const custom = answer(req.method, url.pathname);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (custom) return json(custom.status, custom.body);
    if (url.pathname === '/webhook-settings' && req.method === 'GET') return json(200, settings);
    if (url.pathname === '/webhook-settings' && req.method === 'PUT') {
      const first = !settings.hasSecret;
      settings = {
        ...(sent as Pick<WebhookSettingsDto, 'url' | 'events' | 'enabled'>),
        hasSecret: true,
        updatedAt: new Date().toISOString(),
      };
      return json(200, first ? { ...settings, secret: MADE } : settings);
    }
    if (url.pathname === '/webhook-settings/secret') return json(200, { secret: 'whsec_novo-segredo-0000000000000000000000000000' });
    if (url.pathname === '/webhook-deliveries') {
      const page = Number(url.searchParams.get('pageNumber') ?? 1);
      return json(200, logPages[page] ?? { deliveries: [], hasMore: false });
    }
    const replay = /^\/webhook-deliveries\/(\d+)\/replay$/.exec(url.pathname);
    if (replay)
      return json(202, aDelivery(99, { status: 'pending', attempts: 0, lastStatus: null, deliveredAt: null, replayOf: replay[1] }));
    return json(404, { error: 'ERR_NOT_FOUND' });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

function aUser(profile: 'admin' | 'user', plan: Partial<PlanDto>): UserDto {
  return {
    id: 1,
    name: 'Admin',
    email: 'admin@x.com',
    profile,
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

function renderFor(user: UserDto) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 'session-token', user }));
  return renderWithProviders(
    <Routes>
      <Route path="/webhooks" element={<WebhooksPage />} />
      <Route path="/tickets" element={<div data-testid="tickets" />} />
      <Route path="/" element={<div data-testid="home" />} />
    </Routes>,
    { store, route: '/webhooks' },
  );
}

const admin = () => aUser('admin', { useExternalApi: true });

/** Ticks or unticks an event's checkbox, and waits for it to show so (the checkbox changes a moment after the click). */
async function toggle(r: ReturnType<typeof renderFor>, event: string, to: 'checked' | 'unchecked') {
  fireEvent.click(within(r.getByTestId(`webhook-event-${event}`)).getByRole('checkbox'));
  await waitFor(() => expect(r.getByTestId(`webhook-event-${event}`).getAttribute('data-state')).toBe(to));
}
const writes = () => calls.filter((c) => c.method !== 'GET');

describe('/webhooks (issue 45 §3)', () => {
  it('saves a first webhook and shows the secret the server made, once, in a dialog with a copy button', async () => {
    const clipboard = jest.fn(async (_text: string) => undefined);
    Object.assign(navigator, { clipboard: { writeText: clipboard } });
    const r = renderFor(admin());
    const form = await waitFor(() => r.getByTestId('webhook-form'));
    // every event of the contract is offered, named in Portuguese
    for (const event of WEBHOOK_EVENTS) expect(within(form).getByTestId(`webhook-event-${event}`)).toBeTruthy();
    expect(within(form).getByText('Mensagem recebida')).toBeTruthy();
    expect(within(form).getByText('Status do atendimento')).toBeTruthy();
    expect(r.getByTestId('webhook-secret-state').textContent).toBe('Será gerado ao salvar pela primeira vez.');
    expect(r.queryByTestId('webhook-new-secret')).toBeNull();

    fireEvent.change(r.getByTestId('webhook-url'), { target: { value: 'https://loja.example.com/hook' } });
    await toggle(r, 'ticket.status', 'checked');
    fireEvent.click(r.getByTestId('webhook-save'));
    const dialog = await waitFor(() => r.getByTestId('webhook-secret-dialog'));
    expect(writes()).toEqual([
      {
        method: 'PUT',
        path: '/webhook-settings',
        search: '',
        body: { url: 'https://loja.example.com/hook', events: ['message.received', 'message.sent', 'ticket.status'], enabled: true },
      },
    ]);
    expect(within(dialog).getByText('Guarde agora: não será mostrado de novo.')).toBeTruthy();
    expect((within(dialog).getByTestId('webhook-secret-value') as HTMLInputElement).value).toBe(MADE);
    fireEvent.click(within(dialog).getByTestId('webhook-secret-copy'));
    await waitFor(() => expect(clipboard).toHaveBeenCalledWith(MADE));
    await waitFor(() => expect(within(dialog).getByTestId('webhook-secret-copy').getAttribute('data-copied')).toBe('true'));

    // closed, it is nowhere on the page; the webhook now has a secret, and saving again shows none
    fireEvent.click(within(dialog).getByTestId('webhook-secret-close'));
    await waitFor(() => expect(r.queryByTestId('webhook-secret-dialog')).toBeNull());
    expect(document.body.innerHTML).not.toContain(MADE);
    await waitFor(() => expect(r.getByTestId('webhook-secret-state').textContent).toContain('Definido'));
    fireEvent.click(r.getByTestId('webhook-save'));
    await waitFor(() => expect(writes()).toHaveLength(2));
    await new Promise((res) => setTimeout(res, 50));
    expect(r.queryByTestId('webhook-secret-dialog')).toBeNull();
  });

  it('refuses a form without a URL or without events, and shows the server’s refusal of the URL', async () => {
    const r = renderFor(admin());
    await waitFor(() => r.getByTestId('webhook-form'));
    fireEvent.click(r.getByTestId('webhook-save'));
    await waitFor(() => expect(r.getByText('Obrigatório')).toBeTruthy());
    await toggle(r, 'message.received', 'unchecked');
    await toggle(r, 'message.sent', 'unchecked');
    await waitFor(() => expect(r.getByText('Escolha pelo menos um evento')).toBeTruthy());
    expect(writes()).toEqual([]);

    await toggle(r, 'message.sent', 'checked');
    fireEvent.change(r.getByTestId('webhook-url'), { target: { value: 'http://10.0.0.5/hook' } });
    answer = (method, path) =>
      method === 'PUT' && path === '/webhook-settings'
        ? {
            status: 400,
            body: {
              error: 'ERR_VALIDATION',
              message: 'Validation failed',
              details: [{ field: 'url', messages: ['O endereço aponta para uma rede privada'] }],
            },
          }
        : undefined;
    fireEvent.click(r.getByTestId('webhook-save'));
    await waitFor(() => expect(r.getAllByText('O endereço aponta para uma rede privada').length).toBeGreaterThan(0));
    expect(r.queryByTestId('webhook-secret-dialog')).toBeNull();
  });

  it('makes a new secret after a confirmation and shows it once', async () => {
    settings = {
      url: 'https://loja.example.com/hook',
      events: ['message.received'],
      enabled: true,
      hasSecret: true,
      updatedAt: '2026-11-29T10:00:00.000Z',
    };
    const r = renderFor(admin());
    await waitFor(() => expect((r.getByTestId('webhook-url') as HTMLInputElement).value).toBe('https://loja.example.com/hook'));
    expect(within(r.getByTestId('webhook-event-message.received')).getByRole('checkbox')).toHaveProperty('checked', true);
    expect(within(r.getByTestId('webhook-event-message.sent')).getByRole('checkbox')).toHaveProperty('checked', false);
    fireEvent.click(r.getByTestId('webhook-new-secret'));
    const confirm = await waitFor(() => r.getByTestId('confirm-dialog'));
    expect(within(confirm).getByText('Gerar novo segredo?')).toBeTruthy();
    expect(writes()).toEqual([]);
    fireEvent.click(within(confirm).getByTestId('confirm-ok'));
    const dialog = await waitFor(() => r.getByTestId('webhook-secret-dialog'));
    expect(writes()).toEqual([{ method: 'POST', path: '/webhook-settings/secret', search: '', body: undefined }]);
    expect((within(dialog).getByTestId('webhook-secret-value') as HTMLInputElement).value).toBe(
      'whsec_novo-segredo-0000000000000000000000000000',
    );
  });

  it('lists the deliveries (status, attempts, last result), loads more on "Carregar mais" and puts a replay on top', async () => {
    logPages = {
      1: {
        deliveries: [
          aDelivery(7, { status: 'failed', attempts: 9, lastStatus: 503, lastError: 'HTTP 503', deliveredAt: null }),
          aDelivery(6, {
            event: 'ticket.status',
            status: 'pending',
            attempts: 2,
            lastStatus: null,
            lastError: 'connect ECONNREFUSED',
            deliveredAt: null,
            nextAttemptAt: '2026-11-29T12:05:00.000Z',
          }),
        ],
        hasMore: true,
      },
      2: { deliveries: [aDelivery(5)], hasMore: false },
    };
    const r = renderFor(admin());
    const failed = await waitFor(() => r.getByTestId('webhook-delivery-7'));
    expect(within(failed).getByTestId('webhook-delivery-status').textContent).toBe('Falhou');
    expect(within(failed).getByTestId('webhook-delivery-attempts').textContent).toBe('9');
    expect(within(failed).getByTestId('webhook-delivery-last').textContent).toBe('HTTP 503');
    const pending = r.getByTestId('webhook-delivery-6');
    expect(within(pending).getByText('Status do atendimento')).toBeTruthy();
    expect(within(pending).getByTestId('webhook-delivery-status').textContent).toBe('Pendente');
    expect(within(pending).getByTestId('webhook-delivery-last').textContent).toBe('connect ECONNREFUSED');
    expect(r.queryByTestId('webhook-delivery-5')).toBeNull();

    fireEvent.click(r.getByTestId('webhook-deliveries-more'));
    await waitFor(() => r.getByTestId('webhook-delivery-5'));
    expect(calls.filter((c) => c.path === '/webhook-deliveries').map((c) => c.search)).toContain('?pageNumber=2');
    await waitFor(() => expect(r.queryByTestId('webhook-deliveries-more')).toBeNull());

    fireEvent.click(within(failed).getByTestId('webhook-delivery-replay'));
    await waitFor(() => r.getByTestId('webhook-delivery-99'));
    expect(writes()).toEqual([{ method: 'POST', path: '/webhook-deliveries/7/replay', search: '', body: undefined }]);
    const rows = within(r.getByTestId('webhook-deliveries-table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.getAttribute('data-delivery-id'))).toEqual(['99', '7', '6', '5']);
    expect(rows[0]?.textContent).toContain('reenvio de #7');
    expect(within(r.getByTestId('webhook-delivery-99')).getByTestId('webhook-delivery-status').textContent).toBe('Pendente');
  });

  it('filters the log by status', async () => {
    const r = renderFor(admin());
    await waitFor(() => r.getByTestId('webhook-deliveries-filter'));
    fireEvent.change(r.getByTestId('webhook-deliveries-filter'), { target: { value: 'failed' } });
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/webhook-deliveries' && c.search === '?status=failed&pageNumber=1')).toBe(true),
    );
  });

  it('is for admins whose plan has the public API', async () => {
    const agent = renderFor(aUser('user', { useExternalApi: true }));
    await waitFor(() => agent.getByTestId('tickets'));
    agent.unmount();
    const r = renderFor(aUser('admin', { useExternalApi: false }));
    await waitFor(() => r.getByTestId('page-not-allowed'));
    expect(calls.filter((c) => c.path.startsWith('/webhook'))).toEqual([]);
  });
});
