import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor } from '@testing-library/react';
import { SocketChannels, type AppMessageChannelPayload, type TicketChannelPayload, type TicketDto, type UserDto } from '@wa/contracts';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api } from '../../../app/api';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { RealtimeContext } from '../../../realtime/RealtimeProvider';
import type { RealtimeClient } from '../../../realtime/realtime-client';
import { syncMessageEvent } from '../../ticket-chat/ticket-chat.socket';
import { syncTicketEvent } from '../../tickets/tickets.socket';
import { aMessage, aTicket } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { CHIME_EVENT } from '../chime';
import { resetPermissionAsked } from '../desktop-notification';
import { NotificationsButton } from '../NotificationsButton';
import { usePendingTitle } from '../use-pending-title';

const realFetch = globalThis.fetch;
let requests: URL[] = [];
const shown: Array<{ title: string; options: NotificationOptions; instance: { onclick: ((e: Event) => void) | null; close: () => void } }> =
  [];
let permission: NotificationPermission = 'granted';
const requestPermission = jest.fn(async () => permission);
const chimes: number[] = [];
const onChime = (e: Event) => chimes.push((e as CustomEvent<{ gain: number }>).detail.gain);

class FakeNotification {
  static get permission() {
    return permission;
  }
  static requestPermission = requestPermission;
  onclick: ((e: Event) => void) | null = null;
  close = jest.fn();
  constructor(title: string, options: NotificationOptions) {
    shown.push({ title, options, instance: this });
  }
}

const noop = () => undefined;
/** the gains of the chimes' GainNodes (the first of each chime is the volume) */
const gains: Array<{ value: number }> = [];

/** Enough of the Web Audio API for the chime. */
class FakeAudioContext {
  state = 'running';
  currentTime = 0;
  destination = {};
  resume = async () => undefined;
  createGain() {
    const gain = { value: 1, setValueAtTime: noop, exponentialRampToValueAtTime: noop };
    gains.push(gain);
    return { gain, connect: (n: unknown) => n, disconnect: noop };
  }
  createOscillator() {
    return { type: 'sine', frequency: { value: 0 }, connect: (n: unknown) => n, start: noop, stop: noop };
  }
}

function fakeSocket() {
  const handlers = new Map<string, Set<(p: unknown) => void>>();
  const client = {
    on: (channel: string, h: (p: unknown) => void) => {
      if (!handlers.has(channel)) handlers.set(channel, new Set());
      handlers.get(channel)?.add(h);
      return () => handlers.get(channel)?.delete(h);
    },
    join: () => () => undefined,
  } as unknown as RealtimeClient;
  return { client, fire: (channel: string, payload: unknown) => act(() => handlers.get(channel)?.forEach((h) => h(payload))) };
}

/** Lets the popover's positioning (animation frames) settle inside act. */
const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 30)));

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

beforeEach(() => {
  requests = [];
  shown.length = 0;
  chimes.length = 0;
  gains.length = 0;
  permission = 'granted';
  requestPermission.mockClear();
  resetPermissionAsked();
  localStorage.clear();
  Object.assign(window, { Notification: FakeNotification, AudioContext: FakeAudioContext });
  window.addEventListener(CHIME_EVENT, onChime);
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    requests.push(url);
    const body =
      url.pathname === '/tickets'
        ? { tickets: [aTicket({ id: 1, lastMessage: 'Bom dia' }), aTicket({ id: 2 })], hasMore: false, nextCursor: null }
        : {};
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  window.removeEventListener(CHIME_EVENT, onChime);
  jest.restoreAllMocks();
  delete (window as Partial<typeof window>).Notification;
  delete (window as unknown as { AudioContext?: unknown }).AudioContext;
});

/** The layout's tab title, beside the bell as in the app. */
function TabTitle() {
  usePendingTitle();
  return null;
}

function renderBell(route = '/tickets') {
  const store = makeStore();
  store.dispatch(
    sessionStarted({ token: 't', user: { id: 7, name: 'Ana', companyId: 1, profile: 'user', queueIds: [10] } as unknown as UserDto }),
  );
  const socket = fakeSocket();
  // what the layout's cache sync does with the same events
  socket.client.on<TicketChannelPayload>(SocketChannels.ticket(1), (p) => syncTicketEvent(p, store.getState(), store.dispatch));
  socket.client.on<AppMessageChannelPayload>(SocketChannels.appMessage(1), (p) => syncMessageEvent(p, store.getState(), store.dispatch));
  const r = renderWithProviders(
    <RealtimeContext.Provider value={socket.client}>
      <NotificationsButton />
      <TabTitle />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </RealtimeContext.Provider>,
    { store, route },
  );
  return { ...r, socket, store };
}

