import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, waitFor } from '@testing-library/react';
import type { UserDto } from '@wa/contracts';
import { EARLY_SLOT, requestFirstTicketList } from '../../../app/early-requests';
import { StorageKeys } from '../../../app/storage';
import { defaultTicketListArgs, type TicketPages } from '../ticket-list-rules';
import { FakeSocket } from '../../../test/fake-socket';
import { pageLoadsNow } from '../../../test/page-clock';
import { aTicketListResponse } from '../../../test/fixtures';

/**
 * The live socket's first connection (RealtimeProvider): from then on every change reaches the lists, so a list asked
 * for afterwards must be read after it — not be handed the answer the page asked for while it was parsed.
 */
const API = 'http://api.test';
const user = { id: 7, companyId: 1, name: 'Ana', profile: 'user', queueIds: [3] } as unknown as UserDto;

let socket: FakeSocket | undefined;
jest.unstable_mockModule('socket.io-client', () => ({ io: () => (socket = new FakeSocket()) }));

const answer = aTicketListResponse;

/** The server: /tickets answered by the next handler, anything else with nothing. */
let calls: string[] = [];
let handlers: Array<() => Promise<Response>> = [];
const server = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const req = input instanceof Request ? input : new Request(String(input), init);
  if (new URL(req.url).pathname !== '/tickets') return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  calls.push(req.url);
  const next = handlers.shift();
  if (!next) throw new Error(`unexpected request ${req.url}`);
  return next();
});

let app: {
  makeStore: typeof import('../../../app/store').makeStore;
  sessionStarted: typeof import('../../../app/session').sessionStarted;
  ticketsApi: typeof import('../tickets.api').ticketsApi;
  RealtimeProvider: typeof import('../../../realtime/RealtimeProvider').RealtimeProvider;
  renderWithProviders: typeof import('../../../test/render').renderWithProviders;
};

beforeAll(async () => {
  (window as unknown as { __CONVERSA__: { apiUrl: string } }).__CONVERSA__ = { apiUrl: `${API}/` };
  globalThis.fetch = server as unknown as typeof fetch;
  const { makeStore } = await import('../../../app/store');
  const { sessionStarted } = await import('../../../app/session');
  const { ticketsApi } = await import('../tickets.api');
  const { RealtimeProvider } = await import('../../../realtime/RealtimeProvider');
  const { renderWithProviders } = await import('../../../test/render');
  app = { makeStore, sessionStarted, ticketsApi, RealtimeProvider, renderWithProviders };
});

// each test is a cold load of the page: an early answer serves it (EARLY_FOR_MS counts from the navigation)
let restoreClock: (() => void) | undefined;
beforeEach(() => {
  restoreClock = pageLoadsNow();
  localStorage.clear();
  calls = [];
  handlers = [];
  socket = undefined;
  delete (window as unknown as Record<string, unknown>)[EARLY_SLOT];
  window.history.pushState({}, '', '/tickets');
  localStorage.setItem(StorageKeys.token, 'tok-1');
  localStorage.setItem(StorageKeys.userId, String(user.id));
  localStorage.setItem(StorageKeys.user, JSON.stringify(user));
});

let unmount: (() => void) | undefined;
afterEach(() => {
  restoreClock?.();
  unmount?.();
  unmount = undefined;
});

/** The signed-in app with its live socket; the first ticket list as the ticket manager asks for it. */
async function signedIn() {
  const store = app.makeStore();
  store.dispatch(app.sessionStarted({ token: 'tok-1', user }));
  const view = app.renderWithProviders(
    <app.RealtimeProvider>
      <span />
    </app.RealtimeProvider>,
    { store },
  );
  unmount = view.unmount;
  await waitFor(() => expect(socket).toBeDefined());
  const firstList = async () => {
    const result = await store.dispatch(app.ticketsApi.endpoints.listTickets.initiate(defaultTicketListArgs(user)));
    return (result.data as TicketPages).pages[0].tickets.map((t) => t.id);
  };
  return { firstList };
}

describe('the live socket and the page’s early ticket list', () => {
  it('a list asked for before the socket connected takes the page’s answer', async () => {
    handlers.push(async () => answer([11]));
    requestFirstTicketList(StorageKeys, EARLY_SLOT);
    const { firstList } = await signedIn();
    expect(await firstList()).toEqual([11]);
    expect(calls).toHaveLength(1);
  });

  it('a list asked for once the socket has connected is read after the connection, not taken from the page', async () => {
    handlers.push(
      async () => answer([11]),
      // a ticket came between the page's request and the connection: only a list read now has it
      async () => answer([14, 11]),
    );
    requestFirstTicketList(StorageKeys, EARLY_SLOT);
    const { firstList } = await signedIn();
    act(() => socket?.fire('connect'));
    expect(await firstList()).toEqual([14, 11]);
    expect(calls).toHaveLength(2);
  });
});
