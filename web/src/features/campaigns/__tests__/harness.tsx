import { act } from '@testing-library/react';
import type { CampaignDto, PlanDto, UserDto } from '@wa/contracts';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import { ToasterHost } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { RealtimeContext } from '../../../realtime/RealtimeProvider';
import type { RealtimeClient } from '../../../realtime/realtime-client';
import { useSocketCacheSync, type SocketHandler } from '../../../realtime/use-socket-cache-sync';
import { renderWithProviders } from '../../../test/render';

/** The signed-in admin of company 1, whose plan has campaigns (and campaignsEnabled on unless told). */
export function anAdmin(useCampaigns = true, campaignsEnabled = 'true'): UserDto {
  return {
    id: 1,
    name: 'Ana',
    email: 'ana@x.com',
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
      plan: { id: 1, name: 'Plano', useCampaigns } as PlanDto,
      settings: [{ key: 'campaignsEnabled', value: campaignsEnabled }],
    },
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  };
}

export function aCampaign(id: number, name: string, extra: Partial<CampaignDto> = {}): CampaignDto {
  return {
    id,
    name,
    message1: 'Olá {nome}',
    message2: '',
    message3: '',
    message4: '',
    message5: '',
    confirmationMessage1: '',
    confirmationMessage2: '',
    confirmationMessage3: '',
    confirmationMessage4: '',
    confirmationMessage5: '',
    status: 'INATIVA',
    confirmation: false,
    scheduledAt: null,
    completedAt: null,
    whatsappId: 3,
    contactListId: 2,
    tagListId: 'Nenhuma',
    companyId: 1,
    mediaPath: null,
    mediaName: null,
    fileListId: null,
    statusReason: null,
    whatsapp: { id: 3, name: 'Vendas' },
    contactList: { id: 2, name: 'Clientes' },
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

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

/** Renders `page` at `route` (matched by `path`) for `user`, with the layout's live-event hook for `handlers` and the toasts. */
export function renderPage(page: ReactElement, opts: { path: string; route: string; user?: UserDto; handlers: SocketHandler[] }) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 'session-token', user: opts.user ?? anAdmin() }));
  const socket = fakeSocket();
  function SocketSync() {
    useSocketCacheSync(opts.handlers);
    return null;
  }
  const r = renderWithProviders(
    <RealtimeContext.Provider value={socket.client}>
      <SocketSync />
      <Routes>
        <Route path={opts.path} element={page} />
        <Route path="/" element={<div data-testid="home" />} />
      </Routes>
      <ToasterHost />
    </RealtimeContext.Provider>,
    { store, route: opts.route },
  );
  return { ...r, socket, store };
}
