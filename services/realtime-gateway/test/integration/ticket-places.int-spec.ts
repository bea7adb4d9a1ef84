import { afterAll, describe, expect, it } from '@jest/globals';
import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RealtimeEnv } from '../../src/config/env.js';
import { TicketPlaces } from '../../src/realtime/ticket-places.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/1');
const env = { TICKET_CACHE_TTL_S: 60 } as RealtimeEnv;
afterAll(() => redis.disconnect());

describe('ticket places (Redis, with what this replica wrote remembered)', () => {
  const companyId = 700_000 + randomInt(100_000);

  it('answers where a ticket was; a ticket that stays put keeps answering its place', async () => {
    const places = new TicketPlaces(redis, env);
    const t = randomInt(1_000_000);
    expect(await places.swap(companyId, t, { queueId: 1, userId: null })).toBeNull();
    expect(await places.swap(companyId, t, { queueId: 1, userId: null })).toEqual({ queueId: 1, userId: null });
    expect(await places.swap(companyId, t, { queueId: 2, userId: 5 })).toEqual({ queueId: 1, userId: null });
    expect(await places.get(companyId, t)).toEqual({ queueId: 2, userId: 5 });
    expect(await places.forget(companyId, t)).toEqual({ queueId: 2, userId: 5 });
    expect(await places.get(companyId, t)).toBeNull();
  });

  it('a replica that takes over the fan-out reads Redis again, not what it wrote before another replica led', async () => {
    const a = new TicketPlaces(redis, env);
    const b = new TicketPlaces(redis, env);
    const t = randomInt(1_000_000);
    await a.swap(companyId, t, { queueId: 1, userId: null });
    // b leads for a while and moves the ticket
    b.resetMemo();
    expect(await b.swap(companyId, t, { queueId: 3, userId: 9 })).toEqual({ queueId: 1, userId: null });
    // a leads again: the ticket comes back to queue 1, and a sees it left queue 3 (its lists must drop it there)
    a.resetMemo();
    expect(await a.swap(companyId, t, { queueId: 1, userId: null })).toEqual({ queueId: 3, userId: 9 });
  });
});
