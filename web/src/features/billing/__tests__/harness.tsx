import { act } from '@testing-library/react';
import type { CompanyDto, InvoiceDto, PlanDto, PublicPlanDto, SubscriptionCharge, UserDto } from '@wa/contracts';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import { ToasterHost } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { RealtimeContext } from '../../../realtime/RealtimeProvider';
import type { RealtimeClient } from '../../../realtime/realtime-client';
import { renderWithProviders } from '../../../test/render';

export const aPlan = (id: number, name: string, value: number, extra: Partial<PublicPlanDto> = {}): PublicPlanDto => ({
  id,
  name,
  users: 3,
  connections: 2,
  queues: 0,
  value,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  isPublic: true,
  trialDays: 0,
  ...extra,
});

/** The signed-in admin of company 7 ("Loja"), on plan 1 (R$ 49,90), due on `dueDate`. */
export function anAdmin(extra: Partial<UserDto> = {}, company: Partial<CompanyDto> = {}): UserDto {
  return {
    id: 70,
    name: 'Ana',
    email: 'ana@loja.com',
    profile: 'admin',
    companyId: 7,
    whatsappId: null,
    allTicket: 'enabled',
    super: false,
    online: true,
    queues: [],
    queueIds: [],
    company: {
      id: 7,
      name: 'Loja',
      email: 'financeiro@loja.com',
      dueDate: '2099-01-31',
      status: true,
      planId: 1,
      recurrence: 'MENSAL',
      plan: aPlan(1, 'Básico', 49.9) as PlanDto,
      settings: [],
      ...company,
    },
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}

export const anInvoice = (id: number, extra: Partial<InvoiceDto> = {}): InvoiceDto => ({
  id,
  companyId: 7,
  companyName: 'Loja',
  detail: `Plano Básico`,
  value: 49.9,
  dueDate: '2099-01-31',
  status: 'open',
  paidAt: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...extra,
});

export const aCharge = (invoiceId: number, extra: Partial<SubscriptionCharge> = {}): SubscriptionCharge => ({
  qrcode: {
    qrcode: '00020126360014br.gov.bcb.pix0114+5511999990000520400005303986540549.905802BR6304ABCD',
    imagemQrcode: 'data:image/png;base64,iVBORw0KGgo=',
  },
  valor: { original: '49.90' },
  txid: 'tx123',
  expiresAt: '2099-01-01T00:00:00.000Z',
  invoiceId,
  planId: 1,
  ...extra,
});

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A stand-in for the live socket: the test fires the server's events to every listener of a channel. */
function fakeSocket() {
  const handlers = new Map<string, Set<(p: unknown) => void>>();
  const client = {
    on: (channel: string, h: (p: unknown) => void) => {
      const set = handlers.get(channel) ?? new Set();
      set.add(h);
      handlers.set(channel, set);
      return () => set.delete(h);
    },
    join: () => () => undefined,
  } as unknown as RealtimeClient;
  return {
    client,
    listening: (channel: string) => (handlers.get(channel)?.size ?? 0) > 0,
    fire: (channel: string, payload: unknown) => act(() => handlers.get(channel)?.forEach((h) => h(payload))),
  };
}

/** Renders `page` at `route` for `user` with a stand-in socket and the toasts; `/` is a page of its own ("home"). */
export function renderPage(page: ReactElement, opts: { path: string; route?: string; user?: UserDto }) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 'session-token', user: opts.user ?? anAdmin() }));
  const socket = fakeSocket();
  const r = renderWithProviders(
    <RealtimeContext.Provider value={socket.client}>
      <Routes>
        <Route path={opts.path} element={page} />
        <Route path="/" element={<div data-testid="home" />} />
      </Routes>
      <ToasterHost />
    </RealtimeContext.Provider>,
    { store, route: opts.route ?? opts.path },
  );
  return { ...r, socket, store };
}
