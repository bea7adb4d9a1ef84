import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { makeStore, type AppStore } from '../../../app/store';
import { helpsApi } from '../helps.api';
import { syncHelpListEvent } from '../helps.socket';

/** A fake server whose helps change behind the page's back; `platform-help` makes both lists reload. */
const realFetch = globalThis.fetch;
let requests: string[] = [];
let helps: { id: number; title: string; description: string; video: string }[] = [];

beforeEach(() => {
  requests = [];
  helps = [{ id: 1, title: 'Conexões', description: '', video: 'abc' }];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    requests.push(url.pathname);
    const body = url.pathname === '/helps' ? { helps, count: helps.length, hasMore: false } : helps;
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

describe('platform-help → the helps lists reload', () => {
  it('a help saved or deleted elsewhere is read again by /helps and the Ajuda tab', async () => {
    const store: AppStore = makeStore();
    await store.dispatch(helpsApi.endpoints.listHelps.initiate(''));
    await store.dispatch(helpsApi.endpoints.listAllHelps.initiate());

    helps = [...helps, { id: 2, title: 'Filas', description: '', video: 'def' }];
    requests = [];
    syncHelpListEvent({ action: 'create', id: 2 }, store.dispatch);
    await new Promise((r) => setTimeout(r, 0));
    await Promise.all(store.dispatch(helpsApi.util.getRunningQueriesThunk()));

    expect([...requests].sort()).toEqual(['/helps', '/helps/list']);
    expect(
      helpsApi.endpoints.listHelps
        .select('')(store.getState() as never)
        .data?.pages.flatMap((p) => p.helps.map((h) => h.title)),
    ).toEqual(['Conexões', 'Filas']);
    expect(
      helpsApi.endpoints.listAllHelps
        .select()(store.getState() as never)
        .data?.map((h) => h.title),
    ).toEqual(['Conexões', 'Filas']);
  });
});
