import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, waitFor, within } from '@testing-library/react';
import type { ConnectionStatus, SessionEndReason, UserDto, WhatsappDto, WhatsappSessionChannelPayload } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { notify } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { makeStore, type AppStore } from '../../../app/store';
import en from '../../../i18n/locales/en';
import es from '../../../i18n/locales/es';
import { renderWithProviders } from '../../../test/render';
import ConnectionsPage from '../ConnectionsPage';
import { connectionsApi } from '../connections.api';
import { SESSION_END_TOAST_MS, syncWhatsappEvent, syncWhatsappSessionEvent } from '../connections.socket';
import { forgetSessionEnd, nextSessionEnd, noteSessionEvent } from '../session-end';

const BANNED = 'O WhatsApp bloqueou este número (banimento). As campanhas dele foram pausadas.';
const LOGGED_OUT = 'A conexão foi desconectada no celular. Leia o QR Code novamente.';
const REPLACED = 'Outro aparelho ou sistema abriu esta sessão do WhatsApp. Clique em Tentar novamente para retomá-la.';

const aConnection = (id: number, status: ConnectionStatus, updatedAt = '2026-11-28T10:00:00.000Z'): WhatsappDto =>
  ({ id, companyId: 1, name: `Vendas ${id}`, status, qrcode: '', isDefault: false, token: null, updatedAt }) as WhatsappDto;

const event = (session: WhatsappDto, reason?: SessionEndReason): WhatsappSessionChannelPayload => ({
  action: 'update',
  session,
  ...(reason ? { reason } : {}),
});

const aUser = (profile: 'admin' | 'user'): UserDto =>
  ({ id: 1, name: 'Ana', email: 'ana@x.com', profile, companyId: 1, super: false, queues: [], queueIds: [] }) as unknown as UserDto;

const realFetch = globalThis.fetch;
let listed: WhatsappDto[] = [];
const used = new Set<number>();

beforeEach(() => {
  listed = [];
  jest.spyOn(notify, 'warning').mockImplementation(() => undefined);
  globalThis.fetch = jest.fn(async () => {
    return new Response(JSON.stringify(listed), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.restoreAllMocks();
  for (const id of used) forgetSessionEnd(id);
  used.clear();
});

function storeOf(profile: 'admin' | 'user'): AppStore {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 'session-token', user: aUser(profile) }));
  return store;
}

function send(store: AppStore, session: WhatsappDto, reason?: SessionEndReason): void {
  used.add(session.id);
  syncWhatsappSessionEvent(event(session, reason), store.getState(), store.dispatch);
}

describe('why WhatsApp ended a session (the connection event)', () => {
  it('a DISCONNECTED with a reason records it, the steps to reconnect keep it, CONNECTED or a plain disconnect forget it', () => {
    const banned = nextSessionEnd(undefined, event(aConnection(1, 'DISCONNECTED'), 'banned'));
    expect(banned).toEqual({ reason: 'banned', at: '2026-11-28T10:00:00.000Z' });
    for (const status of ['OPENING', 'qrcode', 'PAIRING', 'TIMEOUT'] as const)
      expect(nextSessionEnd(banned, event(aConnection(1, status)))).toBe(banned);
    expect(nextSessionEnd(banned, event(aConnection(1, 'CONNECTED')))).toBeUndefined();
    expect(nextSessionEnd(banned, event(aConnection(1, 'DISCONNECTED')))).toBeUndefined();
    expect(nextSessionEnd(undefined, event(aConnection(1, 'OPENING')))).toBeUndefined();
    // a reason the web does not know is no reason
    expect(nextSessionEnd(undefined, event(aConnection(1, 'DISCONNECTED'), 'exploded' as SessionEndReason))).toBeUndefined();
  });

  it('an event delivered twice is news once; the same reason at a later time is news again', () => {
    used.add(7);
    const first = event(aConnection(7, 'DISCONNECTED', '2026-11-28T10:00:00.000Z'), 'replaced');
    expect(noteSessionEvent(first)).toEqual({ reason: 'replaced', at: '2026-11-28T10:00:00.000Z' });
    expect(noteSessionEvent(first)).toBeNull();
    expect(noteSessionEvent(event(aConnection(7, 'OPENING', '2026-11-28T10:01:00.000Z')))).toBeNull();
    expect(noteSessionEvent(event(aConnection(7, 'DISCONNECTED', '2026-11-28T10:02:00.000Z'), 'replaced'))).toEqual({
      reason: 'replaced',
      at: '2026-11-28T10:02:00.000Z',
    });
  });

  it('tells an admin why, once, in a lasting toast naming the connection; an agent gets no toast', () => {
    const admin = storeOf('admin');
    const banned = aConnection(3, 'DISCONNECTED');
    send(admin, banned, 'banned');
    send(admin, banned, 'banned');
    expect(notify.warning).toHaveBeenCalledTimes(1);
    expect(notify.warning).toHaveBeenCalledWith(`Conexão Vendas 3: ${BANNED}`, SESSION_END_TOAST_MS);

    send(admin, aConnection(4, 'DISCONNECTED'), 'logged_out');
    expect(notify.warning).toHaveBeenLastCalledWith(`Conexão Vendas 4: ${LOGGED_OUT}`, SESSION_END_TOAST_MS);
    // a session that simply stopped (no reason) says nothing
    send(admin, aConnection(5, 'DISCONNECTED'));
    expect(notify.warning).toHaveBeenCalledTimes(2);

    send(storeOf('user'), aConnection(6, 'DISCONNECTED'), 'replaced');
    expect(notify.warning).toHaveBeenCalledTimes(2);
  });

  it('has its texts in English and Spanish', () => {
    for (const texts of [en.connections.sessionEnd, es.connections.sessionEnd]) {
      for (const key of ['banned', 'logged_out', 'replaced', 'toast'] as const) expect(texts[key].trim()).not.toBe('');
      expect(texts.toast).toContain('{{name}}');
      expect(texts.toast).toContain('{{reason}}');
    }
    expect(en.connections.sessionEnd.replaced).toContain(en.connections.buttons.tryAgain);
    expect(es.connections.sessionEnd.replaced).toContain(es.connections.buttons.tryAgain);
  });
});