const newMessage = (ticketId: number, overrides: Parameters<typeof aMessage>[0] = {}): AppMessageChannelPayload => {
  const ticket = aTicket({ id: ticketId, lastMessage: 'Preciso de ajuda' });
  return {
    action: 'create',
    message: aMessage({ id: 100 + ticketId, ticketId, fromMe: false, body: 'Preciso de ajuda', ...overrides }),
    ticket,
    contact: ticket.contact,
  };
};

describe('top bar notifications (spec 01 §2 "Top bar")', () => {
  it('counts the pending tickets (first page, all queues) and keeps the count live', async () => {
    const r = renderBell();
    await waitFor(() => expect(r.getByTestId('notifications-count').textContent).toBe('2'));
    const url = requests.find((u) => u.pathname === '/tickets');
    expect(url?.searchParams.get('status')).toBe('pending');
    expect(url?.searchParams.get('pageNumber')).toBe('1');
    expect(url?.searchParams.get('queueIds')).toBe('[]');

    r.socket.fire(SocketChannels.ticket(1), { action: 'update', ticket: aTicket({ id: 3 }) });
    await waitFor(() => expect(r.getByTestId('notifications-count').textContent).toBe('3'));
    // the button's accessible name holds the count it shows (label in name)
    expect(r.getByTestId('notifications-button').getAttribute('aria-label')).toBe('3 Notificações');
    r.socket.fire(SocketChannels.ticket(1), { action: 'update', ticket: aTicket({ id: 1, status: 'open', userId: 7 }) });
    r.socket.fire(SocketChannels.ticket(1), { action: 'delete', ticketId: 2 });
    await waitFor(() => expect(r.getByTestId('notifications-count').textContent).toBe('1'));
  });

  it('puts the count of waiting tickets in the tab title and follows it live, without a request of its own', async () => {
    document.title = 'Conversa';
    const r = renderBell();
    await waitFor(() => expect(document.title).toBe('(2) Conversa'));
    expect(requests.filter((u) => u.pathname === '/tickets')).toHaveLength(1);
    r.socket.fire(SocketChannels.ticket(1), { action: 'update', ticket: aTicket({ id: 3 }) });
    await waitFor(() => expect(document.title).toBe('(3) Conversa'));
    r.socket.fire(SocketChannels.ticket(1), { action: 'update', ticket: aTicket({ id: 1, status: 'open', userId: 7 }) });
    r.socket.fire(SocketChannels.ticket(1), { action: 'delete', ticketId: 2 });
    r.socket.fire(SocketChannels.ticket(1), { action: 'delete', ticketId: 3 });
    await waitFor(() => expect(document.title).toBe('Conversa'));
    r.socket.fire(SocketChannels.ticket(1), { action: 'update', ticket: aTicket({ id: 4 }) });
    await waitFor(() => expect(document.title).toBe('(1) Conversa'));
    r.unmount();
    expect(document.title).toBe('Conversa');
  });

  it('lists contact and last message; a click opens the ticket', async () => {
    const r = renderBell();
    await waitFor(() => expect(r.getByTestId('notifications-count').textContent).toBe('2'));
    fireEvent.click(r.getByTestId('notifications-button'));
    await waitFor(() => expect(r.getAllByTestId('notification-item')).toHaveLength(2));
    await settle();
    expect(r.getAllByTestId('notification-item')[0].textContent).toContain('Contato 1');
    expect(r.getAllByTestId('notification-last-message')[0].textContent).toBe('Bom dia');
    fireEvent.click(r.getAllByTestId('notification-item')[1]);
    expect(r.getByTestId('where').textContent).toBe('/tickets/uuid-2');
    await settle();
  });

  it('a new customer message elsewhere: a desktop notification that opens the ticket, and the chime at the volume', async () => {
    localStorage.setItem('volume', '0.5');
    const r = renderBell('/tickets/uuid-9');
    await waitFor(() => expect(r.getByTestId('notifications-count')).toBeTruthy());
    r.socket.fire(SocketChannels.appMessage(1), newMessage(5));
    expect(shown).toHaveLength(1);
    expect(shown[0].title).toBe('Contato 5');
    expect(shown[0].options).toMatchObject({ body: 'Preciso de ajuda', tag: 'ticket-5' });
    expect(chimes).toEqual([0.2]);
    expect(gains[0].value).toBe(0.2);
    // the same message again (a replayed event) does not ring twice
    r.socket.fire(SocketChannels.appMessage(1), newMessage(5));
    expect(shown).toHaveLength(1);

    const focus = jest.spyOn(window, 'focus').mockImplementation(() => undefined);
    act(() => shown[0].instance.onclick?.(new Event('click')));
    expect(focus).toHaveBeenCalled();
    expect(r.getByTestId('where').textContent).toBe('/tickets/uuid-5');
    expect(shown[0].instance.close).toHaveBeenCalled();
  });

  it('stays quiet for the chat on screen, our own messages, and plays nothing at volume 0', async () => {
    localStorage.setItem('volume', '0');
    const r = renderBell('/tickets/uuid-5');
    await waitFor(() => expect(r.getByTestId('notifications-count')).toBeTruthy());
    r.socket.fire(SocketChannels.appMessage(1), newMessage(5));
    r.socket.fire(SocketChannels.appMessage(1), newMessage(6, { fromMe: true }));
    expect(shown).toHaveLength(0);
    r.socket.fire(SocketChannels.appMessage(1), newMessage(7));
    expect(shown).toHaveLength(1);
    expect(chimes).toEqual([]);
    expect(gains).toEqual([]);
  });

  it('asks the permission once, on the first interaction, and never again', async () => {
    permission = 'default';
    const r = renderBell();
    await waitFor(() => expect(r.getByTestId('notifications-count')).toBeTruthy());
    expect(requestPermission).not.toHaveBeenCalled();
    fireEvent.pointerDown(document.body);
    fireEvent.keyDown(document.body, { key: 'a' });
    fireEvent.click(r.getByTestId('notifications-button'));
    await settle();
    expect(requestPermission).toHaveBeenCalledTimes(1);
    r.socket.fire(SocketChannels.appMessage(1), newMessage(8));
    expect(shown).toHaveLength(0);
  });
});

