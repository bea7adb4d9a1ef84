import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { JetStreamManager, StoredMsg } from 'nats';
import { DlqHeaders, EventBus, dlqSubject } from '../src/index.js';
import type { BusMessage } from '../src/index.js';
import { SERVERS, memLogger, sleep, uniq, waitFor } from './helpers.js';

interface Ev {
  conv: string;
  n: number;
  bad?: boolean;
}

describe('EventBus retries and dead-lettering', () => {
  const u = uniq();
  const log = memLogger();
  let bus: EventBus;
  let jsm: JetStreamManager;
  const durables: string[] = [];

  const durable = (tag: string) => {
    const d = u.durable(tag);
    durables.push(d);
    return d;
  };

  async function dlqMessage(d: string, subject: string): Promise<StoredMsg> {
    return jsm.streams.getMessage('DLQ', { last_by_subj: dlqSubject(d, subject) });
  }

  /**
   * The durable's counts once its acks have landed: the server applies an ack apart from the API that answers the
   * counts, so one sent just before may still be counted pending (waited for up to 5 s; one never sent stays counted).
   */
  async function ackPending(d: string) {
    const read = async () => {
      const ci = await jsm.consumers.info(u.stream.name, d);
      return { ackPending: ci.num_ack_pending, pending: ci.num_pending, redelivered: ci.num_redelivered };
    };
    await waitFor(async () => (await read()).ackPending === 0, 5000, 'acks applied').catch(() => undefined);
    return read();
  }

  beforeAll(async () => {
    bus = await EventBus.connect({ servers: SERVERS, name: 'test-retry', streams: [u.stream], logger: log });
    jsm = await bus.connection.jetstreamManager();
  });

  afterAll(async () => {
    for (const d of durables) await jsm.streams.purge('DLQ', { filter: `dlq.${d}.>` }).catch(() => undefined);
    await jsm.streams.delete(u.stream.name).catch(() => undefined);
    await bus.close();
  });

  it('retryByRedelivery: a failing message waits in JetStream and its conversation waits behind it, other conversations go on; its tries are deliveries', async () => {
    const d = durable('redeliver');
    const seen: string[] = [];
    const tries: number[] = [];
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: d,
      filterSubjects: [u.subj('redeliver.>')],
      orderKey: (subject) => subject,
      concurrency: 1, // one lane: conversation b shares it with a
      batchSize: 4,
      maxAttempts: 5,
      backoffMs: [400],
      retryByRedelivery: true,
      handler: async (batch) => {
        // a batch that holds a's first message fails whole, as a handler's single statement would
        for (const m of batch) {
          if (m.data.conv === 'a' && m.data.n === 0 && m.deliveryCount < 3) {
            tries.push(m.deliveryCount);
            throw new Error('the phone refused the send:\nnot now');
          }
        }
        for (const m of batch) seen.push(`${m.data.conv}${m.data.n}${m.data.conv === 'a' && m.data.n === 0 ? `@${m.deliveryCount}` : ''}`);
      },
    });
    await bus.publish<Ev>(u.subj('redeliver.a'), { conv: 'a', n: 0 }, { msgId: `${u.sfx}-ra0` });
    await bus.publish<Ev>(u.subj('redeliver.a'), { conv: 'a', n: 1 }, { msgId: `${u.sfx}-ra1` });
    await bus.publish<Ev>(u.subj('redeliver.b'), { conv: 'b', n: 0 }, { msgId: `${u.sfx}-rb0` });
    await bus.publish<Ev>(u.subj('redeliver.a'), { conv: 'a', n: 2 }, { msgId: `${u.sfx}-ra2` });
    await bus.publish<Ev>(u.subj('redeliver.b'), { conv: 'b', n: 1 }, { msgId: `${u.sfx}-rb1` });
    await waitFor(() => seen.length === 5, 15_000, 'all handled');
    await h.stop();
    // b went on while a waited for its retries (two of 400 ms)
    expect(seen.indexOf('b0')).toBeLessThan(seen.indexOf('a0@3'));
    expect(seen.indexOf('b1')).toBeLessThan(seen.indexOf('a0@3'));
    // a kept its order: its later messages waited for the one being retried, whose tries were its deliveries
    expect(seen.filter((x) => x.startsWith('a'))).toEqual(['a0@3', 'a1', 'a2']);
    expect(tries).toEqual([1, 2]);
    expect(await ackPending(d)).toMatchObject({ ackPending: 0, pending: 0 });
  });

  it('retries a failing message in its lane with growing delays, then dead-letters it; the conversation waits', async () => {
    const d = durable('retry');
    const attempts: { n: number; at: number; deliveryCount: number }[] = [];
    const handled: number[] = [];
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: d,
      filterSubjects: [u.subj('retry.>')],
      maxAttempts: 4,
      backoffMs: [100, 300, 1200],
      ackWaitMs: 1000, // shorter than the last delay: working() must keep the message alive
      handler: async ([m]) => {
        if (m!.data.bad) {
          attempts.push({ n: m!.data.n, at: Date.now(), deliveryCount: m!.deliveryCount });
          throw new Error(`cannot store message ${m!.data.n}:\nconstraint violated`);
        }
        handled.push(m!.data.n);
      },
    });
    const subject = u.subj('retry.c1');
    const pub = await bus.publish<Ev>(subject, { conv: 'c1', n: 1, bad: true }, { msgId: `${u.sfx}-r1`, headers: { 'X-Company': '7' } });
    for (let n = 2; n <= 4; n++) await bus.publish<Ev>(subject, { conv: 'c1', n }, { msgId: `${u.sfx}-r${n}` });
    await bus.publish<Ev>(u.subj('retry.c2'), { conv: 'c2', n: 100 }, { msgId: `${u.sfx}-other` });

    await waitFor(() => handled.length === 4, 8000, 'the good messages');
    await h.stop();

    // another conversation was not blocked; the same conversation waited for the failing message
    expect(handled.indexOf(100)).toBe(0);
    expect(handled.slice(1)).toEqual([2, 3, 4]);
    expect(attempts.map((a) => a.n)).toEqual([1, 1, 1, 1]);
    // no redelivery while retrying (kept alive with +WPI although retries outlast ack wait)
    expect(attempts.every((a) => a.deliveryCount === 1)).toBe(true);
    const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(90);
    expect(gaps[1]).toBeGreaterThanOrEqual(280);
    expect(gaps[2]).toBeGreaterThanOrEqual(1180);
    expect(gaps[1]!).toBeGreaterThan(gaps[0]!);
    expect(gaps[2]!).toBeGreaterThan(gaps[1]!);

    const dead = await dlqMessage(d, subject);
    expect(dead.json<Ev>()).toEqual({ conv: 'c1', n: 1, bad: true });
    expect(dead.header.get(DlqHeaders.error)).toBe('cannot store message 1: constraint violated');
    expect(dead.header.get(DlqHeaders.subject)).toBe(subject);
    expect(dead.header.get(DlqHeaders.stream)).toBe(u.stream.name);
    expect(dead.header.get(DlqHeaders.streamSeq)).toBe(String(pub.seq));
    expect(dead.header.get(DlqHeaders.attempts)).toBe('4');
    expect(dead.header.get(DlqHeaders.msgId)).toBe(`${u.sfx}-r1`);
    expect(dead.header.get('X-Company')).toBe('7');
    expect(await ackPending(d)).toEqual({ ackPending: 0, pending: 0, redelivered: 0 });
    const errors = log.entries.filter((e) => e.level === 'error' && e.obj.durable === d);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: 'event-bus: message dead-lettered', obj: { subject, seq: pub.seq, attempts: 4 } });
    expect(log.entries.filter((e) => e.msg === 'event-bus: handler failed; retrying' && e.obj.durable === d)).toHaveLength(3);
  });

  it('recovers when a retry succeeds', async () => {
    const d = durable('flaky');
    let calls = 0;
    const ok: number[] = [];
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: d,
      filterSubjects: [u.subj('flaky.>')],
      backoffMs: [20],
      handler: async ([m]) => {
        if (++calls < 3) throw new Error('db down');
        ok.push(m!.data.n);
      },
    });
    await bus.publish<Ev>(u.subj('flaky.x'), { conv: 'x', n: 7 }, { msgId: `${u.sfx}-f` });
    await waitFor(() => ok.length === 1, 5000, 'flaky success');
    await h.stop();
    expect(calls).toBe(3);
    expect(await ackPending(d)).toEqual({ ackPending: 0, pending: 0, redelivered: 0 });
    await expect(dlqMessage(d, u.subj('flaky.x'))).rejects.toThrow();
  });

  it('falls back to one-by-one when a batch fails, so only the bad message is dead-lettered', async () => {
    const d = durable('batch');
    const calls: number[][] = [];
    const stored: number[] = [];
    // publish first so that the lane finds them waiting and batches them
    for (let n = 1; n <= 10; n++) {
      await bus.publish<Ev>(u.subj('batch.c'), { conv: 'c', n, bad: n === 6 }, { msgId: `${u.sfx}-b${n}` });
    }
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: d,
      filterSubjects: [u.subj('batch.>')],
      batchSize: 10,
      maxAttempts: 2,
      backoffMs: [10],
      handler: async (batch: BusMessage<Ev>[]) => {
        calls.push(batch.map((m) => m.data.n));
        if (batch.some((m) => m.data.bad)) throw new Error('bad row in batch');
        stored.push(...batch.map((m) => m.data.n));
      },
    });
    await waitFor(() => stored.length === 9, 5000, 'nine stored');
    await h.stop();
    // usually the ten arrive together: [1..10] fails, then 1..10 one by one (6 twice: maxAttempts 2)
    expect(calls.some((c) => c.length > 1)).toBe(true);
    expect(calls.every((c) => c.length <= 10)).toBe(true);
    const failedBatch = calls.findIndex((c) => c.length > 1 && c.includes(6));
    expect(failedBatch).toBeGreaterThanOrEqual(0);
    const fb = calls[failedBatch]!;
    const singles = fb.flatMap((n) => (n === 6 ? [[6], [6]] : [[n]]));
    expect(calls.slice(failedBatch + 1, failedBatch + 1 + singles.length)).toEqual(singles);
    expect(calls.flat().filter((n) => n === 6)).toHaveLength(3);
    expect(stored).toEqual([1, 2, 3, 4, 5, 7, 8, 9, 10]);
    const dead = await dlqMessage(d, u.subj('batch.c'));
    expect(dead.json<Ev>().n).toBe(6);
    expect(await ackPending(d)).toEqual({ ackPending: 0, pending: 0, redelivered: 0 });
  });

  it('dead-letters a redelivered message whose delivery count already exceeds maxDeliveries, without handling it', async () => {
    const d = durable('poison');
    const subject = u.subj('poison.c');
    await bus.publish<Ev>(subject, { conv: 'c', n: 1 }, { msgId: `${u.sfx}-p1` });
    // declare the durable, then deliver it twice without acking (as two crashed processes would)
    const h0 = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: d,
      filterSubjects: [u.subj('poison.>')],
      maxAttempts: 2,
      handler: async () => {},
    });
    await h0.stop();
    await jsm.consumers.delete(u.stream.name, d);
    await jsm.consumers.add(u.stream.name, { durable_name: d, ack_policy: 'explicit' as never, filter_subject: u.subj('poison.>') });
    const raw = await bus.connection.jetstream().consumers.get(u.stream.name, d);
    for (let i = 1; i <= 2; i++) {
      const m = await raw.next({ expires: 2000 });
      expect(m?.info.deliveryCount).toBe(i);
      m!.nak();
    }
    await bus.publish<Ev>(subject, { conv: 'c', n: 2 }, { msgId: `${u.sfx}-p2` });
    const handled: number[] = [];
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: d,
      filterSubjects: [u.subj('poison.>')],
      maxAttempts: 2,
      maxDeliveries: 2,
      handler: async ([m]) => {
        handled.push(m!.data.n);
      },
    });
    await waitFor(() => handled.length === 1, 5000, 'the next message');
    await sleep(100);
    await h.stop();
    expect(handled).toEqual([2]);
    const dead = await dlqMessage(d, subject);
    expect(dead.json<Ev>().n).toBe(1);
    expect(dead.header.get(DlqHeaders.deliveryCount)).toBe('3');
    expect(dead.header.get(DlqHeaders.error)).toMatch(/delivered 3 times/);
    expect((await ackPending(d)).ackPending).toBe(0);
  });

  it('dead-letters an undecodable payload at once', async () => {
    const d = durable('garbage');
    const subject = u.subj('garbage.c');
    await bus.connection.jetstream().publish(subject, new TextEncoder().encode('{not json'), { msgID: `${u.sfx}-g` });
    let calls = 0;
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: d,
      filterSubjects: [u.subj('garbage.>')],
      handler: async () => {
        calls++;
      },
    });
    await waitFor(async () => (await ackPending(d)).ackPending === 0 && (await ackPending(d)).pending === 0, 5000, 'ack');
    await h.stop();
    expect(calls).toBe(0);
    const dead = await dlqMessage(d, subject);
    expect(dead.header.get(DlqHeaders.error)).toMatch(/undecodable/);
    expect(dead.header.get(DlqHeaders.attempts)).toBe('0');
  });
});
