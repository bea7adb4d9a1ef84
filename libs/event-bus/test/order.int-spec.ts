import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { JetStreamManager } from 'nats';
import { EventBus } from '../src/index.js';
import { SERVERS, memLogger, sleep, uniq, waitFor } from './helpers.js';

interface Ev {
  conv: number;
  n: number;
}

/** `t<sfx>.order.<conv>` -> conversation key */
const convKey = (subject: string) => subject.split('.').slice(0, 3).join('.');

async function publishAll(bus: EventBus, subj: (c: number) => string, conversations: number, perConv: number, tag: string): Promise<void> {
  // interleave conversations, keep per-conversation publish order; 64 in flight
  const jobs: (() => Promise<unknown>)[] = [];
  for (let n = 0; n < perConv; n++) {
    for (let c = 0; c < conversations; c++) jobs.push(() => bus.publish<Ev>(subj(c), { conv: c, n }, { msgId: `${tag}-${c}-${n}` }));
  }
  // per conversation, publish strictly in order: a conversation's next publish waits for its previous ack
  const last = new Map<number, Promise<unknown>>();
  const inflight = new Set<Promise<unknown>>();
  let i = 0;
  for (let n = 0; n < perConv; n++) {
    for (let c = 0; c < conversations; c++) {
      const job = jobs[i++]!;
      const p = (last.get(c) ?? Promise.resolve()).then(job);
      last.set(c, p);
      inflight.add(p);
      p.finally(() => inflight.delete(p));
      if (inflight.size >= 64) await Promise.race(inflight);
    }
  }
  await Promise.all(last.values());
}

describe('EventBus ordering, concurrency and batching', () => {
  const u = uniq();
  let bus: EventBus;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    bus = await EventBus.connect({ servers: SERVERS, name: 'test-order', streams: [u.stream], logger: memLogger() });
    jsm = await bus.connection.jetstreamManager();
  });

  afterAll(async () => {
    await jsm.streams.delete(u.stream.name).catch(() => undefined);
    await bus.close();
  });

  it('keeps order within a conversation while conversations run concurrently in lanes (20 x 50)', async () => {
    const CONV = 20;
    const PER = 50;
    const handled = new Map<number, number[]>();
    let active = 0;
    let maxActive = 0;
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: u.durable('order'),
      filterSubjects: [u.subj('order.>')],
      orderKey: convKey,
      concurrency: 8,
      handler: async ([m]) => {
        active++;
        maxActive = Math.max(maxActive, active);
        await sleep(Math.floor(Math.random() * 4));
        const list = handled.get(m!.data.conv) ?? [];
        list.push(m!.data.n);
        handled.set(m!.data.conv, list);
        active--;
      },
    });
    await publishAll(bus, (c) => u.subj(`order.${c}`), CONV, PER, `${u.sfx}-o`);
    await waitFor(() => [...handled.values()].reduce((a, l) => a + l.length, 0) === CONV * PER, 20_000, 'all handled');
    await h.stop();
    const expected = Array.from({ length: PER }, (_, i) => i);
    for (let c = 0; c < CONV; c++) expect(handled.get(c)).toEqual(expected);
    expect(maxActive).toBeGreaterThan(1);
    expect(maxActive).toBeLessThanOrEqual(8);
    const ci = await jsm.consumers.info(u.stream.name, u.durable('order'));
    expect(ci.num_ack_pending).toBe(0);
    expect(ci.num_redelivered).toBe(0);
  });

  it('batches what is already waiting, in order, up to batchSize', async () => {
    const CONV = 4;
    const PER = 100;
    const handled = new Map<number, number[]>();
    const sizes: number[] = [];
    await publishAll(bus, (c) => u.subj(`batch.${c}`), CONV, PER, `${u.sfx}-b`);
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: u.durable('batch'),
      filterSubjects: [u.subj('batch.>')],
      orderKey: convKey,
      concurrency: 4,
      batchSize: 25,
      handler: async (batch) => {
        sizes.push(batch.length);
        await sleep(2);
        for (const m of batch) {
          const list = handled.get(m.data.conv) ?? [];
          list.push(m.data.n);
          handled.set(m.data.conv, list);
        }
      },
    });
    await waitFor(() => sizes.reduce((a, b) => a + b, 0) === CONV * PER, 10_000, 'all handled');
    await h.stop();
    for (let c = 0; c < CONV; c++) expect(handled.get(c)).toEqual(Array.from({ length: PER }, (_, i) => i));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(25);
    expect(Math.max(...sizes)).toBeGreaterThan(1);
  });

  it('with lingerMs, gathers a trickle into one batch; stop() cuts the wait and hands the messages back', async () => {
    const sizes: number[][] = [];
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: u.durable('linger'),
      filterSubjects: [u.subj('linger.>')],
      batchSize: 100,
      lingerMs: 3000,
      handler: async (batch) => {
        sizes.push(batch.map((m) => m.data.n));
      },
    });
    // one after another, each waiting for the stream's ack: without lingerMs each is a batch of its own
    for (let i = 0; i < 5; i++) await bus.publish<Ev>(u.subj('linger.x'), { conv: 0, n: i }, { msgId: `${u.sfx}-g${i}` });
    await waitFor(() => sizes.flat().length === 5, 15_000, 'the trickle handled');
    expect(sizes).toEqual([[0, 1, 2, 3, 4]]);

    // a consumer lingering a minute: stop() returns without waiting it out, and the message is not lost
    const late = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: u.durable('linger-stop'),
      filterSubjects: [u.subj('linger-stop.>')],
      batchSize: 100,
      lingerMs: 60_000,
      handler: async () => {
        throw new Error('not while lingering');
      },
    });
    await bus.publish<Ev>(u.subj('linger-stop.x'), { conv: 0, n: 9 }, { msgId: `${u.sfx}-gs` });
    await sleep(300);
    const outcome = await Promise.race([late.stop().then(() => 'stopped'), sleep(20_000).then(() => 'still lingering')]);
    expect(outcome).toBe('stopped');
    const got: number[] = [];
    const again = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: u.durable('linger-stop'),
      filterSubjects: [u.subj('linger-stop.>')],
      handler: async (batch) => {
        got.push(...batch.map((m) => m.data.n));
      },
    });
    await waitFor(() => got.length === 1, 15_000, 'the handed-back message');
    await again.stop();
    await h.stop();
    expect(got).toEqual([9]);
  });

  it('does not wait to fill a batch: a lone message is handled alone, before the next one is published', async () => {
    const batches: number[][] = [];
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: u.durable('lone'),
      filterSubjects: [u.subj('lone.>')],
      batchSize: 100,
      handler: async (batch) => {
        batches.push(batch.map((m) => m.data.n));
      },
    });
    for (let i = 0; i < 20; i++) {
      await bus.publish<Ev>(u.subj('lone.x'), { conv: 0, n: i }, { msgId: `${u.sfx}-l${i}` });
      await waitFor(() => batches.length === i + 1, 10_000, `lone message ${i}`);
    }
    await h.stop();
    expect(batches).toEqual(Array.from({ length: 20 }, (_, i) => [i]));
  });
});
