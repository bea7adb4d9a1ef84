import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { PlanDto, UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import QueueIntegrationsPage from '../QueueIntegrationsPage';
import { anIntegration } from './an-integration';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; search: string; body: unknown }> = [];
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;

const CREDENTIALS = JSON.stringify({ client_email: 'bot@projeto.iam.gserviceaccount.com', private_key: 'k' });

beforeEach(() => {
  calls = [];
  answer = () => undefined;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    const sent = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    calls.push({ method: req.method, path: url.pathname, search: url.search, body: sent });
    const custom = answer(req.method, url.pathname);
    if (custom)
      return new Response(JSON.stringify(custom.body), { status: custom.status, headers: { 'content-type': 'application/json' } });
    let body: unknown = {};
    if (url.pathname === '/queueIntegration') {
      body =
        req.method === 'GET'
          ? {
              queueIntegrations: [anIntegration(2, 'webhook', 'Meu hook'), anIntegration(4, 'dialogflow', 'Bot DF')],
              count: 2,
              hasMore: false,
            }
          : { ...anIntegration(9, 'webhook', 'Novo'), ...sent };
    } else if (url.pathname === '/queueIntegration/testSession') {
      body = { ok: true, projectName: sent?.projectName, clientEmail: 'bot@projeto.iam.gserviceaccount.com', language: sent?.language };
    } else if (url.pathname.startsWith('/queueIntegration/')) {
      body = req.method === 'DELETE' ? { message: 'Integration deleted' } : { ...anIntegration(2, 'webhook', 'Meu hook'), ...sent };
    }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
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

function renderFor(user: UserDto) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 'session-token', user }));
  return renderWithProviders(
    <Routes>
      <Route path="/queue-integration" element={<QueueIntegrationsPage />} />
      <Route path="/" element={<div data-testid="home" />} />
    </Routes>,
    { store, route: '/queue-integration' },
  );
}

const writes = () => calls.filter((c) => c.method !== 'GET');

