import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { JetStreamManager } from 'nats';
import pg from 'pg';
import { EventBus, PoisonError, isTransientError } from '../src/index.js';
import { SERVERS, memLogger, uniq, waitFor } from './helpers.js';

interface Ev {
  conv: string;
  n: number;
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('EventBus: an outage is waited out, only poison is dead-lettered', () => {
  const u = uniq();
  const log = memLogger();
  let bus: EventBus;
  let jsm: JetStreamManager;

  async function dlqCount(durable: string): Promise<number> {
    const info = await jsm.streams.info('DLQ', { subjects_filter: `dlq.${durable}.>` });
    return Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
  }

  beforeAll(async () => {
    bus = await EventBus.connect({ servers: SERVERS, name: 'test-outage', streams: [u.stream], logger: log });
    jsm = await bus.connection.jetstreamManager();
  });

  afterAll(async () => {
    for (const tag of ['outage', 'batch']) await jsm.streams.purge('DLQ', { filter: `dlq.${u.durable(tag)}.>` }).catch(() => undefined);
    await jsm.streams.delete(u.stream.name).catch(() => undefined);
    await bus.close();
  });

  it('retries far beyond maxAttempts while a dependency is unreachable, in order, and dead-letters nothing', async () => {
    const d = u.durable('outage');
    const handled: string[] = [];
    const attempts: number[] = [];
    let failuresLeft = 25; // 12 times maxAttempts
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: d,
      filterSubjects: [u.subj('outage.>')],
      orderKey: (s) => s.split('.').slice(0, 3).join('.'),
      concurrency: 2,
      maxAttempts: 2,
      outageBackoff: { initialMs: 10, maxMs: 40 },
      handler: async ([m]) => {
        if (m!.data.conv === 'a' && failuresLeft > 0) {
          failuresLeft--;
          attempts.push(m!.attempt);
          // alternate the shapes an outage takes: a refused socket, a PostgreSQL restart, a NATS timeout
          throw failuresLeft % 3 === 0
            ? refused()
            : failuresLeft % 3 === 1
              ? Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })
              : Object.assign(new Error('publish timed out after 5000 ms'), { code: 'TIMEOUT' });
        }
        handled.push(`${m!.data.conv}${m!.data.n}`);
      },
    });
    for (let n = 1; n <= 3; n++)
      await bus.publish<Ev>(u.subj(`outage.a.${n}`).replace(`.${n}`, ''), { conv: 'a', n }, { msgId: `${u.sfx}-a${n}` });
    await bus.publish<Ev>(u.subj('outage.b'), { conv: 'b', n: 1 }, { msgId: `${u.sfx}-b1` });
    await waitFor(() => handled.filter((x) => x.startsWith('a')).length === 3, 20_000, 'the conversation after the outage');
    await waitFor(async () => (await jsm.consumers.info(u.stream.name, d)).num_ack_pending === 0, 5000, 'acks');
    const stats = h.stats();
    await h.stop();
    expect(handled.filter((x) => x.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
    expect(handled).toContain('b1');
    expect(attempts).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(stats).toMatchObject({ handled: 4, deadLettered: 0, outageFailures: 25, retried: 25 });
    expect(await dlqCount(d)).toBe(0);
  });

  it('waits out an outage with the whole batch (no splitting), then a rule violation alone is dead-lettered after its attempts', async () => {
    const d = u.durable('batch');
    const sizes: number[] = [];
    const stored: number[] = [];
    let outage = 4;
    // all five wait in the stream before the consumer starts, so they come as one batch (the lane lingers for
    // the ones a busy machine hands over in a later read: once, the first came alone and the test saw batches of 1)
    for (let n = 1; n <= 5; n++) await bus.publish<Ev>(u.subj('batch.c'), { conv: 'c', n }, { msgId: `${u.sfx}-c${n}` });
    const h = await bus.consume<Ev>({
      stream: u.stream.name,
      durable: d,
      filterSubjects: [u.subj('batch.>')],
      concurrency: 1,
      batchSize: 10,
      lingerMs: 200,
      maxAttempts: 3,
      backoffMs: [10],
      outageBackoff: { initialMs: 10, maxMs: 20 },
      handler: async (batch) => {
        sizes.push(batch.length);
        if (outage > 0) {
          outage--;
          throw new Error('Connection terminated unexpectedly');
        }
        if (batch.some((m) => m.data.n === 3)) throw new PoisonError('violates check constraint "body_short"');
        stored.push(...batch.map((m) => m.data.n));
      },
    });
    await waitFor(() => stored.length === 4, 10_000, 'the good four');
    await waitFor(async () => (await dlqCount(d)) === 1, 5000, 'the bad one dead-lettered');
    const stats = h.stats();
    await h.stop();
    // four outage failures of the whole batch, one rule failure of the batch, then one by one (3 attempts for n=3)
    expect(sizes.slice(0, 5)).toEqual([5, 5, 5, 5, 5]);
    expect(sizes.slice(5)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(stored).toEqual([1, 2, 4, 5]);
    expect(stats).toMatchObject({ deadLettered: 1, handled: 4, outageFailures: 4 });
  });

  it('tells outages from rule violations in the errors PostgreSQL really raises', async () => {
    // a server that is not there
    const down = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 2000 });
    const refusedErr = await down.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isTransientError(refusedErr)).toBe(true);
    // a session ended by the server (what a restart or a failover does to open connections)
    const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa_test';
    const victim = new pg.Client({ connectionString: url });
    await victim.connect();
    victim.on('error', () => undefined);
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    const [{ pid }] = (await victim.query('SELECT pg_backend_pid() AS pid')).rows as Array<{ pid: number }>;
    await killer.query('SELECT pg_terminate_backend($1)', [pid]);
    const terminated = await victim.query('SELECT 1').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(terminated).toBeDefined();
    expect(isTransientError(terminated)).toBe(true);
    // a broken rule will fail again: not an outage
    const rule = await killer.query('SELECT 1/0').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((rule as { code?: string }).code).toBe('22012');
    expect(isTransientError(rule)).toBe(false);
    const bad = await killer.query(`SELECT 'x'::int`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isTransientError(bad)).toBe(false);
    await killer.end();
    await victim.end().catch(() => undefined);
    expect(isTransientError(new Error('boom'))).toBe(false);
    expect(isTransientError(new PoisonError('Connection terminated'))).toBe(false);
  });
});
