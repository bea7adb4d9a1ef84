import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { WaAckEntry } from '@wa/contracts';
import { AckWindow } from './ack-window.js';

afterEach(() => jest.useRealTimers());

describe('AckWindow', () => {
  it("writes the status changes of a window together, once, at the window's end", async () => {
    jest.useFakeTimers();
    const writes: WaAckEntry[][] = [];
    const w = new AckWindow<WaAckEntry>(
      20,
      async (acks) => void writes.push(acks),
      () => undefined,
    );
    w.add([{ waMessageId: 'A', ack: 1 }]);
    w.add([{ waMessageId: 'B', ack: 1 }]);
    jest.advanceTimersByTime(10);
    w.add([{ waMessageId: 'A', ack: 2 }]);
    expect(writes).toEqual([]);
    jest.advanceTimersByTime(10);
    await w.flush();
    expect(writes).toEqual([
      [
        { waMessageId: 'A', ack: 1 },
        { waMessageId: 'B', ack: 1 },
        { waMessageId: 'A', ack: 2 },
      ],
    ]);
    // a later change opens a new window
    w.add([{ waMessageId: 'B', ack: 3 }]);
    jest.advanceTimersByTime(20);
    await w.flush();
    expect(writes).toHaveLength(2);
  });

  it('writes at once with a window of 0, and what waits when the session stops (flush)', async () => {
    const writes: WaAckEntry[][] = [];
    const now = new AckWindow<WaAckEntry>(
      0,
      async (acks) => void writes.push(acks),
      () => undefined,
    );
    await now.add([{ waMessageId: 'A', ack: 1 }]);
    expect(writes).toEqual([[{ waMessageId: 'A', ack: 1 }]]);

    const later = new AckWindow<WaAckEntry>(
      60_000,
      async (acks) => void writes.push(acks),
      () => undefined,
    );
    later.add([{ waMessageId: 'C', ack: 4 }]);
    await later.flush();
    expect(writes[1]).toEqual([{ waMessageId: 'C', ack: 4 }]);
  });

  it('tries a failed write again, then gives the changes up with the error', async () => {
    let calls = 0;
    const givenUp: Array<[unknown, number]> = [];
    const w = new AckWindow<WaAckEntry>(
      1,
      async () => {
        calls++;
        throw new Error('database away');
      },
      (err, acks) => givenUp.push([(err as Error).message, acks.length]),
    );
    w.add([{ waMessageId: 'A', ack: 1 }]);
    await w.flush();
    expect(calls).toBe(3);
    expect(givenUp).toEqual([['database away', 1]]);

    let tries = 0;
    const ok: WaAckEntry[][] = [];
    const flaky = new AckWindow<WaAckEntry>(
      1,
      async (acks) => {
        if (++tries === 1) throw new Error('once');
        ok.push(acks);
      },
      () => undefined,
    );
    flaky.add([{ waMessageId: 'B', ack: 2 }]);
    await flaky.flush();
    expect(ok).toEqual([[{ waMessageId: 'B', ack: 2 }]]);
  });
});
