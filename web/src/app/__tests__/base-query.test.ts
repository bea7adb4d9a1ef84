/** @jest-environment node */
import { describe, expect, it, jest } from '@jest/globals';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import type { LoginResponse } from '@wa/contracts';
import { createSessionBaseQuery, type SessionPort } from '../base-query';

type Handler = (req: Request) => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake fetch that answers from a queue of handlers per path and records every request. */
function fakeServer(routes: Record<string, Handler[]>) {
  const calls: Array<{ method: string; path: string; auth: string | null; credentials: RequestCredentials | undefined }> = [];
  const fetchFn = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(String(input), init);
    const path = new URL(req.url).pathname;
    calls.push({ method: req.method, path, auth: req.headers.get('authorization'), credentials: init?.credentials ?? req.credentials });
    const queue = routes[path];
    const handler = queue && queue.length > 1 ? queue.shift() : queue?.[0];
    if (!handler) return json(404, { error: 'ERR_NOT_FOUND' });
    return handler(req);
  });
  return { fetchFn: fetchFn as unknown as typeof fetch, calls };
}

function harness(routes: Record<string, Handler[]>, token = 'old-token') {
  const server = fakeServer(routes);
  let stored: string | null = token;
  const events: string[] = [];
  const port: SessionPort = {
    getToken: () => stored,
    setToken: (t) => {
      stored = t;
    },
    onRefreshed: (s) => events.push(`refreshed:${s.token}`),
    onLoggedOut: () => {
      stored = null;
      events.push('loggedOut');
    },
  };
  const { baseQuery } = createSessionBaseQuery({ baseUrl: 'http://api.test', port, fetchFn: server.fetchFn });
  const api = {
    dispatch: jest.fn(),
    getState: () => ({}),
    signal: new AbortController().signal,
    abort: jest.fn(),
    extra: undefined,
    endpoint: 'x',
    type: 'query',
  } as unknown as BaseQueryApi;
  return { run: (args: Parameters<typeof baseQuery>[0]) => baseQuery(args, api, {}), calls: server.calls, events, token: () => stored };
}

const session = (token: string): LoginResponse => ({ token, user: { id: 1, companyId: 1 } as LoginResponse['user'] });

describe('the base query (spec 01 §4 "Session")', () => {
  it('sends the stored token as a bearer and includes cookies', async () => {
    const h = harness({ '/tickets': [() => json(200, { tickets: [] })] });
    const res = await h.run('/tickets');
    expect(res.data).toEqual({ tickets: [] });
    expect(h.calls).toEqual([{ method: 'GET', path: '/tickets', auth: 'Bearer old-token', credentials: 'include' }]);
  });

  it('on a 403 refreshes the token once and retries the request once with the new token', async () => {
    const h = harness({
      '/tickets': [() => json(403, { error: 'ERR_SESSION_EXPIRED' }), () => json(200, { tickets: [1] })],
      '/auth/refresh_token': [() => json(200, session('new-token'))],
    });
    const res = await h.run('/tickets');
    expect(res.data).toEqual({ tickets: [1] });
    expect(h.calls.map((c) => `${c.method} ${c.path} ${c.auth ?? '-'}`)).toEqual([
      'GET /tickets Bearer old-token',
      'POST /auth/refresh_token -',
      'GET /tickets Bearer new-token',
    ]);
    expect(h.calls[1].credentials).toBe('include');
    expect(h.events).toEqual(['refreshed:new-token']);
    expect(h.token()).toBe('new-token');
  });

  it('retries only once: a second 403 is the answer', async () => {
    const h = harness({
      '/tickets/u/x': [() => json(403, { error: 'ERR_NO_PERMISSION', message: 'Acesso não permitido' })],
      '/auth/refresh_token': [() => json(200, session('new-token'))],
    });
    const res = await h.run('/tickets/u/x');
    expect(res.error).toMatchObject({ status: 403, data: { error: 'ERR_NO_PERMISSION' } });
    expect(h.calls.map((c) => c.path)).toEqual(['/tickets/u/x', '/auth/refresh_token', '/tickets/u/x']);
    expect(h.events).toEqual(['refreshed:new-token']);
  });

  it('logs out when the refresh is refused', async () => {
    const h = harness({
      '/tickets': [() => json(403, { error: 'ERR_SESSION_EXPIRED' })],
      '/auth/refresh_token': [() => json(401, { error: 'ERR_SESSION_EXPIRED' })],
    });
    const res = await h.run('/tickets');
    expect(res.error).toMatchObject({ status: 403 });
    expect(h.calls.map((c) => c.path)).toEqual(['/tickets', '/auth/refresh_token']);
    expect(h.events).toEqual(['loggedOut']);
    expect(h.token()).toBeNull();
  });

  it('logs out on a 401, without refreshing', async () => {
    const h = harness({ '/tickets': [() => json(401, { error: 'ERR_UNAUTHENTICATED' })] });
    const res = await h.run('/tickets');
    expect(res.error).toMatchObject({ status: 401 });
    expect(h.calls.map((c) => c.path)).toEqual(['/tickets']);
    expect(h.events).toEqual(['loggedOut']);
  });

  it('logs out when the retry answers 401', async () => {
    const h = harness({
      '/tickets': [() => json(403, {}), () => json(401, {})],
      '/auth/refresh_token': [() => json(200, session('new-token'))],
    });
    await h.run('/tickets');
    expect(h.events).toEqual(['refreshed:new-token', 'loggedOut']);
  });

  it('shares one refresh between requests that get 403 together (a refresh token rotates once)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const h = harness({
      '/a': [() => json(403, {}), () => json(200, 'a')],
      '/b': [() => json(403, {}), () => json(200, 'b')],
      '/auth/refresh_token': [async () => (await gate, json(200, session('new-token')))],
    });
    const both = Promise.all([h.run('/a'), h.run('/b')]);
    await new Promise((r) => setTimeout(r, 10));
    release();
    const [a, b] = await both;
    expect([a.data, b.data]).toEqual(['a', 'b']);
    expect(h.calls.filter((c) => c.path === '/auth/refresh_token')).toHaveLength(1);
  });

  it('keeps the session when the refresh fails for a network error', async () => {
    const h = harness({
      '/tickets': [() => json(403, {})],
      '/auth/refresh_token': [() => Promise.reject(new TypeError('fetch failed'))],
    });
    const res = await h.run('/tickets');
    expect(res.error).toMatchObject({ status: 403 });
    expect(h.events).toEqual([]);
    expect(h.token()).toBe('old-token');
  });

  it('passes the errors of the sign-in calls through: a wrong password is not a logout', async () => {
    const h = harness({ '/auth/login': [() => json(401, { error: 'ERR_INVALID_CREDENTIALS', message: 'Wrong email or password.' })] }, '');
    const res = await h.run({ url: '/auth/login', method: 'POST', body: { email: 'a@b.c', password: 'x' } });
    expect(res.error).toMatchObject({ status: 401, data: { error: 'ERR_INVALID_CREDENTIALS' } });
    expect(h.events).toEqual([]);
    expect(h.calls.map((c) => c.path)).toEqual(['/auth/login']);
  });
});
