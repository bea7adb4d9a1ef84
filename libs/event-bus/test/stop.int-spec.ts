import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { JetStreamManager } from 'nats';
import { EventBus } from '../src/index.js';
import type { BusMessage } from '../src/index.js';
import { SERVERS, memLogger, sleep, uniq, waitFor } from './helpers.js';

interface Ev {
  n: number;
}

describe('EventBus stop / close', () => {
  const u = uniq();
  let bus: EventBus;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    bus = await EventBus.connect({ servers: SERVERS, name: 'test-stop', streams: [u.stream], logger: memLogger() });
    jsm = await bus.connection.jetstreamManager();
  });

  afterAll(async () => {
    await jsm.streams.delete(u.stream.name).catch(() => undefined);
    await bus.close();
  });

  it('stop() finishes and acks in-flight work, hands not-started messages back for redelivery, in order', async () => {
    const durable = u.durable('stop');
    const subject = u.subj('stop.conv1');
    for (let n = 1; n <= 5; n++) await bus.publish<Ev>(subject, { n }, { msgId: `${u.sfx}-s${n}` });

    const events: string[] = [];
    let started = false;
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable,
      filterSubjects: [u.subj('stop.>')],
      ackWaitMs: 60_000, // a message left to its ack wait would not come back within this test
      handler: async ([m]) => {
        events.push(`start ${m!.data.n}`);
        started = true;
        await sleep(400);
        events.push(`end ${m!.data.n}`);
      },
    });
    await waitFor(() => started, 5000, 'first message started');
    await h.stop();
    events.push('stopped');
    expect(events).toEqual(['start 1', 'end 1', 'stopped']);

    // stopped: takes no more messages
    await bus.publish<Ev>(subject, { n: 6 }, { msgId: `${u.sfx}-s6` });
    await sleep(200);
    expect(events).toHaveLength(3);
    const ci = await jsm.consumers.info(u.stream.name, durable);
    expect(ci.ack_floor.stream_seq).toBe(1); // message 1 acked before stop() returned

    // a new consumer on the durable gets the rest, in order: the handed-back 2..5 before the newer 6
    const got: BusMessage<Ev>[] = [];
    const h2 = await bus.consume<Ev>({
      stream: u.stream.name,
      durable,
      filterSubjects: [u.subj('stop.>')],
      ackWaitMs: 60_000,
      handler: async (batch) => {
        got.push(...batch);
      },
    });
    // handed back: they come at once, not after the 60 s ack wait
    await waitFor(() => got.length >= 5, 15_000, 'the rest');
    await sleep(200); // nothing more comes (no duplicate)
    await h2.stop();
    expect(got.map((m) => [m.data.n, m.deliveryCount])).toEqual([
      [2, 2],
      [3, 2],
      [4, 2],
      [5, 2],
      [6, 1],
    ]);
    expect((await jsm.consumers.info(u.stream.name, durable)).num_ack_pending).toBe(0);
  });

  it('close() stops consumers (finishing their work and acking it) and drains the connection', async () => {
    const durable = u.durable('close');
    const other = await EventBus.connect({ servers: SERVERS, name: 'test-close', streams: [u.stream], logger: memLogger() });
    let ended = false;
    let started = false;
    await other.consume<Ev>({
      stream: u.stream.name,
      durable,
      filterSubjects: [u.subj('close.>')],
      handler: async () => {
        started = true;
        await sleep(300);
        ended = true;
      },
    });
    await other.publish<Ev>(u.subj('close.a'), { n: 1 }, { msgId: `${u.sfx}-c1` });
    await waitFor(() => started, 5000, 'handler started');
    await other.close();
    expect(ended).toBe(true);
    expect(other.isClosed()).toBe(true);
    await expect(other.consume({ stream: u.stream.name, durable, handler: async () => {} })).rejects.toThrow(/closed/);
    const ci = await jsm.consumers.info(u.stream.name, durable);
    expect(ci.num_ack_pending).toBe(0);
    expect(ci.ack_floor.stream_seq).toBeGreaterThan(0);
  });

  it('stop() interrupts a retry backoff and leaves the message for redelivery', async () => {
    const durable = u.durable('backoff');
    let calls = 0;
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable,
      filterSubjects: [u.subj('backoff.>')],
      backoffMs: [600_000],
      handler: async () => {
        calls++;
        throw new Error('nope');
      },
    });
    await bus.publish<Ev>(u.subj('backoff.a'), { n: 1 }, { msgId: `${u.sfx}-bo` });
    await waitFor(() => calls === 1, 5000, 'first attempt');
    // stop() returns without sitting out the 10-minute back-off
    const outcome = await Promise.race([h.stop().then(() => 'stopped'), sleep(20_000).then(() => 'still waiting')]);
    expect(outcome).toBe('stopped');
    const ci = await jsm.consumers.info(u.stream.name, durable);
    expect(ci.ack_floor.stream_seq).toBe(0); // not acked, not dead-lettered
  });
});
