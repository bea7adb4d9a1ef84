import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { UserDto } from '@wa/contracts';
import { makeStore, type AppStore } from '../../../app/store';
import { syncUserEvent } from '../users.socket';
import { usersApi } from '../users.api';

const realFetch = globalThis.fetch;
let requests = 0;

const aUser = (id: number, name: string): UserDto =>
  ({
    id,
    name,
    email: `${name.toLowerCase()}@x.com`,
    profile: 'user',
    companyId: 1,
    whatsappId: 4,
    allTicket: 'desabled',
    super: false,
    online: true,
    queues: [],
    queueIds: [],
  }) as unknown as UserDto;

beforeEach(() => {
  requests = 0;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    requests++;
    const search = new URL((input as Request).url).searchParams.get('searchParam') ?? '';
    const all = [aUser(1, 'Ana'), aUser(2, 'Carla')];
    const users = all.filter((u) => u.name.toLowerCase().includes(search));
    return new Response(JSON.stringify({ users, count: users.length, hasMore: false }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

async function loaded(): Promise<AppStore> {
  const store = makeStore();
  await store.dispatch(usersApi.endpoints.listUsers.initiate(''));
  await store.dispatch(usersApi.endpoints.listUsers.initiate('an'));
  return store;
}

const listed = (store: AppStore, search: string) =>
  usersApi.endpoints.listUsers
    .select(search)(store.getState())
    .data?.pages.flatMap((p) => p.users) ?? [];
const ev = (id: number, name: string) => ({
  id,
  name,
  email: `${name.toLowerCase()}@x.com`,
  profile: 'admin' as const,
  queueIds: [10],
  allTicket: 'enabled' as const,
  super: false,
  companyId: 1,
});

describe('company-<id>-user → users lists', () => {
  it('create, update and delete change every cached list in place, without a request', async () => {
    const store = await loaded();
    const before = requests;
    syncUserEvent({ action: 'create', user: ev(3, 'Bia') }, store.getState(), store.dispatch);
    expect(listed(store, '').map((u) => u.name)).toEqual(['Ana', 'Bia', 'Carla']);
    expect(listed(store, 'an').map((u) => u.name)).toEqual(['Ana']);

    syncUserEvent({ action: 'update', user: ev(1, 'Ana Lima') }, store.getState(), store.dispatch);
    expect(listed(store, '')[0]).toMatchObject({ name: 'Ana Lima', profile: 'admin', queueIds: [10], whatsappId: 4, online: true });
    expect(listed(store, 'an')[0].name).toBe('Ana Lima');

    syncUserEvent({ action: 'delete', userId: 1 }, store.getState(), store.dispatch);
    expect(listed(store, '').map((u) => u.name)).toEqual(['Bia', 'Carla']);
    expect(listed(store, 'an')).toEqual([]);
    expect(requests).toBe(before);
  });
});
