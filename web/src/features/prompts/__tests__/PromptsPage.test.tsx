import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { PlanDto, UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import { aQueue } from '../../../test/a-queue';
import PromptsPage from '../PromptsPage';
import { aPrompt } from '../../../test/a-prompt';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; search: string; body: unknown }> = [];
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;

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
    if (url.pathname === '/prompt')
      body = req.method === 'GET' ? { prompts: [aPrompt(3, 'Atendente')], count: 1, hasMore: false } : { ...aPrompt(9, 'Novo'), ...sent };
    else if (url.pathname.startsWith('/prompt/'))
      body = req.method === 'DELETE' ? { message: 'Prompt deleted' } : { ...aPrompt(3, 'Atendente'), ...sent };
    else if (url.pathname === '/queue') body = [aQueue(5, 'Vendas', 1), aQueue(6, 'Suporte', 2)];
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

function aUser(plan: Partial<PlanDto>, profile: UserDto['profile'] = 'admin'): UserDto {
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
      <Route path="/prompts" element={<PromptsPage />} />
      <Route path="/" element={<div data-testid="home" />} />
      <Route path="/tickets" element={<div data-testid="tickets" />} />
    </Routes>,
    { store, route: '/prompts' },
  );
}

const writes = () => calls.filter((c) => c.method !== 'GET');

