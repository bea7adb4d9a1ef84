import { describe, expect, it } from '@jest/globals';
import { preferredReplica } from './replicas.js';

const ids = Array.from({ length: 3000 }, (_, i) => i + 1);
const replicas = (n: number, capacity = 500) => Array.from({ length: n }, (_, i) => ({ name: `whatsapp-sessions-${i}`, capacity }));
const placement = (rs: ReadonlyArray<{ name: string; capacity: number }>) => new Map(ids.map((id) => [id, preferredReplica(id, rs)]));
const countBy = (m: Map<number, string | undefined>) => {
  const c = new Map<string, number>();
  for (const v of m.values()) c.set(v ?? 'none', (c.get(v ?? 'none') ?? 0) + 1);
  return c;
};

describe('preferredReplica (weighted rendezvous hashing)', () => {
  it('spreads connections evenly over equal replicas, the same answer for the same list in any order', () => {
    const three = placement(replicas(3));
    for (const n of countBy(three).values()) expect(Math.abs(n - 1000)).toBeLessThan(150);
    expect(placement([...replicas(3)].reverse())).toEqual(three);
  });

  it('moves only the connections that prefer a new replica when one joins, and only the gone one’s when one leaves', () => {
    const three = placement(replicas(3));
    const four = placement(replicas(4));
    let moved = 0;
    for (const id of ids) {
      if (three.get(id) === four.get(id)) continue;
      moved++;
      expect(four.get(id)).toBe('whatsapp-sessions-3');
    }
    // a quarter of them, give or take
    expect(Math.abs(moved - 750)).toBeLessThan(150);
    const two = placement(replicas(3).filter((r) => r.name !== 'whatsapp-sessions-1'));
    for (const id of ids) if (three.get(id) !== 'whatsapp-sessions-1') expect(two.get(id)).toBe(three.get(id));
  });

  it('weighs replicas by capacity, and none without capacity (or no replica at all) is no answer', () => {
    const counts = countBy(
      placement([
        { name: 'big', capacity: 600 },
        { name: 'small', capacity: 200 },
      ]),
    );
    expect(Math.abs((counts.get('big') ?? 0) / ids.length - 0.75)).toBeLessThan(0.05);
    expect(preferredReplica(7, [{ name: 'full', capacity: 0 }])).toBeUndefined();
    expect(preferredReplica(7, [])).toBeUndefined();
  });
});
