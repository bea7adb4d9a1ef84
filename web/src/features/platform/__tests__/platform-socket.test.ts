import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { makeStore, type AppStore } from '../../../app/store';
import { api } from '../../../app/api';
import { companiesApi } from '../companies.api';
import { plansApi } from '../plans.api';
import { syncCompanyListEvent, syncPlanListEvent } from '../platform.socket';

/** A fake server whose companies and plans change behind the page's back; the live events make the lists reload. */
const realFetch = globalThis.fetch;
let requests: string[] = [];
let companies: { id: number; name: string; planId: number; plan: { name: string } }[] = [];
let plans: { id: number; name: string }[] = [];

beforeEach(() => {
  requests = [];
  plans = [{ id: 1, name: 'Básico' }];
  companies = [{ id: 1, name: 'Loja', planId: 1, plan: { name: 'Básico' } }];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    requests.push(url.pathname);
    let body: unknown = [];
    if (url.pathname === '/companies') body = { companies, count: companies.length, hasMore: false };
    if (url.pathname.startsWith('/companies/')) body = companies.find((c) => `/companies/${c.id}` === url.pathname) ?? {};
    if (url.pathname === '/plans/all') body = plans;
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** the Horarios tab's `GET /companies/{id}` (settings feature), as a query tagged like it */
const recordApi = api.injectEndpoints({
  endpoints: (build) => ({
    companyRecord: build.query<{ name: string }, number>({
      query: (id) => `/companies/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'Company', id }],
    }),
  }),
});

/** the store's state as the platform slices (which add the tag types Company and Plan) read it */
const stateOf = (store: AppStore) => store.getState() as never;

async function loaded(): Promise<AppStore> {
  const store = makeStore();
  await store.dispatch(companiesApi.endpoints.listCompanies.initiate(''));
  await store.dispatch(plansApi.endpoints.listPlans.initiate());
  await store.dispatch(recordApi.endpoints.companyRecord.initiate(1));
  return store;
}

const companyNames = (store: AppStore) =>
  companiesApi.endpoints.listCompanies
    .select('')(stateOf(store))
    .data?.pages.flatMap((p) => p.companies.map((c) => c.name)) ?? [];
const planNames = (store: AppStore) => (plansApi.endpoints.listPlans.select()(stateOf(store)).data ?? []).map((p) => p.name);

async function settled(store: AppStore): Promise<void> {
  await new Promise((r) => setTimeout(r, 0));
  await Promise.all(store.dispatch(companiesApi.util.getRunningQueriesThunk()));
}

describe('platform-company and platform-plan → the companies and plans lists reload', () => {
  it('a company created elsewhere appears; an updated one is read again, with its own record', async () => {
    const store = await loaded();
    expect(companyNames(store)).toEqual(['Loja']);

    companies = [...companies, { id: 2, name: 'Padaria', planId: 1, plan: { name: 'Básico' } }];
    requests = [];
    syncCompanyListEvent({ action: 'create', id: 2 }, store.dispatch);
    await settled(store);
    expect(requests).toEqual(['/companies']);
    expect(companyNames(store)).toEqual(['Loja', 'Padaria']);

    companies = [{ ...companies[0], name: 'Loja Centro' }, companies[1]];
    requests = [];
    syncCompanyListEvent({ action: 'update', id: 1 }, store.dispatch);
    await settled(store);
    expect([...requests].sort()).toEqual(['/companies', '/companies/1']);
    expect(companyNames(store)).toEqual(['Loja Centro', 'Padaria']);
    expect(recordApi.endpoints.companyRecord.select(1)(store.getState()).data?.name).toBe('Loja Centro');

    companies = [companies[0]];
    requests = [];
    syncCompanyListEvent({ action: 'delete', id: 2 }, store.dispatch);
    await settled(store);
    expect(requests).toEqual(['/companies']);
    expect(companyNames(store)).toEqual(['Loja Centro']);
  });

  it('a plan saved elsewhere reloads the plans list and the companies lists (their rows show the plan)', async () => {
    const store = await loaded();
    plans = [{ id: 1, name: 'Essencial' }];
    companies = [{ ...companies[0], plan: { name: 'Essencial' } }];
    requests = [];
    syncPlanListEvent({ action: 'update', id: 1 }, store.dispatch);
    await settled(store);
    expect([...requests].sort()).toEqual(['/companies', '/plans/all']);
    expect(planNames(store)).toEqual(['Essencial']);
    expect(companiesApi.endpoints.listCompanies.select('')(stateOf(store)).data?.pages[0].companies[0].plan).toEqual({
      name: 'Essencial',
    });
  });
});
