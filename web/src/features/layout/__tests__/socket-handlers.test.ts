import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { CompanyDto, ScheduleDto, TicketDto, UserDto, WhatsappDto } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { makeStore, type AppStore } from '../../../app/store';
import { authApi } from '../../../app/auth.api';
import { chatApi } from '../../ticket-chat/chat.api';
import { orderedMessages, type MessagePages } from '../../ticket-chat/message-rules';
import { connectionsApi } from '../../connections/connections.api';
import type { ScheduleListArgs } from '../../schedules/schedule-list-rules';
import { schedulesApi } from '../../schedules/schedules.api';
import { flattenTickets, type TicketListArgs, type TicketPages } from '../../tickets/ticket-list-rules';
import { ticketsApi } from '../../tickets/tickets.api';
import { aMessage, aSchedule, aTicket } from '../../../test/fixtures';
import { syncWhatsappEvent } from '../../connections/connections.socket';
import { syncScheduleEvent } from '../../schedules/schedules.socket';
import { syncSettingsEvent } from '../../settings/settings.socket';
import { syncMessageEvent } from '../../ticket-chat/ticket-chat.socket';
import { syncTicketEvent } from '../../tickets/tickets.socket';

/**
 * The live events change the RTK Query cache in place (no refetch): a fake server answers the first
 * loads, then every event is checked against the cached lists.
 */
const realFetch = globalThis.fetch;
let requests: string[] = [];
let serverTickets: Record<string, TicketDto[]> = {};
let serverSchedules: ScheduleDto[] = [];

