import { afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { UserDto } from '@wa/contracts';
import { EARLY_SLOT, requestFirstTicketList } from '../../../app/early-requests';
import { StorageKeys } from '../../../app/storage';
import { defaultTicketListArgs, type TicketPages } from '../ticket-list-rules';
import { pageLoadsNow } from '../../../test/page-clock';
import { aTicketListResponse } from '../../../test/fixtures';

/**
 * A signed-in cold load of /tickets: the preload script asks for the first ticket list while the page is parsed,
 * and the ticket manager, once its code runs, shows that answer instead of asking again.
 */
const API = 'http://api.test';
const user = { id: 7, companyId: 1, name: 'Ana', profile: 'user', queueIds: [3, 5] } as unknown as UserDto;

const answer = aTicketListResponse;

/** The server: each request recorded (URL and token), answered by the next handler. */
let calls: Array<{ url: string; authorization: string | null }> = [];
let handlers: Array<() => Promise<Response>> = [];
const server = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const req = input instanceof Request ? input : new Request(String(input), init);
  calls.push({ url: req.url, authorization: req.headers.get('authorization') });
  const next = handlers.shift();
  if (!next) throw new Error(`unexpected request ${req.url}`);
  return next();
});

let app: {
  store: typeof import('../../../app/store').store;
  api: typeof import('../../../app/api').api;
  ticketsApi: typeof import('../tickets.api').ticketsApi;
};

const signIn = (token: string) => {
  localStorage.setItem(StorageKeys.token, token);
  localStorage.setItem(StorageKeys.userId, String(user.id));
  localStorage.setItem(StorageKeys.user, JSON.stringify(user));
};

/** The ticket manager's first list (TicketsPage): what it shows. */
async function firstList(): Promise<number[]> {
  const result = await app.store.dispatch(app.ticketsApi.endpoints.listTickets.initiate(defaultTicketListArgs(user)));
  return (result.data as TicketPages).pages[0].tickets.map((t) => t.id);
}

beforeAll(async () => {
  // the web server's /config.js, before the app's code
  (window as unknown as { __CONVERSA__: { apiUrl: string } }).__CONVERSA__ = { apiUrl: `${API}/` };
  globalThis.fetch = server as unknown as typeof fetch;
  // one after the other (the ES module loader of the tests links one import at a time)
  const { store } = await import('../../../app/store');
  const { api } = await import('../../../app/api');
  const { ticketsApi } = await import('../tickets.api');
  app = { store, api, ticketsApi };
});

// each test is a cold load of the page: an early answer serves it (EARLY_FOR_MS counts from the navigation)
let restoreClock: (() => void) | undefined;
beforeEach(() => {
  restoreClock = pageLoadsNow();
  localStorage.clear();
  calls = [];
  handlers = [];
  delete (window as unknown as Record<string, unknown>)[EARLY_SLOT];
  app.store.dispatch(app.api.util.resetApiState());
  window.history.pushState({}, '', '/tickets');
});

afterEach(() => restoreClock?.());

describe('the first ticket list of a cold load of /tickets', () => {
  it('is asked for once, by the page, and the ticket manager shows that answer', async () => {
    signIn('tok-1');
    handlers.push(async () => answer([11, 12]));
    requestFirstTicketList(StorageKeys, EARLY_SLOT);
    expect(calls).toEqual([
      {
        url: `${API}/tickets?status=open&showAll=false&queueIds=%5B3%2C5%5D&pageNumber=1`,
        authorization: 'Bearer tok-1',
      },
    ]);

    expect(await firstList()).toEqual([11, 12]);
    expect(calls).toHaveLength(1);
  });

  it('serves once: the list loaded again asks the server', async () => {
    signIn('tok-1');
    handlers.push(
      async () => answer([11]),
      async () => answer([11, 13]),
    );
    requestFirstTicketList(StorageKeys, EARLY_SLOT);
    expect(await firstList()).toEqual([11]);

    const again = await app.store.dispatch(
      app.ticketsApi.endpoints.listTickets.initiate(defaultTicketListArgs(user), { forceRefetch: true }),
    );
    expect((again.data as TicketPages).pages[0].tickets.map((t) => t.id)).toEqual([11, 13]);
    expect(calls).toHaveLength(2);
  });

  it('is asked for again when the page’s request failed', async () => {
    signIn('tok-1');
    handlers.push(
      () => Promise.reject(new TypeError('Failed to fetch')),
      async () => answer([21]),
    );
    requestFirstTicketList(StorageKeys, EARLY_SLOT);
    expect(await firstList()).toEqual([21]);
    expect(calls).toHaveLength(2);
  });

  it('is asked for again with the token of a sign-in made since', async () => {
    signIn('tok-1');
    handlers.push(
      async () => answer([11]),
      async () => answer([31]),
    );
    requestFirstTicketList(StorageKeys, EARLY_SLOT);
    localStorage.setItem(StorageKeys.token, 'tok-2');

    expect(await firstList()).toEqual([31]);
    expect(calls.map((c) => c.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
  });

  it('is not asked for early on another page, or without the user as last seen', async () => {
    signIn('tok-1');
    window.history.pushState({}, '', '/contacts');
    requestFirstTicketList(StorageKeys, EARLY_SLOT);
    window.history.pushState({}, '', '/tickets');
    localStorage.removeItem(StorageKeys.user);
    requestFirstTicketList(StorageKeys, EARLY_SLOT);
    expect(calls).toEqual([]);
  });
});
