import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { makeStore, type AppStore } from '../../../app/store';
import { syncQueueEvent } from '../queues.socket';
import { ticketsApi } from '../../tickets/tickets.api';
import { aQueue } from '../../../test/a-queue';

const realFetch = globalThis.fetch;
let requests = 0;

beforeEach(() => {
  requests = 0;
  globalThis.fetch = jest.fn(async () => {
    requests++;
    const body = [aQueue(1, 'Suporte', 1), aQueue(2, 'Vendas', null)];
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

async function loaded(): Promise<AppStore> {
  const store = makeStore();
  await store.dispatch(ticketsApi.endpoints.listQueues.initiate());
  return store;
}

const listed = (store: AppStore) => ticketsApi.endpoints.listQueues.select()(store.getState()).data ?? [];

describe('company-<id>-queue → the queues list', () => {
  it('update inserts or replaces in order, delete removes, without a request', async () => {
    const store = await loaded();
    const before = requests;
    expect(listed(store).map((q) => q.name)).toEqual(['Suporte', 'Vendas']);

    syncQueueEvent({ action: 'update', queue: aQueue(3, 'Cobrança', 2) }, store.dispatch);
    expect(listed(store).map((q) => q.name)).toEqual(['Suporte', 'Cobrança', 'Vendas']);

    syncQueueEvent({ action: 'update', queue: { ...aQueue(1, 'Suporte técnico', null), color: '#ff0000' } }, store.dispatch);
    expect(listed(store).map((q) => q.name)).toEqual(['Cobrança', 'Suporte técnico', 'Vendas']);
    expect(listed(store).find((q) => q.id === 1)?.color).toBe('#ff0000');

    syncQueueEvent({ action: 'delete', queueId: 3 }, store.dispatch);
    expect(listed(store).map((q) => q.id)).toEqual([1, 2]);
    expect(requests).toBe(before);
  });
});