beforeEach(() => {
  requests = [];
  serverTickets = {
    pending: [aTicket({ id: 1 }), aTicket({ id: 2 })],
    open: [aTicket({ id: 3, status: 'open', userId: 7 })],
  };
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    requests.push(`${url.pathname}?${url.searchParams.get('status') ?? ''}`);
    let body: unknown = [];
    if (url.pathname === '/tickets')
      body = { tickets: serverTickets[url.searchParams.get('status') ?? ''] ?? [], hasMore: false, nextCursor: null };
    if (url.pathname.startsWith('/messages/'))
      body = { messages: [aMessage({ id: 1, ticketId: 3 }), aMessage({ id: 2, ticketId: 3 })], hasMore: false, nextCursor: null };
    if (url.pathname === '/schedules') {
      // pages of 2, to check that a calendar range is fetched to its end
      const page = Number(url.searchParams.get('pageNumber') ?? 1);
      body = {
        schedules: serverSchedules.slice((page - 1) * 2, page * 2),
        hasMore: serverSchedules.length > page * 2,
        count: serverSchedules.length,
      };
    }
    if (url.pathname.startsWith('/settings'))
      body = [
        { key: 'userRating', value: 'disabled' },
        { key: 'timezone', value: 'America/Sao_Paulo' },
        { key: 'asaas', value: '' },
      ];
    if (url.pathname === '/whatsapp') body = [{ id: 1, name: 'Sandbox', status: 'CONNECTED', isDefault: true } as WhatsappDto];
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

const pendingArgs: TicketListArgs = { status: 'pending', showAll: false, queueIds: [10] };
const openArgs: TicketListArgs = { status: 'open', showAll: false, queueIds: [10] };

async function loadedStore(): Promise<AppStore> {
  const store = makeStore();
  store.dispatch(
    sessionStarted({ token: 't', user: { id: 7, companyId: 1, profile: 'user', name: 'Ana', queueIds: [10] } as unknown as UserDto }),
  );
  await store.dispatch(ticketsApi.endpoints.listTickets.initiate(pendingArgs));
  await store.dispatch(ticketsApi.endpoints.listTickets.initiate(openArgs));
  return store;
}

const listIds = (store: AppStore, args: TicketListArgs) =>
  flattenTickets(ticketsApi.endpoints.listTickets.select(args)(store.getState()).data as TicketPages | undefined).map((t) => t.id);

describe('socket events → cache', () => {
  it('a new pending ticket appears at the top of the pending list, without a request', async () => {
    const store = await loadedStore();
    const before = requests.length;
    syncTicketEvent({ action: 'update', ticket: aTicket({ id: 9 }) }, store.getState(), store.dispatch);
    expect(listIds(store, pendingArgs)).toEqual([9, 1, 2]);
    expect(listIds(store, openArgs)).toEqual([3]);
    expect(requests.length).toBe(before);
  });

  it('an accepted ticket leaves the pending list and enters the open list', async () => {
    const store = await loadedStore();
    syncTicketEvent({ action: 'update', ticket: aTicket({ id: 2, status: 'open', userId: 7 }) }, store.getState(), store.dispatch);
    expect(listIds(store, pendingArgs)).toEqual([1]);
    expect(listIds(store, openArgs)).toEqual([2, 3]);
  });

  it('a ticket moved to a queue that is not selected is removed', async () => {
    const store = await loadedStore();
    syncTicketEvent({ action: 'update', ticket: aTicket({ id: 1, queueId: 99 }) }, store.getState(), store.dispatch);
    expect(listIds(store, pendingArgs)).toEqual([2]);
  });

  it('a new message moves its ticket to the top and reaches the open chat', async () => {
    const store = await loadedStore();
    await store.dispatch(chatApi.endpoints.messages.initiate(3));
    syncTicketEvent({ action: 'update', ticket: aTicket({ id: 4, status: 'open', userId: 7 }) }, store.getState(), store.dispatch);
    expect(listIds(store, openArgs)).toEqual([4, 3]);
    const ticket = aTicket({ id: 3, status: 'open', userId: 7, lastMessage: 'nova', unreadMessages: 1 });
    syncMessageEvent(
      { action: 'create', message: aMessage({ id: 3, ticketId: 3, fromMe: false }), ticket, contact: ticket.contact },
      store.getState(),
      store.dispatch,
    );
    expect(listIds(store, openArgs)).toEqual([3, 4]);
    const messages = orderedMessages(chatApi.endpoints.messages.select(3)(store.getState()).data as MessagePages);
    expect(messages.map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it('an ack update changes the message in place', async () => {
    const store = await loadedStore();
    await store.dispatch(chatApi.endpoints.messages.initiate(3));
    const ticket = aTicket({ id: 3, status: 'open', userId: 7 });
    syncMessageEvent(
      { action: 'update', message: aMessage({ id: 2, ticketId: 3, ack: 4 }), ticket, contact: ticket.contact },
      store.getState(),
      store.dispatch,
    );
    const messages = orderedMessages(chatApi.endpoints.messages.select(3)(store.getState()).data as MessagePages);
    expect(messages.map((m) => m.ack)).toEqual([0, 4]);
  });

  it('delete removes the ticket from every list; updateUnread clears its count', async () => {
    const store = await loadedStore();
    syncTicketEvent({ action: 'updateUnread', ticketId: 1 }, store.getState(), store.dispatch);
    const pending = flattenTickets(ticketsApi.endpoints.listTickets.select(pendingArgs)(store.getState()).data as TicketPages);
    expect(pending.map((t) => t.unreadMessages)).toEqual([0, 1]);
    syncTicketEvent({ action: 'delete', ticketId: 1 }, store.getState(), store.dispatch);
    expect(listIds(store, pendingArgs)).toEqual([2]);
  });

  it('connection events update the connections list', async () => {
    const store = await loadedStore();
    await store.dispatch(connectionsApi.endpoints.listWhatsapps.initiate());
    syncWhatsappEvent(
      { action: 'update', session: { id: 1, name: 'Sandbox', status: 'qrcode', qrcode: 'abc', isDefault: true } as WhatsappDto },
      store.dispatch,
    );
    syncWhatsappEvent(
      { action: 'update', whatsapp: { id: 2, name: 'Novo', status: 'OPENING', isDefault: false } as WhatsappDto },
      store.dispatch,
    );
    let list = connectionsApi.endpoints.listWhatsapps.select()(store.getState()).data ?? [];
    expect(list.map((w) => [w.id, w.status])).toEqual([
      [1, 'qrcode'],
      [2, 'OPENING'],
    ]);
    syncWhatsappEvent({ action: 'delete', whatsappId: 1 }, store.dispatch);
    list = connectionsApi.endpoints.listWhatsapps.select()(store.getState()).data ?? [];
    expect(list.map((w) => w.id)).toEqual([2]);
  });

  it('schedule events change the calendar ranges: every page loaded, then updates, moves and deletes in place', async () => {
    const store = await loadedStore();
    serverSchedules = [1, 2, 3].map((id) => aSchedule({ id, sendAt: `2026-11-0${id}T15:00:00.000Z` }));
    const range: ScheduleListArgs = { from: '2026-11-01T00:00:00.000Z', to: '2026-12-01T00:00:00.000Z', searchParam: '' };
    await store.dispatch(schedulesApi.endpoints.listSchedules.initiate(range));
    const ids = () => (schedulesApi.endpoints.listSchedules.select(range)(store.getState()).data ?? []).map((s) => [s.id, s.status]);
    expect(ids()).toEqual([
      [1, 'PENDENTE'],
      [2, 'PENDENTE'],
      [3, 'PENDENTE'],
    ]);
    const before = requests.length;
    syncScheduleEvent(
      {
        action: 'update',
        schedule: aSchedule({ id: 2, sendAt: '2026-11-02T15:00:00.000Z', status: 'ENVIADA', sentAt: '2026-11-02T15:00:01.000Z' }),
      },
      store.getState(),
      store.dispatch,
    );
    syncScheduleEvent(
      { action: 'update', schedule: aSchedule({ id: 4, sendAt: '2026-11-01T09:00:00.000Z' }) },
      store.getState(),
      store.dispatch,
    );
    syncScheduleEvent(
      { action: 'update', schedule: aSchedule({ id: 3, sendAt: '2027-01-01T09:00:00.000Z' }) },
      store.getState(),
      store.dispatch,
    );
    syncScheduleEvent({ action: 'delete', scheduleId: 1 }, store.getState(), store.dispatch);
    expect(ids()).toEqual([
      [4, 'PENDENTE'],
      [2, 'ENVIADA'],
    ]);
    expect(requests.length).toBe(before);
  });

  it("a settings event changes the cached settings list and the signed-in user's company settings, without a request", async () => {
    const store = await loadedStore();
    const company = {
      id: 1,
      name: 'Loja',
      settings: [
        { key: 'timezone', value: 'America/Sao_Paulo' },
        { key: 'asaas', value: '' },
      ],
    } as unknown as CompanyDto;
    store.dispatch(
      sessionStarted({
        token: 't',
        user: { id: 7, companyId: 1, profile: 'admin', name: 'Ana', queueIds: [], company } as unknown as UserDto,
      }),
    );
    await store.dispatch(authApi.endpoints.settings.initiate());
    const before = requests.length;
    syncSettingsEvent({ action: 'update', setting: { key: 'userRating', value: 'enabled' } }, store.getState(), store.dispatch);
    syncSettingsEvent({ action: 'update', setting: { key: 'asaas', value: '••••wxyz' } }, store.getState(), store.dispatch);
    syncSettingsEvent({ action: 'update', setting: { key: 'timezone', value: 'America/Manaus' } }, store.getState(), store.dispatch);
    expect(authApi.endpoints.settings.select()(store.getState()).data).toEqual([
      { key: 'userRating', value: 'enabled' },
      { key: 'timezone', value: 'America/Manaus' },
      { key: 'asaas', value: '••••wxyz' },
    ]);
    // the user's company has only the keys it came with, now with their new values
    expect(store.getState().session.user?.company?.settings).toEqual([
      { key: 'timezone', value: 'America/Manaus' },
      { key: 'asaas', value: '••••wxyz' },
    ]);
    expect(requests.length).toBe(before);
  });
});
