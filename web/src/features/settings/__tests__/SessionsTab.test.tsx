import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor, within } from '@testing-library/react';
import type { PlatformSessionsPage, SessionConnectionDto, SessionReplicaDto, UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { changeLanguage, i18n } from '../../../app/i18n';
import { loadToaster, ToasterHost } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import en from '../../../i18n/locales/en';
import es from '../../../i18n/locales/es';
import pt from '../../../i18n/locales/pt';
import SettingsPage from '../SettingsPage';
import { SessionsTab } from '../../platform/SessionsTab';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; query: string }> = [];
let replicas: SessionReplicaDto[] = [];
let connections: SessionConnectionDto[] = [];
let count: number | undefined;
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;

const aReplica = (n: number, extra: Partial<SessionReplicaDto> = {}): SessionReplicaDto => ({
  name: `whatsapp-sessions-${n}`,
  pid: 4100 + n,
  host: `node-${n}`,
  startedAt: '2026-11-29T08:00:00.000Z',
  capacity: 200,
  load: 50,
  draining: false,
  lastSeenAt: '2026-11-29T09:30:15.000Z',
  memoryMb: 312.4,
  ...extra,
});

const aConnection = (id: number, extra: Partial<SessionConnectionDto> = {}): SessionConnectionDto => ({
  id,
  companyId: 7,
  name: `Loja ${id}`,
  status: 'CONNECTED',
  replica: 'whatsapp-sessions-0',
  connectedSince: '2026-11-29T08:01:00.000Z',
  lastEventAt: '2026-11-29T09:29:00.000Z',
  reconnects: 0,
  messagesIn: 12,
  messagesOut: 30,
  lastError: null,
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
  count = undefined;
  replicas = [aReplica(0, { load: 190 }), aReplica(1, { load: 20 }), aReplica(2, { draining: true, load: 3 })];
  connections = [
    aConnection(11),
    aConnection(12, {
      companyId: 9,
      status: 'DISCONNECTED',
      replica: null,
      connectedSince: null,
      reconnects: 4,
      messagesIn: 0,
      messagesOut: 0,
      lastError: 'Connection Failure',
    }),
  ];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    calls.push({ method: req.method, path: url.pathname, query: url.search });
    const custom = answer(req.method, url.pathname);
    let body: unknown = {};
    let status = 200;
    if (custom) ({ body, status } = custom);
    else if (url.pathname.startsWith('/settings')) body = [];
    else if (url.pathname === '/platform/sessions') {
      const page: PlatformSessionsPage = {
        replicas,
        connections,
        count: count ?? connections.length,
        hasMore: Number(url.searchParams.get('pageNumber')) * 100 < (count ?? connections.length),
      };
      body = page;
    } else if (url.pathname.endsWith('/drain')) {
      const name = decodeURIComponent(url.pathname.split('/')[4]);
      const draining = req.method === 'POST';
      replicas = replicas.map((r) => (r.name === name ? { ...r, draining } : r));
      body = { name, draining };
    }
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});

