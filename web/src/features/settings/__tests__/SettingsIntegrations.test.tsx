import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor, within } from '@testing-library/react';
import { SocketChannels, type UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { loadToaster, ToasterHost } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { RealtimeContext } from '../../../realtime/RealtimeProvider';
import type { RealtimeClient } from '../../../realtime/realtime-client';
import { useSocketCacheSync } from '../../../realtime/use-socket-cache-sync';
import { settingsSocket } from '../settings.socket';
import { renderWithProviders } from '../../../test/render';
import SettingsPage from '../SettingsPage';

/**
 * The Opcoes tab's Integrações (IXC, MK-AUTH, ASAAS) and the live settings channel, against a fake server
 * that keeps the secrets as the real one does: whole inside, masked (`••••` + last 4) in every answer.
 */
const UPDATED = 'Operação atualizada com sucesso.';
const SECRETS = new Set(['tokenixc', 'clientsecretmkauth', 'asaas']);
const mask = (key: string, value: string) => (SECRETS.has(key) && value ? `••••${value.slice(-4)}` : value);

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; body: unknown }> = [];
let stored: Record<string, string> = {};
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;
/** when set, a PUT waits for it (to look at the page while it is on its way) */
let gate: Promise<void> | null = null;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  calls = [];
  answer = () => undefined;
  gate = null;
  stored = { call: 'enabled', userRating: 'disabled', ipixc: 'ixc.loja.com.br', tokenixc: 'segredo-123456789', asaas: '' };
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    const sent = text ? (JSON.parse(text) as { value?: unknown }) : undefined;
    calls.push({ method: req.method, path: url.pathname, body: sent });
    const custom = answer(req.method, url.pathname);
    if (custom) return json(custom.body, custom.status);
    if (!url.pathname.startsWith('/settings')) return json({});
    if (req.method === 'GET') return json(Object.entries(stored).map(([key, value]) => ({ key, value: mask(key, value) })));
    if (gate) await gate;
    const key = decodeURIComponent(url.pathname.split('/')[2] ?? '');
    const value = String(sent?.value ?? '');
    // a masked value sent back changes nothing
    if (!value.startsWith('••••')) stored[key] = value;
    return json({ key, value: mask(key, stored[key] ?? '') });
  }) as unknown as typeof fetch;
});
afterEach(async () => {
  globalThis.fetch = realFetch;
  // the toaster outlives a test: its toasts must not show in the next one
  (await loadToaster()).toaster.remove();
});

const anAdmin = (): UserDto => ({
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
});

/** A stand-in for the live socket: the test fires the server's events. */
function fakeSocket() {
  const handlers = new Map<string, (p: unknown) => void>();
  const client = {
    on: (channel: string, h: (p: unknown) => void) => {
      handlers.set(channel, h);
      return () => handlers.delete(channel);
    },
    join: () => () => undefined,
  } as unknown as RealtimeClient;
  return { client, fire: (channel: string, payload: unknown) => act(() => handlers.get(channel)?.(payload)) };
}

/** The layout's live-event hook, as the signed-in frame mounts it. */
function SocketSync() {
  useSocketCacheSync(settingsSocket);
  return null;
}

async function renderPage() {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 't', user: anAdmin() }));
  const socket = fakeSocket();
  const r = renderWithProviders(
    <RealtimeContext.Provider value={socket.client}>
      <SocketSync />
      <Routes>
        <Route path="/settings" element={<SettingsPage />} />
      </Routes>
      <ToasterHost />
    </RealtimeContext.Provider>,
    { store, route: '/settings' },
  );
  await waitFor(() => r.getByTestId('settings-integrations'));
  return { ...r, socket };
}

const writes = () => calls.filter((c) => c.method !== 'GET');
const input = (r: Awaited<ReturnType<typeof renderPage>>, key: string) => r.getByTestId(`setting-field-${key}`) as HTMLInputElement;