describe('/prompts (spec 02 §2 "Prompts", §5, §6)', () => {
  it('lists the prompts with their queue and max tokens; a new one needs a queue, then is sent whole', async () => {
    const r = renderFor(aUser({ useOpenAi: true }));
    const row = await waitFor(() => r.getByTestId('prompt-row-3'));
    expect(within(row).getByTestId('prompt-name-cell').textContent).toBe('Atendente');
    expect(within(row).getByTestId('prompt-queue-cell').textContent).toBe('Vendas');
    expect(within(row).getByTestId('prompt-max-tokens-cell').textContent).toBe('100');
    expect(calls.find((c) => c.path === '/prompt')?.search).toBe('?pageNumber=1');

    fireEvent.click(r.getByTestId('prompts-add'));
    const dialog = await waitFor(() => r.getByTestId('prompt-dialog'));
    // the defaults
    expect((within(dialog).getByLabelText(/Máximo de tokens/) as HTMLInputElement).value).toBe('100');
    expect((within(dialog).getByTestId('prompt-temperature') as HTMLInputElement).value).toBe('1');
    expect((within(dialog).getByTestId('prompt-max-messages') as HTMLInputElement).value).toBe('10');
    expect((within(dialog).getByTestId('prompt-voice') as HTMLSelectElement).value).toBe('texto');

    fireEvent.change(within(dialog).getByLabelText(/^Nome/), { target: { value: 'Vendedor virtual' } });
    fireEvent.change(within(dialog).getByTestId('prompt-prompt'), {
      target: { value: 'Você é o vendedor virtual da loja e responde sobre preços e prazos de entrega.' },
    });
    fireEvent.change(within(dialog).getByLabelText(/Chave da API/), { target: { value: 'sk-test-1234' } });
    fireEvent.click(within(dialog).getByTestId('prompt-save'));
    await waitFor(() => expect(within(dialog).getByText('Informe o setor')).toBeTruthy());
    expect(writes()).toHaveLength(0);

    await waitFor(() => expect(within(dialog).getByText('Suporte')).toBeTruthy());
    fireEvent.change(within(dialog).getByTestId('prompt-queue'), { target: { value: '6' } });
    expect(within(dialog).queryByText('Informe o setor')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('prompt-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({
      method: 'POST',
      path: '/prompt',
      search: '',
      body: {
        name: 'Vendedor virtual',
        prompt: 'Você é o vendedor virtual da loja e responde sobre preços e prazos de entrega.',
        queueId: 6,
        voice: 'texto',
        voiceKey: '',
        voiceRegion: '',
        maxTokens: 100,
        temperature: 1,
        maxMessages: 10,
        apiKey: 'sk-test-1234',
      },
    });
    await waitFor(() => expect(r.queryByTestId('prompt-dialog')).toBeNull());
    // the list is fetched again
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET' && c.path === '/prompt').length).toBeGreaterThan(1));
  });

  it("shows the server's checks on the fields", async () => {
    answer = (method, path) =>
      method === 'POST' && path === '/prompt'
        ? {
            status: 400,
            body: {
              error: 'ERR_VALIDATION',
              message: 'x',
              details: [
                { field: 'name', messages: ['Too Short!'] },
                { field: 'prompt', messages: ['Too Short!'] },
              ],
            },
          }
        : undefined;
    const r = renderFor(aUser({ useOpenAi: true }));
    fireEvent.click(await waitFor(() => r.getByTestId('prompts-add')));
    const dialog = await waitFor(() => r.getByTestId('prompt-dialog'));
    fireEvent.change(within(dialog).getByTestId('prompt-name'), { target: { value: 'Ana' } });
    fireEvent.change(within(dialog).getByTestId('prompt-prompt'), { target: { value: 'curto' } });
    await waitFor(() => expect(within(dialog).getByText('Vendas')).toBeTruthy());
    fireEvent.change(within(dialog).getByTestId('prompt-queue'), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByTestId('prompt-save'));
    await waitFor(() => expect(within(dialog).getAllByText('Too Short!')).toHaveLength(2));
    expect(r.getByTestId('prompt-dialog')).toBeTruthy();
  });

  it('an edit sends the masked key back as shown; a delete asks first', async () => {
    const r = renderFor(aUser({ useOpenAi: true }));
    const row = await waitFor(() => r.getByTestId('prompt-row-3'));
    fireEvent.click(within(row).getByTestId('prompt-edit'));
    const dialog = await waitFor(() => r.getByTestId('prompt-dialog'));
    expect((within(dialog).getByTestId('prompt-api-key') as HTMLInputElement).value).toBe('••••••••abcd');
    await waitFor(() => expect((within(dialog).getByTestId('prompt-queue') as HTMLSelectElement).value).toBe('5'));
    fireEvent.change(within(dialog).getByTestId('prompt-max-tokens'), { target: { value: '250' } });
    fireEvent.click(within(dialog).getByTestId('prompt-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({ method: 'PUT', path: '/prompt/3', body: { apiKey: '••••••••abcd', maxTokens: 250, queueId: 5 } });
    await waitFor(() => expect(r.queryByTestId('prompt-dialog')).toBeNull());

    fireEvent.click(within(r.getByTestId('prompt-row-3')).getByTestId('prompt-delete'));
    fireEvent.click(await waitFor(() => r.getByTestId('confirm-ok')));
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[1]).toMatchObject({ method: 'DELETE', path: '/prompt/3' });
  });

  it('a neural voice asks for its key and region', async () => {
    const r = renderFor(aUser({ useOpenAi: true }));
    fireEvent.click(await waitFor(() => r.getByTestId('prompts-add')));
    const dialog = await waitFor(() => r.getByTestId('prompt-dialog'));
    expect(within(dialog).queryByTestId('prompt-voice-key')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Voz'), { target: { value: 'pt-BR-FranciscaNeural' } });
    expect(within(dialog).getByLabelText('Chave do serviço de voz')).toBeTruthy();
    expect(within(dialog).getByLabelText('Região do serviço de voz')).toBeTruthy();
  });

  it('without the plan: the notice, then / after 1 s', async () => {
    const r = renderFor(aUser({ useOpenAi: false }));
    expect(r.getByTestId('page-not-allowed').textContent).toBe(
      'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
    );
    expect(r.queryByTestId('prompts-page')).toBeNull();
    await waitFor(() => expect(r.getByTestId('home')).toBeTruthy(), { timeout: 3000 });
    expect(calls.filter((c) => c.path === '/prompt')).toHaveLength(0);
  });

  it('is an admin screen', async () => {
    const r = renderFor(aUser({ useOpenAi: true }, 'user'));
    await waitFor(() => expect(r.getByTestId('tickets')).toBeTruthy());
  });
});