describe('/queue-integration (spec 02 §2 "Queue integrations", §5, §6)', () => {
  it('lists type icon, id and name; the search waits for the typing to stop', async () => {
    const r = renderFor(anAdmin({ useIntegrations: true }));
    const row = await waitFor(() => r.getByTestId('integration-row-2'));
    expect(within(row).getByRole('img', { name: 'Webhook' })).toBeTruthy();
    expect(within(row).getByTestId('integration-id-cell').textContent).toBe('2');
    expect(within(row).getByTestId('integration-name-cell').textContent).toBe('Meu hook');
    expect(within(r.getByTestId('integration-row-4')).getByRole('img', { name: 'Dialogflow' })).toBeTruthy();
    expect(r.getByTestId('integrations-count').textContent).toBe('(2)');

    fireEvent.change(r.getByLabelText('Pesquisar...'), { target: { value: 'ho' } });
    fireEvent.change(r.getByLabelText('Pesquisar...'), { target: { value: 'hook' } });
    await waitFor(
      () => expect(calls.some((c) => c.path === '/queueIntegration' && c.search === '?searchParam=hook&pageNumber=1')).toBe(true),
      { timeout: 2000 },
    );
    expect(calls.some((c) => c.search.includes('searchParam=ho&'))).toBe(false);
  });

  it('a webhook needs a name and a URL; its project is its name', async () => {
    const r = renderFor(anAdmin({ useIntegrations: true }));
    fireEvent.click(await waitFor(() => r.getByTestId('integrations-add')));
    const dialog = await waitFor(() => r.getByTestId('integration-dialog'));
    fireEvent.change(within(dialog).getByLabelText('Tipo'), { target: { value: 'webhook' } });
    expect(within(dialog).queryByTestId('integration-typebot-slug')).toBeNull();
    expect(within(dialog).queryByTestId('integration-json-content')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('integration-save'));
    await waitFor(() => expect(within(dialog).getAllByText('Required')).toHaveLength(2));
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'A' } });
    expect(within(dialog).getByText('Too Short!')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Avisos' } });
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'example.com' } });
    expect(within(dialog).getByText('URL inválida')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'http://93.184.215.14/hook' } });
    fireEvent.click(within(dialog).getByTestId('integration-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({
      method: 'POST',
      path: '/queueIntegration',
      search: '',
      body: { type: 'webhook', name: 'Avisos', projectName: 'Avisos', urlN8N: 'http://93.184.215.14/hook' },
    });
    await waitFor(() => expect(r.queryByTestId('integration-dialog')).toBeNull());
  });

  it("a typebot needs its slug and has the defaults; the server's refusal shows on the field", async () => {
    answer = (method, path) =>
      method === 'POST' && path === '/queueIntegration'
        ? {
            status: 400,
            body: {
              error: 'ERR_VALIDATION',
              message: 'x',
              details: [{ field: 'urlN8N', messages: ['Endereço não permitido: rede privada, local ou de link'] }],
            },
          }
        : undefined;
    const r = renderFor(anAdmin({ useIntegrations: true }));
    fireEvent.click(await waitFor(() => r.getByTestId('integrations-add')));
    const dialog = await waitFor(() => r.getByTestId('integration-dialog'));
    expect((within(dialog).getByLabelText('Tipo') as HTMLSelectElement).value).toBe('typebot');
    expect((within(dialog).getByLabelText('Expirar a sessão após (minutos)') as HTMLInputElement).value).toBe('1');
    expect((within(dialog).getByLabelText('Intervalo entre mensagens (ms)') as HTMLInputElement).value).toBe('1000');
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Typebot vendas' } });
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'http://10.0.0.5' } });
    fireEvent.click(within(dialog).getByTestId('integration-save'));
    await waitFor(() => expect(within(dialog).getByText('Required')).toBeTruthy());
    expect(writes()).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('Typebot slug'), { target: { value: 'vendas' } });
    fireEvent.change(within(dialog).getByLabelText('Palavra para finalizar o atendimento'), { target: { value: '#sair' } });
    fireEvent.click(within(dialog).getByTestId('integration-save'));
    await waitFor(() => expect(within(dialog).getByText('Endereço não permitido: rede privada, local ou de link')).toBeTruthy());
    expect(writes()[0]?.body).toMatchObject({
      type: 'typebot',
      projectName: 'Typebot vendas',
      typebotSlug: 'vendas',
      typebotExpires: 1,
      typebotDelayMessage: 1000,
      typebotKeywordFinish: '#sair',
    });
  });

  it('dialogflow: masked credentials go back as shown; the session test needs them pasted again', async () => {
    const r = renderFor(anAdmin({ useIntegrations: true }));
    const row = await waitFor(() => r.getByTestId('integration-row-4'));
    fireEvent.click(within(row).getByTestId('integration-edit'));
    const dialog = await waitFor(() => r.getByTestId('integration-dialog'));
    expect((within(dialog).getByTestId('integration-json-content') as HTMLTextAreaElement).value).toBe('••••••••');
    expect(within(dialog).queryByTestId('integration-url')).toBeNull();
    const languages = Array.from((within(dialog).getByLabelText('Idioma') as HTMLSelectElement).options).map((o) => o.value);
    expect(languages).toEqual(['pt-BR', 'en', 'es']);

    fireEvent.click(within(dialog).getByTestId('integration-test-session'));
    expect(within(dialog).getByTestId('integration-test-result').getAttribute('data-state')).toBe('failed');
    expect(calls.some((c) => c.path === '/queueIntegration/testSession')).toBe(false);

    fireEvent.change(within(dialog).getByTestId('integration-json-content'), { target: { value: CREDENTIALS } });
    fireEvent.change(within(dialog).getByLabelText('Idioma'), { target: { value: 'es' } });
    fireEvent.click(within(dialog).getByTestId('integration-test-session'));
    await waitFor(() => expect(within(dialog).getByTestId('integration-test-result').getAttribute('data-state')).toBe('ok'));
    expect(within(dialog).getByTestId('integration-test-result').textContent).toBe('Sessão válida: bot@projeto.iam.gserviceaccount.com');
    expect(calls.find((c) => c.path === '/queueIntegration/testSession')?.body).toEqual({
      projectName: 'projeto-df',
      jsonContent: CREDENTIALS,
      language: 'es',
    });

    answer = (method, path) =>
      path === '/queueIntegration/testSession'
        ? {
            status: 400,
            body: { error: 'ERR_VALIDATION', message: 'x', details: [{ field: 'jsonContent', messages: ['Credenciais inválidas'] }] },
          }
        : undefined;
    fireEvent.change(within(dialog).getByTestId('integration-json-content'), { target: { value: '{}' } });
    fireEvent.click(within(dialog).getByTestId('integration-test-session'));
    await waitFor(() => expect(within(dialog).getByTestId('integration-test-result').getAttribute('data-state')).toBe('failed'));
    expect(within(dialog).getByTestId('integration-test-result').textContent).toBe('Falha ao testar a sessão: Credenciais inválidas');
    answer = () => undefined;

    fireEvent.change(within(dialog).getByTestId('integration-json-content'), { target: { value: '••••••••' } });
    fireEvent.click(within(dialog).getByTestId('integration-save'));
    await waitFor(() => expect(writes().filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(writes().find((c) => c.method === 'PUT')).toMatchObject({
      path: '/queueIntegration/4',
      body: { type: 'dialogflow', name: 'Bot DF', projectName: 'projeto-df', jsonContent: '••••••••', language: 'es' },
    });
  });

  it('a delete asks first', async () => {
    const r = renderFor(anAdmin({ useIntegrations: true }));
    const row = await waitFor(() => r.getByTestId('integration-row-2'));
    fireEvent.click(within(row).getByTestId('integration-delete'));
    fireEvent.click(await waitFor(() => r.getByTestId('confirm-ok')));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({ method: 'DELETE', path: '/queueIntegration/2' });
  });

  it('without the plan: the notice, then / after 1 s', async () => {
    const r = renderFor(anAdmin({ useIntegrations: false }));
    expect(r.getByTestId('page-not-allowed').textContent).toBe(
      'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
    );
    await waitFor(() => expect(r.getByTestId('home')).toBeTruthy(), { timeout: 3000 });
    expect(calls.filter((c) => c.path.startsWith('/queueIntegration'))).toHaveLength(0);
  });
});
