import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { JetStreamManager } from 'nats';
import { EventBus } from '../src/index.js';
import { SERVERS, memLogger, sleep, uniq, waitFor } from './helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

interface Ev {
  n: number;
  body: string;
}

describe('a consumer keeps no message it has handled', () => {
  const u = uniq();
  let bus: EventBus;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    bus = await EventBus.connect({ servers: SERVERS, name: 'test-memory', streams: [u.stream], logger: memLogger() });
    jsm = await bus.connection.jetstreamManager();
  });

  afterAll(async () => {
    await jsm.streams.delete(u.stream.name).catch(() => undefined);
    await bus.close();
  });

  it('lets every handled and acked message be collected, while the consumer runs on', async () => {
    const durable = u.durable('mem');
    const handled: Array<WeakRef<Ev>> = [];
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable,
      filterSubjects: [u.subj('mem.>')],
      concurrency: 2,
      handler: async (batch) => {
        for (const m of batch) handled.push(new WeakRef(m.data));
      },
    });
    // a few messages a second on a few conversations, as a quiet service gets them
    for (let n = 1; n <= 30; n++) {
      await bus.publish<Ev>(u.subj(`mem.conv${n % 3}`), { n, body: 'x'.repeat(2_000) }, { msgId: `${u.sfx}-m${n}` });
      if (n % 10 === 0) await sleep(50);
    }
    await waitFor(
      async () => handled.length === 30 && (await jsm.consumers.info(u.stream.name, durable)).num_ack_pending === 0,
      10_000,
      'all handled and acked',
    );
    await sleep(100);
    gc();
    await sleep(10);
    gc();
    const kept = handled.filter((r) => r.deref() !== undefined).length;
    expect(kept).toBe(0);
    await h.stop();
  });
});
