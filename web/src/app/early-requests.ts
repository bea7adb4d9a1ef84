/**
 * Requests a signed-in cold load starts while the page is still being parsed, before the app's code has arrived
 * (half a second later, or more): the preload script (vite.config.ts) starts them, the app's fetch takes their
 * answers instead of asking again. Until then the first ticket list was asked for only once the ticket manager's
 * code ran, and the list waited for its answer (its CORS preflight, then the GET) after all the code.
 */

/** Where the preload script leaves what it started: `window[EARLY_SLOT]`, a list of `EarlyRequest`. */
export const EARLY_SLOT = '__conversaEarly';

/** An early answer serves the page's start only: a request made later than this (ms from navigation) asks the server. */
export const EARLY_FOR_MS = 10_000;

export interface EarlyRequest {
  method: string;
  url: string;
  authorization: string;
  response: Promise<Response>;
}

/**
 * The preload script's part (written into it as source by vite.config.ts: no imports, no closure, everything it
 * needs comes as an argument): on /tickets, with a stored session and the user as last seen, the first list
 * the ticket manager shows (features/tickets-manager/TicketsPage.tsx: `defaultTicketListArgs`, the open tab, not
 * "show all", the user's queues, page 1) — the very GET `listTickets` makes, with the stored token.
 */
export function requestFirstTicketList(keys: { token: string; userId: string; user: string }, slot: string): void {
  const config = (window as unknown as { __CONVERSA__?: { apiUrl?: string } }).__CONVERSA__;
  const token = localStorage.getItem(keys.token);
  if (!config?.apiUrl || !token || location.pathname.indexOf('/tickets') !== 0) return;
  const user = JSON.parse(localStorage.getItem(keys.user) ?? 'null') as {
    id?: unknown;
    queueIds?: number[];
    queues?: Array<{ id: number }>;
  } | null;
  if (!user || String(user.id) !== localStorage.getItem(keys.userId)) return;
  const queueIds = user.queueIds ?? user.queues?.map((q) => q.id) ?? [];
  const query = new URLSearchParams({ status: 'open', showAll: 'false', queueIds: JSON.stringify(queueIds), pageNumber: '1' });
  const url = new URL(`${config.apiUrl.replace(/\/+$/, '')}/tickets?${query}`).href;
  const authorization = `Bearer ${token}`;
  const response = fetch(url, { credentials: 'include', headers: { accept: 'application/json', authorization } });
  // a failure is the app's to see when it takes this answer (it asks again then), not an unhandled rejection
  response.catch(() => undefined);
  const early = (window as unknown as Record<string, unknown>)[slot];
  const list = Array.isArray(early) ? early : [];
  list.push({ method: 'GET', url, authorization, response });
  (window as unknown as Record<string, unknown>)[slot] = list;
}

/**
 * The answer of an early request that is this very request (method, URL, token), taken once; null when there is
 * none, or the page has been up longer than `EARLY_FOR_MS`. An early request that failed is made again.
 */
export function takeEarlyResponse(request: Request): Promise<Response> | null {
  if (typeof window === 'undefined') return null;
  const list = (window as unknown as Record<string, EarlyRequest[] | undefined>)[EARLY_SLOT];
  if (!Array.isArray(list) || list.length === 0) return null;
  if (performance.now() > EARLY_FOR_MS) {
    dropEarlyResponses();
    return null;
  }
  const at = list.findIndex(
    (e) => e.method === request.method && e.url === request.url && e.authorization === request.headers.get('authorization'),
  );
  if (at < 0) return null;
  const [early] = list.splice(at, 1);
  return early.response.catch(() => fetch(request));
}

/**
 * The live socket has connected: from now on a ticket list hears of every change, and a list asked for now must be
 * read after that. An answer the page asked for before is older than the connection (a change made in between
 * would never reach that list): none is taken any more.
 */
export function dropEarlyResponses(): void {
  if (typeof window === 'undefined') return;
  const list = (window as unknown as Record<string, EarlyRequest[] | undefined>)[EARLY_SLOT];
  if (Array.isArray(list)) list.length = 0;
}

/** `fetch`, less the requests the page already started (their answers, once). */
export function fetchTakingEarly(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return (input instanceof Request && !init && takeEarlyResponse(input)) || fetch(input, init);
}