afterEach(async () => {
  jest.useRealTimers();
  globalThis.fetch = realFetch;
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

/** Signs in a super user and opens the Sessões tab. */
async function openSessions() {
  const r = renderAs(aUser());
  fireEvent.click(await waitFor(() => r.getByTestId('settings-tab-sessions')));
  await waitFor(() => r.getByTestId('session-row-11'));
  return r;
}

const views = () => calls.filter((c) => c.method === 'GET' && c.path === '/platform/sessions');
const writes = () => calls.filter((c) => c.method !== 'GET');

describe('/settings, the Sessões tab (issue 43 §5, super users)', () => {
  it('a super user sees Sessões last; it shows each replica’s load, memory and drain state, and each connection’s health', async () => {
    const r = renderAs(aUser());
    const tab = await waitFor(() => r.getByTestId('settings-tab-sessions'));
    expect(tab.textContent).toBe('Sessões');
    expect(views()).toHaveLength(0);
    fireEvent.click(tab);
    await waitFor(() => r.getByTestId('session-row-11'));
    expect(views()).toHaveLength(1);
    expect(views()[0].query).toBe('?pageNumber=1');
    expect(r.getByTestId('sessions-live').textContent).toContain('Ao vivo: atualizado a cada 5 s');

    expect(r.getByTestId('replicas-count').textContent).toBe('(3)');
    const busy = r.getByTestId('replica-whatsapp-sessions-0');
    expect(within(busy).getByTestId('replica-load').textContent).toBe('190 / 200 sessões');
    expect(within(busy).getByTestId('replica-load-bar').querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('95');
    expect(within(busy).getByTestId('replica-memory').textContent).toBe('312 MB');
    expect(within(busy).getByTestId('replica-host').textContent).toBe('Host node-0 · PID 4100');
    expect(within(busy).queryByTestId('replica-draining')).toBeNull();
    expect(within(busy).getByTestId('replica-drain').textContent).toBe('Drenar');
    const drained = r.getByTestId('replica-whatsapp-sessions-2');
    expect(within(drained).getByTestId('replica-draining').textContent).toBe('Drenando');
    expect(within(drained).getByTestId('replica-undrain').textContent).toBe('Desfazer drenagem');

    const headers = [...r.getByTestId('sessions-connections-table').querySelectorAll('th')].map((th) => th.textContent);
    expect(headers).toEqual([
      'ID',
      'Empresa',
      'Nome',
      'Status',
      'Réplica',
      'Conectada desde',
      'Último evento',
      'Reconexões',
      'Recebidas / enviadas',
      'Último erro',
    ]);
    const up = r.getByTestId('session-row-11');
    expect(within(up).getByTestId('session-status-cell').textContent).toBe('Conectado');
    expect(within(up).getByTestId('session-replica-cell').textContent).toBe('whatsapp-sessions-0');
    expect(within(up).getByTestId('session-messages-cell').textContent).toBe('12/30');
    expect(within(up).getByTestId('session-since-cell').textContent).toMatch(/^29\/11\/2026 \d\d:01$/);
    const down = r.getByTestId('session-row-12');
    expect(within(down).getByTestId('session-company-cell').textContent).toBe('9');
    expect(within(down).getByTestId('session-status-cell').textContent).toBe('Desconectado');
    expect(within(down).getByTestId('session-replica-cell').textContent).toBe('Nenhuma');
    expect(within(down).getByTestId('session-since-cell').textContent).toBe('');
    expect(within(down).getByTestId('session-reconnects-cell').textContent).toBe('4');
    expect(within(down).getByTestId('session-error-cell').textContent).toBe('Connection Failure');
    expect(r.getByTestId('connections-count').textContent).toBe('(2)');
    expect(r.queryByTestId('sessions-pager')).toBeNull();
  });

  it('a non-super admin has no Sessões tab and never asks for the sessions', async () => {
    const r = renderAs(aUser({ super: false }));
    await waitFor(() => r.getByTestId('settings-tab-options'));
    expect(r.queryByTestId('settings-tab-sessions')).toBeNull();
    expect(r.queryByText('Sessões')).toBeNull();
    expect(calls.some((c) => c.path.startsWith('/platform'))).toBe(false);
  });

  it('the filters ask again with status, replica (offered from the live replicas) and, once the typing stops, the company id', async () => {
    const r = await openSessions();
    const replicaOptions = [...(r.getByTestId('sessions-filter-replica') as HTMLSelectElement).options].map((o) => o.value);
    expect(replicaOptions).toEqual(['', 'whatsapp-sessions-0', 'whatsapp-sessions-1', 'whatsapp-sessions-2']);
    const statusOptions = [...(r.getByTestId('sessions-filter-status') as HTMLSelectElement).options].map((o) => o.textContent);
    expect(statusOptions).toEqual([
      'Todos os status',
      'Conectado',
      'Conectando',
      'Aguardando leitura do QR Code',
      'Pareando',
      'Desconectado',
      'Tempo esgotado',
    ]);

    fireEvent.change(r.getByTestId('sessions-filter-status'), { target: { value: 'DISCONNECTED' } });
    await waitFor(() => expect(views().at(-1)?.query).toBe('?status=DISCONNECTED&pageNumber=1'));
    fireEvent.change(r.getByTestId('sessions-filter-replica'), { target: { value: 'whatsapp-sessions-1' } });
    await waitFor(() => expect(views().at(-1)?.query).toBe('?replica=whatsapp-sessions-1&status=DISCONNECTED&pageNumber=1'));
    const asked = views().length;
    fireEvent.change(r.getByTestId('sessions-filter-company'), { target: { value: '9' } });
    // not at each key: after 500 ms without typing
    expect(views()).toHaveLength(asked);
    await waitFor(() => expect(views().at(-1)?.query).toBe('?companyId=9&replica=whatsapp-sessions-1&status=DISCONNECTED&pageNumber=1'), {
      timeout: 2000,
    });
    // back to every replica and status
    fireEvent.change(r.getByTestId('sessions-filter-replica'), { target: { value: '' } });
    fireEvent.change(r.getByTestId('sessions-filter-status'), { target: { value: '' } });
    await waitFor(() => expect(views().at(-1)?.query).toBe('?companyId=9&pageNumber=1'));
  });

  it('pages 100 connections at a time: Próxima asks for page 2, a filter goes back to page 1', async () => {
    count = 250;
    const r = await openSessions();
    expect(r.getByTestId('connections-count').textContent).toBe('(250)');
    expect(r.getByTestId('sessions-page').textContent).toBe('Página 1 de 3');
    expect((r.getByTestId('sessions-previous') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(r.getByTestId('sessions-next'));
    await waitFor(() => expect(r.getByTestId('sessions-page').textContent).toBe('Página 2 de 3'));
    expect(views().at(-1)?.query).toBe('?pageNumber=2');
    fireEvent.click(r.getByTestId('sessions-next'));
    await waitFor(() => expect(views().at(-1)?.query).toBe('?pageNumber=3'));
    await waitFor(() => expect((r.getByTestId('sessions-next') as HTMLButtonElement).disabled).toBe(true));
    fireEvent.change(r.getByTestId('sessions-filter-status'), { target: { value: 'CONNECTED' } });
    await waitFor(() => expect(views().at(-1)?.query).toBe('?status=CONNECTED&pageNumber=1'));
    expect(r.getByTestId('sessions-page').textContent).toBe('Página 1 de 3');
  });

  it('Drenar asks first, then sends POST …/replicas/{name}/drain; the card shows the drain at once; its undo sends DELETE', async () => {
    const r = await openSessions();
    const card = () => r.getByTestId('replica-whatsapp-sessions-1');
    fireEvent.click(within(card()).getByTestId('replica-drain'));
    const confirm = await waitFor(() => r.getByTestId('confirm-dialog'));
    expect(confirm.textContent).toContain('Drenar a réplica whatsapp-sessions-1?');
    expect(writes()).toHaveLength(0);
    const before = views().length;
    fireEvent.click(within(confirm).getByTestId('confirm-ok'));

    await waitFor(() =>
      expect(writes()).toEqual([{ method: 'POST', path: '/platform/sessions/replicas/whatsapp-sessions-1/drain', query: '' }]),
    );
    await r.findByText('Réplica whatsapp-sessions-1 em drenagem.');
    // the view is asked again at once (not at the next poll) and shows the drain
    await waitFor(() => expect(within(card()).getByTestId('replica-draining').textContent).toBe('Drenando'));
    expect(views().length).toBeGreaterThan(before);
    await waitFor(() => expect(r.queryByTestId('confirm-dialog')).toBeNull());

    fireEvent.click(within(card()).getByTestId('replica-undrain'));
    const undo = await waitFor(() => r.getByTestId('confirm-dialog'));
    expect(undo.textContent).toContain('Desfazer a drenagem de whatsapp-sessions-1?');
    fireEvent.click(within(undo).getByTestId('confirm-ok'));
    await waitFor(() =>
      expect(writes().at(-1)).toEqual({ method: 'DELETE', path: '/platform/sessions/replicas/whatsapp-sessions-1/drain', query: '' }),
    );
    await r.findByText('Drenagem de whatsapp-sessions-1 desfeita.');
    await waitFor(() => expect(within(card()).queryByTestId('replica-draining')).toBeNull());
    expect(within(card()).getByTestId('replica-drain')).toBeTruthy();
  });

  it('a replica gone meanwhile (404 ERR_NO_REPLICA_FOUND) says so and keeps the dialog open', async () => {
    answer = (method) =>
      method === 'POST' ? { status: 404, body: { error: 'ERR_NO_REPLICA_FOUND', message: 'No replica found' } } : undefined;
    const r = await openSessions();
    fireEvent.click(within(r.getByTestId('replica-whatsapp-sessions-0')).getByTestId('replica-drain'));
    fireEvent.click(within(await waitFor(() => r.getByTestId('confirm-dialog'))).getByTestId('confirm-ok'));
    await r.findByText('Réplica não encontrada (ela já parou ou o nome está errado).');
    expect(r.getByTestId('confirm-dialog')).toBeTruthy();
    expect(within(r.getByTestId('replica-whatsapp-sessions-0')).queryByTestId('replica-draining')).toBeNull();
  });

  it('is live: the view is asked again every 5 s and shows what changed', async () => {
    // only the timers are fake: fetch's answers still resolve on their own. The tab alone (the settings page's tabs
    // animate on jsdom's own clock, out of the fake timers' reach)
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'Date'] });
    const store = makeStore();
    store.dispatch(sessionStarted({ token: 't', user: aUser() }));
    const r = renderWithProviders(<SessionsTab />, { store });
    const until = async (check: () => void) => {
      for (let i = 0; i < 100; i++) {
        try {
          check();
          return;
        } catch {
          await act(() => jest.advanceTimersByTimeAsync(10));
        }
      }
      check();
    };
    await until(() => r.getByTestId('session-row-12'));
    expect(views()).toHaveLength(1);
    connections = connections.map((c) => (c.id === 12 ? { ...c, status: 'CONNECTED', replica: 'whatsapp-sessions-1' } : c));
    await act(() => jest.advanceTimersByTimeAsync(4000));
    expect(views()).toHaveLength(1);
    await act(() => jest.advanceTimersByTimeAsync(1100));
    expect(views()).toHaveLength(2);
    await until(() => expect(within(r.getByTestId('session-row-12')).getByTestId('session-status-cell').textContent).toBe('Conectado'));
    expect(within(r.getByTestId('session-row-12')).getByTestId('session-replica-cell').textContent).toBe('whatsapp-sessions-1');
    r.unmount();
  });

  it.each([
    ['en', 'Sessions', 'Drain', 'Received / sent', 'Connected'],
    ['es', 'Sesiones', 'Drenar', 'Recibidos / enviados', 'Conectado'],
  ] as const)('speaks %s too', async (lng, tabText, drainText, messagesHeader, connected) => {
    await changeLanguage(lng);
    try {
      const r = renderAs(aUser());
      const tab = await waitFor(() => r.getByTestId('settings-tab-sessions'));
      expect(tab.textContent).toBe(tabText);
      fireEvent.click(tab);
      const row = await waitFor(() => r.getByTestId('session-row-11'));
      expect(within(row).getByTestId('session-status-cell').textContent).toBe(connected);
      expect(within(r.getByTestId('replica-whatsapp-sessions-0')).getByTestId('replica-drain').textContent).toBe(drainText);
      const headers = [...r.getByTestId('sessions-connections-table').querySelectorAll('th')].map((th) => th.textContent);
      expect(headers).toContain(messagesHeader);
      expect(i18n.t('backendErrors.ERR_NO_REPLICA_FOUND')).not.toBe(pt.backendErrors.ERR_NO_REPLICA_FOUND);
      r.unmount();
    } finally {
      await changeLanguage('pt');
    }
  });

  it('every text of the tab is written in pt, en and es, and differs from Portuguese where the words differ', () => {
    const keysOf = (o: object, at = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [`${at}${k}`] : keysOf(v as object, `${at}${k}.`)));
    const ptKeys = keysOf(pt.settings.sessions);
    expect(keysOf(en.settings.sessions)).toEqual(ptKeys);
    expect(keysOf(es.settings.sessions)).toEqual(ptKeys);
    for (const lang of [en, es]) {
      expect(lang.settings.tabs.sessions).not.toBe('');
      expect(lang.backendErrors.ERR_NO_REPLICA_FOUND).not.toBe('');
    }
    expect(en.settings.sessions.title).not.toBe(pt.settings.sessions.title);
    expect(es.settings.sessions.title).not.toBe(pt.settings.sessions.title);
  });
});