/**
 * The server's pending tickets: a /tickets request reads them when it is asked, and while `holding` its answer waits
 * to be let go (a slow answer, read before what happened meanwhile).
 */
function slowServer(initial: TicketDto[]) {
  let tickets = initial;
  let holding = false;
  const waiting: Array<() => void> = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    requests.push(url);
    if (url.pathname !== '/tickets') return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    const body = JSON.stringify({ tickets, hasMore: false, nextCursor: null });
    if (holding) await new Promise<void>((resolve) => waiting.push(resolve));
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return {
    /** what the server has from now on */
    set: (now: TicketDto[]) => {
      tickets = now;
    },
    hold: () => {
      holding = true;
    },
    letGo: () =>
      act(async () => {
        holding = false;
        for (const answer of waiting.splice(0)) answer();
        await new Promise((resolve) => setTimeout(resolve, 30));
      }),
    waiting: () => waiting.length,
  };
}

const count = (r: ReturnType<typeof renderBell>) => r.getByTestId('notifications-button').getAttribute('data-count');

async function listed(r: ReturnType<typeof renderBell>): Promise<string[]> {
  fireEvent.click(r.getByTestId('notifications-button'));
  await waitFor(() => expect(r.getAllByTestId('notification-item').length).toBeGreaterThan(0));
  await settle();
  return r.getAllByTestId('notification-item').map((item) => item.getAttribute('data-ticket-id') ?? '');
}

describe("a new customer's ticket while the pending list is on its way (the count and the list are one)", () => {
  it('the first load answered more than a second after the ticket came, read before it: the ticket is counted and listed', async () => {
    const server = slowServer([aTicket({ id: 1 }), aTicket({ id: 2 })]);
    server.hold();
    const r = renderBell();
    await waitFor(() => expect(server.waiting()).toBe(1));
    server.set([aTicket({ id: 3 }), aTicket({ id: 1 }), aTicket({ id: 2 })]);
    r.socket.fire(SocketChannels.appMessage(1), newMessage(3));
    expect(chimes).toHaveLength(1);
    await act(() => new Promise((resolve) => setTimeout(resolve, 1200)));
    await server.letGo();
    await waitFor(() => expect(count(r)).toBe('3'));
    expect(await listed(r)).toEqual(['3', '1', '2']);
  });

  it('a list loaded again (the socket connected) whose answer was read before the ticket: the ticket stays counted and listed', async () => {
    const server = slowServer([aTicket({ id: 1 }), aTicket({ id: 2 })]);
    const r = renderBell();
    await waitFor(() => expect(count(r)).toBe('2'));
    server.hold();
    act(() => void r.store.dispatch(api.util.invalidateTags(['TicketList'])));
    await waitFor(() => expect(server.waiting()).toBe(1));
    server.set([aTicket({ id: 3 }), aTicket({ id: 1 }), aTicket({ id: 2 })]);
    r.socket.fire(SocketChannels.appMessage(1), newMessage(3));
    await waitFor(() => expect(count(r)).toBe('3'));
    await server.letGo();
    expect(count(r)).toBe('3');
    expect(await listed(r)).toEqual(['3', '1', '2']);
  });

  it('a ticket taken by a colleague while the list loads leaves the list, even when the answer still had it', async () => {
    const server = slowServer([aTicket({ id: 1 }), aTicket({ id: 2 })]);
    server.hold();
    const r = renderBell();
    await waitFor(() => expect(server.waiting()).toBe(1));
    server.set([aTicket({ id: 1 })]);
    r.socket.fire(SocketChannels.ticket(1), { action: 'update', ticket: aTicket({ id: 2, status: 'open', userId: 8 }) });
    await server.letGo();
    expect(count(r)).toBe('1');
    expect(await listed(r)).toEqual(['1']);
  });
});