describe('Opcoes tab: Integrações (spec 02 §3 ipixc … asaas)', () => {
  it('shows a labelled field for each integration key the server returned, in its group', async () => {
    const r = await renderPage();
    const ixc = r.getByTestId('settings-integration-ixc');
    expect(within(ixc).getByText('IXC')).toBeTruthy();
    expect(r.getByLabelText('IP do IXC')).toBe(input(r, 'ipixc'));
    expect(r.getByLabelText('Token do IXC')).toBe(input(r, 'tokenixc'));
    expect(r.getByLabelText('Token Asaas')).toBe(input(r, 'asaas'));
    // the company has no MK-AUTH keys: no group, no fields
    expect(r.queryByTestId('settings-integration-mkauth')).toBeNull();
    expect(r.queryByTestId('setting-field-ipmkauth')).toBeNull();
    expect(r.queryByTestId('setting-field-clientsecretmkauth')).toBeNull();
    // the selectors are still there, above
    expect((r.getByLabelText('Avaliações') as HTMLSelectElement).value).toBe('disabled');
  });

  it('an address shows its value and is saved when the field is left changed', async () => {
    const r = await renderPage();
    expect(input(r, 'ipixc').value).toBe('ixc.loja.com.br');
    expect(input(r, 'ipixc').type).toBe('text');

    // left unchanged: nothing is sent
    fireEvent.focus(input(r, 'ipixc'));
    fireEvent.blur(input(r, 'ipixc'));
    fireEvent.change(input(r, 'ipixc'), { target: { value: ' 10.0.0.5 ' } });
    expect(writes()).toEqual([]);
    expect(input(r, 'ipixc').value).toBe(' 10.0.0.5 ');

    fireEvent.blur(input(r, 'ipixc'));
    await waitFor(() => expect(writes()).toEqual([{ method: 'PUT', path: '/settings/ipixc', body: { value: '10.0.0.5' } }]));
    await r.findByText(UPDATED);
    expect(input(r, 'ipixc').value).toBe('10.0.0.5');
  });

  it('a secret starts empty with its mask as placeholder; unset, it says so and has no Remover', async () => {
    const r = await renderPage();
    const token = input(r, 'tokenixc');
    expect(token.type).toBe('password');
    expect(token.value).toBe('');
    expect(token.placeholder).toBe('••••6789');
    expect(r.getByTestId('setting-clear-tokenixc')).toBeTruthy();

    const asaas = input(r, 'asaas');
    expect(asaas.type).toBe('password');
    expect(asaas.value).toBe('');
    expect(asaas.placeholder).toBe('Não configurado');
    expect(r.queryByTestId('setting-clear-asaas')).toBeNull();

    // leaving it with nothing typed changes nothing
    fireEvent.focus(token);
    fireEvent.blur(token);
    expect(writes()).toEqual([]);
  });

  it('a secret typed in is sent when the field is left; then it empties again and shows the new mask from the answer', async () => {
    let open = () => undefined as void;
    gate = new Promise<void>((res) => (open = res));
    const r = await renderPage();
    fireEvent.change(input(r, 'tokenixc'), { target: { value: 'novo-token-4321' } });
    fireEvent.blur(input(r, 'tokenixc'));
    await waitFor(() => expect(writes()).toEqual([{ method: 'PUT', path: '/settings/tokenixc', body: { value: 'novo-token-4321' } }]));
    // on its way: the field waits, and the typed secret is not put in the cached settings list
    expect(input(r, 'tokenixc').disabled).toBe(true);
    expect(JSON.stringify(r.store.getState().api.queries)).not.toContain('novo-token-4321');
    open();

    await r.findByText(UPDATED);
    await waitFor(() => expect(input(r, 'tokenixc').placeholder).toBe('••••4321'));
    expect(input(r, 'tokenixc').value).toBe('');
    expect(input(r, 'tokenixc').disabled).toBe(false);
    // nor kept anywhere in the store once answered
    expect(JSON.stringify(r.store.getState())).not.toContain('novo-token-4321');
  });

  it('Enter saves a secret too; an unset one gets its Remover once set', async () => {
    const r = await renderPage();
    fireEvent.change(input(r, 'asaas'), { target: { value: '$aact_chave_0001' } });
    fireEvent.keyDown(input(r, 'asaas'), { key: 'Enter' });
    // the blur that may follow does not send it twice
    fireEvent.blur(input(r, 'asaas'));
    await waitFor(() => expect(input(r, 'asaas').placeholder).toBe('••••0001'));
    expect(writes()).toEqual([{ method: 'PUT', path: '/settings/asaas', body: { value: '$aact_chave_0001' } }]);
    expect(input(r, 'asaas').value).toBe('');
    expect(r.getByTestId('setting-clear-asaas')).toBeTruthy();
  });

  it('Remover clears the secret (PUT with an empty value)', async () => {
    const r = await renderPage();
    fireEvent.click(r.getByTestId('setting-clear-tokenixc'));
    await waitFor(() => expect(writes()).toEqual([{ method: 'PUT', path: '/settings/tokenixc', body: { value: '' } }]));
    await r.findByText(UPDATED);
    await waitFor(() => expect(input(r, 'tokenixc').placeholder).toBe('Não configurado'));
    expect(r.queryByTestId('setting-clear-tokenixc')).toBeNull();
  });

  it('a refused secret stays typed in, to try again', async () => {
    answer = (method) => (method === 'PUT' ? { status: 403, body: { error: 'ERR_NO_PERMISSION', message: 'Forbidden' } } : undefined);
    const r = await renderPage();
    fireEvent.change(input(r, 'tokenixc'), { target: { value: 'outro-token' } });
    fireEvent.blur(input(r, 'tokenixc'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    await waitFor(() => expect(input(r, 'tokenixc').disabled).toBe(false));
    expect(input(r, 'tokenixc').value).toBe('outro-token');
    expect(input(r, 'tokenixc').placeholder).toBe('••••6789');
    expect(r.queryByText(UPDATED)).toBeNull();
  });
});

describe('live settings (company-<id>-settings)', () => {
  it("another admin's change shows at once, without a request: a selector, an address, a secret's mask", async () => {
    const r = await renderPage();
    const before = calls.length;
    r.socket.fire(SocketChannels.settings(7), { action: 'update', setting: { key: 'userRating', value: 'enabled' } });
    r.socket.fire(SocketChannels.settings(7), { action: 'update', setting: { key: 'ipixc', value: '192.168.0.9' } });
    r.socket.fire(SocketChannels.settings(7), { action: 'update', setting: { key: 'asaas', value: '••••wxyz' } });
    await waitFor(() => expect((r.getByLabelText('Avaliações') as HTMLSelectElement).value).toBe('enabled'));
    expect(input(r, 'ipixc').value).toBe('192.168.0.9');
    expect(input(r, 'asaas').placeholder).toBe('••••wxyz');
    expect(input(r, 'asaas').value).toBe('');
    expect(r.getByTestId('setting-clear-asaas')).toBeTruthy();
    // a key the company does not have is not added
    r.socket.fire(SocketChannels.settings(7), { action: 'update', setting: { key: 'ipmkauth', value: '10.1.1.1' } });
    expect(r.queryByTestId('setting-field-ipmkauth')).toBeNull();
    expect(calls.length).toBe(before);
  });

  it('what is being typed in an address is not overwritten by a live change', async () => {
    const r = await renderPage();
    fireEvent.change(input(r, 'ipixc'), { target: { value: 'digitando' } });
    r.socket.fire(SocketChannels.settings(7), { action: 'update', setting: { key: 'ipixc', value: '192.168.0.9' } });
    r.socket.fire(SocketChannels.settings(7), { action: 'update', setting: { key: 'userRating', value: 'enabled' } });
    await waitFor(() => expect((r.getByLabelText('Avaliações') as HTMLSelectElement).value).toBe('enabled'));
    expect(input(r, 'ipixc').value).toBe('digitando');
    // left, what was typed is saved over the other admin's value
    fireEvent.blur(input(r, 'ipixc'));
    await waitFor(() => expect(writes()).toEqual([{ method: 'PUT', path: '/settings/ipixc', body: { value: 'digitando' } }]));
  });
});
