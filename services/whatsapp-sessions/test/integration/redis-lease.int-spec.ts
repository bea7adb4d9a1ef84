import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RedisLease } from '@wa/server-kit';
import { TEST_REDIS_URL } from '@wa/testing';
import { Redis } from 'ioredis';

/** server-kit's lease (used by session placement and realtime's fan-out) against the real Redis. */
describe('RedisLease', () => {
  let redis: Redis;
  const keys: string[] = [];
  const key = () => {
    const k = `test:lease:${randomUUID()}`;
    keys.push(k);
    return k;
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('is taken by one owner at a time, renewed by its owner only, and free again once released', async () => {
    const a = new RedisLease(redis, { owner: 'owner-a', ttlMs: 5000 });
    const b = new RedisLease(redis, { owner: 'owner-b', ttlMs: 5000 });
    const k = key();
    expect(await a.holder(k)).toBeNull();
    expect(await a.acquire(k)).toBe(true);
    expect(await a.holder(k)).toBe('owner-a');
    expect(await b.acquire(k)).toBe(false);
    expect(await b.renew(k)).toBe(false);
    // acquiring what we hold renews it
    await redis.pexpire(k, 1000);
    expect(await a.acquire(k)).toBe(true);
    expect(await redis.pttl(k)).toBeGreaterThan(4000);
    // someone else's release leaves it alone
    await b.release(k);
    expect(await a.holder(k)).toBe('owner-a');
    await a.release(k);
    expect(await a.holder(k)).toBeNull();
    expect(await a.renew(k)).toBe(false);
    expect(await b.acquire(k)).toBe(true);
    expect(await b.holder(k)).toBe('owner-b');
  });

  it('expires when its owner stops renewing, and renewing keeps it past the TTL', async () => {
    const a = new RedisLease(redis, { owner: 'owner-a', ttlMs: 300 });
    const b = new RedisLease(redis, { owner: 'owner-b', ttlMs: 300 });
    const kept = key();
    const dropped = key();
    expect(await a.acquire(kept)).toBe(true);
    expect(await a.acquire(dropped)).toBe(true);
    for (let i = 0; i < 4; i++) {
      await sleep(120);
      expect(await a.renew(kept)).toBe(true);
    }
    expect(await a.holder(kept)).toBe('owner-a');
    expect(await a.holder(dropped)).toBeNull();
    expect(await b.acquire(dropped)).toBe(true);
  });

  it('renews many leases in one go and answers those no longer ours', async () => {
    const a = new RedisLease(redis, { owner: 'owner-a', ttlMs: 5000 });
    const b = new RedisLease(redis, { owner: 'owner-b', ttlMs: 5000 });
    const [ours, taken, gone] = [key(), key(), key()];
    for (const k of [ours, taken, gone]) expect(await a.acquire(k)).toBe(true);
    await redis.set(taken, 'owner-b', 'PX', 5000); // another owner got it after ours lapsed
    await redis.del(gone);
    await redis.pexpire(ours, 1000);
    expect(await a.renewMany([ours, taken, gone])).toEqual([taken, gone]);
    expect(await redis.pttl(ours)).toBeGreaterThan(4000);
    expect(await b.holder(taken)).toBe('owner-b');
    expect(await a.holder(gone)).toBeNull();
    expect(await a.renewMany([])).toEqual([]);
  });

  it('keeps leases through a Redis outage longer than the TTL: a lapsed lease nobody took is taken back, one someone took is lost', async () => {
    const a = new RedisLease(redis, { owner: 'owner-a', ttlMs: 5000 });
    const [lapsed, taken, ours] = [key(), key(), key()];
    for (const k of [lapsed, taken, ours]) expect(await a.acquire(k)).toBe(true);
    await redis.del(lapsed); // expired while Redis could not be reached
    await redis.set(taken, 'owner-b', 'PX', 5000); // another process reached Redis first
    expect(await a.keepMany([lapsed, taken, ours])).toEqual([taken]);
    expect(await a.holder(lapsed)).toBe('owner-a');
    expect(await redis.pttl(lapsed)).toBeGreaterThan(4000);
    expect(await a.holder(taken)).toBe('owner-b');
    expect(await a.keepMany([])).toEqual([]);
  });
});