describe('/connections: the line of a session WhatsApp ended', () => {
  function renderPage(store: AppStore) {
    return renderWithProviders(
      <Routes>
        <Route path="/connections" element={<ConnectionsPage />} />
      </Routes>,
      { store, route: '/connections' },
    );
  }
  const row = (r: ReturnType<typeof renderPage>, id: number): HTMLElement => {
    const found = r.getAllByTestId('connection-row').find((el) => el.getAttribute('data-connection-id') === String(id));
    if (!found) throw new Error(`no row of connection ${id}`);
    return found;
  };

  it('shows why on the connection until it reconnects', async () => {
    listed = [aConnection(11, 'CONNECTED'), aConnection(12, 'CONNECTED')];
    const store = storeOf('admin');
    const r = renderPage(store);
    await waitFor(() => expect(r.getAllByTestId('connection-row')).toHaveLength(2));
    expect(r.queryByTestId('connection-session-end')).toBeNull();

    act(() => send(store, aConnection(11, 'DISCONNECTED', '2026-11-28T11:00:00.000Z'), 'replaced'));
    const line = await waitFor(() => within(row(r, 11)).getByTestId('connection-session-end'));
    expect(line.textContent).toBe(REPLACED);
    expect(line.getAttribute('data-reason')).toBe('replaced');
    expect(row(r, 11).getAttribute('data-status')).toBe('DISCONNECTED');
    expect(within(row(r, 12)).queryByTestId('connection-session-end')).toBeNull();

    // "try again": opening, the reason still stands
    act(() => send(store, aConnection(11, 'OPENING', '2026-11-28T11:01:00.000Z')));
    await waitFor(() => expect(row(r, 11).getAttribute('data-status')).toBe('OPENING'));
    expect(within(row(r, 11)).getByTestId('connection-session-end').textContent).toBe(REPLACED);

    act(() => send(store, aConnection(11, 'CONNECTED', '2026-11-28T11:02:00.000Z')));
    await waitFor(() => expect(row(r, 11).getAttribute('data-status')).toBe('CONNECTED'));
    expect(r.queryByTestId('connection-session-end')).toBeNull();
  });

  it('shows the reason the connection keeps after a reload, until it reconnects', async () => {
    listed = [{ ...aConnection(15, 'DISCONNECTED'), endReason: 'banned' }, aConnection(16, 'DISCONNECTED')];
    const store = storeOf('admin');
    const r = renderPage(store);
    await waitFor(() => expect(r.getAllByTestId('connection-row')).toHaveLength(2));
    const line = within(row(r, 15)).getByTestId('connection-session-end');
    expect(line.textContent).toBe(BANNED);
    expect(within(row(r, 16)).queryByTestId('connection-session-end')).toBeNull();

    act(() => send(store, aConnection(15, 'CONNECTED', '2026-11-28T12:00:00.000Z')));
    await waitFor(() => expect(row(r, 15).getAttribute('data-status')).toBe('CONNECTED'));
    expect(r.queryByTestId('connection-session-end')).toBeNull();
  });

  it('a ban shows as an error; a deleted connection leaves nothing behind', async () => {
    listed = [aConnection(13, 'CONNECTED')];
    const store = storeOf('admin');
    const r = renderPage(store);
    await waitFor(() => expect(r.getAllByTestId('connection-row')).toHaveLength(1));
    act(() => send(store, aConnection(13, 'DISCONNECTED'), 'banned'));
    const line = await waitFor(() => r.getByTestId('connection-session-end'));
    expect(line.textContent).toBe(BANNED);
    expect(line.getAttribute('data-reason')).toBe('banned');

    act(() => syncWhatsappEvent({ action: 'delete', whatsappId: 13 }, store.dispatch));
    await waitFor(() => expect(r.queryAllByTestId('connection-row')).toHaveLength(0));
    expect(connectionsApi.endpoints.listWhatsapps.select()(store.getState()).data).toEqual([]);
    // the same id coming back later (a new list) carries no old reason
    act(() => {
      store.dispatch(connectionsApi.util.updateQueryData('listWhatsapps', undefined, () => [aConnection(13, 'DISCONNECTED')]));
    });
    await waitFor(() => expect(r.getAllByTestId('connection-row')).toHaveLength(1));
    expect(r.queryByTestId('connection-session-end')).toBeNull();
  });
});
