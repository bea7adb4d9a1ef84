import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { nanos } from 'nats';
import type { JetStreamManager } from 'nats';
import { EventBus } from '../src/index.js';
import type { BusMessage } from '../src/index.js';
import { SERVERS, memLogger, sleep, uniq, waitFor } from './helpers.js';

describe('EventBus publish / streams', () => {
  const u = uniq();
  const log = memLogger();
  let bus: EventBus;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    bus = await EventBus.connect({ servers: SERVERS, name: 'test-publish', streams: [u.stream], logger: log });
    jsm = await bus.connection.jetstreamManager();
  });

  afterAll(async () => {
    await jsm.streams.delete(u.stream.name).catch(() => undefined);
    await bus.close();
  });

  it('declares the streams (and the DLQ) idempotently, updating a changed config', async () => {
    const si = await jsm.streams.info(u.stream.name);
    expect(si.config.subjects).toEqual(u.stream.subjects);
    expect(si.config.duplicate_window).toBe(nanos(120_000));
    const dlq = await jsm.streams.info('DLQ');
    expect(dlq.config.subjects).toEqual(['dlq.>']);

    // same config: nothing to do
    const log2 = memLogger();
    const same = await EventBus.connect({ servers: SERVERS, name: 'test-publish-2', streams: [u.stream], logger: log2 });
    await same.close();
    expect(log2.entries.filter((e) => /stream (created|updated)/.test(e.msg ?? ''))).toEqual([]);

    // changed config: updated in place, messages kept
    await bus.publish(u.subj('keep.1'), { keep: true }, { msgId: `${u.sfx}-keep` });
    const log3 = memLogger();
    const changed = await EventBus.connect({
      servers: SERVERS,
      name: 'test-publish-3',
      streams: [{ ...u.stream, subjects: [...u.stream.subjects, `x${u.sfx}.>`], duplicateWindowMs: 60_000, maxAgeMs: 3_600_000 }],
      logger: log3,
    });
    await changed.close();
    expect(log3.entries.some((e) => e.msg === 'event-bus: stream updated')).toBe(true);
    const si2 = await jsm.streams.info(u.stream.name);
    expect(si2.config.subjects).toEqual([...u.stream.subjects, `x${u.sfx}.>`]);
    expect(si2.config.duplicate_window).toBe(nanos(60_000));
    expect(si2.config.max_age).toBe(nanos(3_600_000));
    expect(si2.state.messages).toBeGreaterThanOrEqual(1);
  });

  it('drops a repeated msg id inside the duplicate window; the consumer sees it once', async () => {
    const subject = u.subj('dup.a');
    const first = await bus.publish(subject, { n: 1 }, { msgId: 'conn-1:WAMID.1', headers: { 'X-Trace': 'abc' } });
    const again = await bus.publish(subject, { n: 1 }, { msgId: 'conn-1:WAMID.1', headers: { 'X-Trace': 'abc' } });
    const other = await bus.publish(subject, { n: 2 }, { msgId: 'conn-1:WAMID.2' });
    expect(first.duplicate).toBe(false);
    expect(again).toEqual({ duplicate: true, seq: first.seq });
    expect(other.duplicate).toBe(false);
    expect(other.seq).toBe(first.seq + 1);

    const seen: BusMessage<{ n: number }>[] = [];
    const h = await bus.consume<{ n: number }>({
      stream: u.stream.name,
      durable: u.durable('dup'),
      filterSubjects: [u.subj('dup.>')],
      handler: async (batch) => {
        seen.push(...batch);
      },
    });
    await waitFor(() => seen.length >= 2, 5000, 'two messages');
    await sleep(300);
    await h.stop();
    expect(seen.map((m) => m.msgId)).toEqual(['conn-1:WAMID.1', 'conn-1:WAMID.2']);
    expect(seen[0]).toMatchObject({ subject, data: { n: 1 }, streamSeq: first.seq, deliveryCount: 1 });
    expect(seen[0]!.headers['X-Trace']).toBe('abc');
    const ci = await jsm.consumers.info(u.stream.name, u.durable('dup'));
    expect(ci.num_ack_pending).toBe(0);
    expect(ci.num_pending).toBe(0);
    expect(ci.config.max_deliver).toBe(-1);
    expect(ci.config.filter_subject).toBe(u.subj('dup.>'));
  });

  it('rejects a publish that no stream takes', async () => {
    // "no responders" (503) after its retries, not a timeout
    await expect(bus.publish(`nostream${u.sfx}.x`, {}, { msgId: 'x' })).rejects.toMatchObject({ code: '503' });
    // a retry is said (its caller waited: a stall can be traced to it), once in 10 s (an outage fails every publish)
    const said = () => log.entries.filter((e) => e.msg === 'event-bus: publish failed; trying again');
    expect(said().map((e) => [e.obj.subject, e.obj.attempt])).toEqual([[`nostream${u.sfx}.x`, 1]]);
    await expect(bus.publish(`nostream${u.sfx}.y`, {}, { msgId: 'y' })).rejects.toMatchObject({ code: '503' });
    expect(said()).toHaveLength(1);
  });

  it('pipelines many publishes', async () => {
    const acks = await Promise.all(
      Array.from({ length: 2000 }, (_, i) => bus.publish(u.subj(`many.${i % 10}`), { i }, { msgId: `${u.sfx}-many-${i}` })),
    );
    expect(new Set(acks.map((a) => a.seq)).size).toBe(2000);
    expect(acks.every((a) => !a.duplicate)).toBe(true);
  });

  it('requires a msg id', async () => {
    await expect(bus.publish(u.subj('x'), {}, { msgId: '' })).rejects.toThrow(/msgId/);
  });

  it('pings, and reports closed after close()', async () => {
    const b = await EventBus.connect({ servers: SERVERS, name: 'test-ping', streams: [u.stream], logger: memLogger() });
    expect(await b.ping()).toBeGreaterThanOrEqual(0);
    expect(b.isClosed()).toBe(false);
    await b.close();
    expect(b.isClosed()).toBe(true);
    await expect(b.ping()).rejects.toThrow();
  });

  it('fails to connect with a clear error', async () => {
    await expect(EventBus.connect({ servers: 'nats://127.0.0.1:1', name: 'nope', streams: [] })).rejects.toThrow();
  });
});
