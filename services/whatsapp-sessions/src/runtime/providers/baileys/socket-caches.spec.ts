import { describe, expect, it } from '@jest/globals';
import { BoundedCache } from './socket-caches.js';

/** A clock the test moves by hand. */
function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('BoundedCache', () => {
  it('never holds more than its bound: the least recently used entry goes first (a read counts as a use)', async () => {
    const cache = new BoundedCache(3, 60_000);
    for (const k of ['a', 'b', 'c']) cache.set(k, k.toUpperCase());
    expect(cache.get('a')).toBe('A'); // b is now the least recently used
    cache.set('d', 'D');
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(await cache.mget(['a', 'c', 'd'])).toEqual({ a: 'A', c: 'C', d: 'D' });
    cache.mset(Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, value: i })));
    expect(cache.size).toBe(3);
    expect(await cache.mget(['k47', 'k48', 'k49', 'a'])).toEqual({ k47: 47, k48: 48, k49: 49, a: undefined });
  });

  it('forgets an entry its lifetime after it was set (a read does not extend it), and on del, mdel and flushAll', () => {
    const c = clock();
    const cache = new BoundedCache(10, 5_000, c.now);
    cache.set('a', 1);
    c.advance(3_000);
    cache.set('b', null); // a key Baileys deleted is remembered as deleted
    expect(cache.get('a')).toBe(1);
    c.advance(2_000);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(1);
    expect(cache.get('b')).toBeNull();
    cache.set('c', 3);
    cache.set('d', 4);
    cache.del('b');
    cache.mdel(['c']);
    expect([cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([undefined, undefined, 4]);
    cache.flushAll();
    expect(cache.size).toBe(0);
  });
});
