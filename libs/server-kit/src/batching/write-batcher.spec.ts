import { writeBatcher } from './write-batcher.js';

/** A write its test finishes by hand, recording what each call carried. */
function heldWrites() {
  const calls: Array<{ items: readonly number[]; finish: (err?: Error) => void }> = [];
  const write = (items: readonly number[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ items: [...items], finish: (err) => (err ? reject(err) : resolve()) });
    });
  return { calls, write };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('writeBatcher', () => {
  it('writes what is asked in one turn together, and what comes during a write in the next one', async () => {
    const { calls, write } = heldWrites();
    const add = writeBatcher(write);
    const first = [add(1), add(2), add(3)];
    await turn();
    await turn();
    expect(calls.map((c) => c.items)).toEqual([[1, 2, 3]]);
    // asked while the first write is under way: they wait for it, then go together
    const second = [add(4), add(5)];
    await turn();
    await turn();
    const later = add(6);
    await turn();
    expect(calls).toHaveLength(1);
    calls[0].finish();
    await Promise.all(first);
    await turn();
    await turn();
    expect(calls.map((c) => c.items)).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    calls[1].finish();
    await Promise.all([...second, later]);
  });

  it('fails the callers of a failed write only, and goes on with the next', async () => {
    const { calls, write } = heldWrites();
    const add = writeBatcher(write);
    const failing = [add(1), add(2)].map((p) =>
      p.then(
        () => 'ok',
        (err: Error) => err.message,
      ),
    );
    await turn();
    await turn();
    const next = add(3);
    calls[0].finish(new Error('disk full'));
    expect(await Promise.all(failing)).toEqual(['disk full', 'disk full']);
    await turn();
    await turn();
    expect(calls.map((c) => c.items)).toEqual([[1, 2], [3]]);
    calls[1].finish();
    await expect(next).resolves.toBeUndefined();
  });

  it('splits a crowd into writes of maxBatchSize', async () => {
    const { calls, write } = heldWrites();
    const add = writeBatcher(write, { maxBatchSize: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => add(n));
    await turn();
    await turn();
    for (const c of calls) c.finish();
    await Promise.all(all);
    expect(calls.map((c) => c.items)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
