import { EventBus } from '@wa/event-bus';
import { randomUUID } from 'node:crypto';
import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { outboxMigration, TransactionalOutbox, type OutgoingEvent } from './outbox.js';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa_test';
const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

async function waitFor<T>(fn: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The relay against a real PostgreSQL and a real NATS JetStream: what committed goes out once and in order,
 * what rolled back never does, and a row the stream refuses for good is set aside without holding back the
 * rows after it.
 */
describe('TransactionalOutbox (PostgreSQL and NATS)', () => {
  const suffix = randomUUID().slice(0, 8);
  const schema = `outbox_spec_${suffix}`;
  const stream = `OUTBOX_SPEC_${suffix.toUpperCase()}`;
  const subject = (s: string) => `outboxspec${suffix}.${s}`;
  let db: DataSource;
  let bus: EventBus;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let outbox: TransactionalOutbox;

  beforeAll(async () => {
    db = new DataSource({ type: 'postgres', url: TEST_DATABASE_URL, extra: { max: 4 } });
    await db.initialize();
    await db.query(`CREATE SCHEMA ${schema}`);
    for (const sql of outboxMigration(schema).up) await db.query(sql);
    bus = await EventBus.connect({
      servers: TEST_NATS_URL,
      name: `outbox-spec-${suffix}`,
      streams: [{ name: stream, subjects: [`outboxspec${suffix}.>`] }],
    });
    nc = await connect({ servers: TEST_NATS_URL });
    jsm = await nc.jetstreamManager();
    outbox = new TransactionalOutbox(db, bus, { schema, maxFailures: 2, relayEveryMs: 100 });
    outbox.onModuleInit();
  });

  afterAll(async () => {
    outbox?.onApplicationShutdown();
    await outbox?.idle();
    await jsm?.streams.delete(stream).catch(() => undefined);
    await nc?.close();
    await bus?.close();
    await db?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db?.destroy();
  });

  const event = (name: string, headers?: Record<string, string>): OutgoingEvent => ({
    subject: subject(name),
    msgId: `${suffix}-${name}`,
    payload: { name },
    ...(headers ? { headers } : {}),
  });

  /** The stream's messages in order: each one's subject's last token and its payload's name. */
  async function published(): Promise<string[]> {
    const info = await jsm.streams.info(stream);
    const names: string[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const m = await jsm.streams.getMessage(stream, { seq });
      const { name } = m.json<{ name: string }>();
      expect(m.subject).toBe(subject(name));
      names.push(name);
    }
    return names;
  }

  it('publishes what committed, once and in the order written, and never what rolled back', async () => {
    const first = await db.transaction((tx) => outbox.add(tx, [event('a1'), event('a2'), event('a3')]));
    await expect(
      db.transaction(async (tx) => {
        await outbox.add(tx, [event('never')]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const second = await db.transaction((tx) => outbox.add(tx, [event('b1'), event('b2')]));
    expect(await outbox.flushAndWait([...first, ...second], 10_000)).toBe(true);
    expect(await published()).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
    expect(await outbox.counts()).toEqual({ pending: 0, parked: 0 });
    // the relay's timer keeps passing over the empty table: nothing goes out twice
    await new Promise((r) => setTimeout(r, 300));
    expect(await published()).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
  });

  it('sets aside a row the stream refuses for good, with the reason, and publishes the rows after it', async () => {
    // JetStream refuses a message that expects to land in another stream: not an outage, it will never pass
    const ids = await db.transaction((tx) =>
      outbox.add(tx, [event('c1'), event('refused', { 'Nats-Expected-Stream': 'NOT_THIS_ONE' }), event('c2')]),
    );
    outbox.flush(ids);
    const parked = await waitFor(async () => {
      const rows: Array<{ msgId: string; attempts: number; lastError: string | null }> = await db.query(
        `SELECT "msgId", attempts, "lastError" FROM ${schema}.outbox WHERE "parkedAt" IS NOT NULL`,
      );
      return rows.length > 0 ? rows : null;
    }, 10_000);
    expect(parked).toEqual([{ msgId: `${suffix}-refused`, attempts: 2, lastError: expect.stringMatching(/stream/i) }]);
    expect(await outbox.counts()).toEqual({ pending: 0, parked: 1 });
    expect(await published()).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'c1', 'c2']);
  });

  it('keeps relaying while rows keep coming, a small batch at a time: everything once, each transaction in order, without waiting for its timer', async () => {
    // a relay of its own (another schema, so another lock) whose timer never fires in this test: only flushes move it
    const busySchema = `${schema}_busy`;
    await db.query(`CREATE SCHEMA ${busySchema}`);
    for (const sql of outboxMigration(busySchema).up) await db.query(sql);
    const busy = new TransactionalOutbox(db, bus, { schema: busySchema, batch: 2, relayEveryMs: 600_000 });
    busy.onModuleInit();
    try {
      const before = (await published()).length;
      // 12 writers commit side by side, each flushing after its commit, while the relay is busy with the others
      const writes = await Promise.all(
        Array.from({ length: 12 }, async (_, w) => {
          const ids = await db.transaction((tx) => busy.add(tx, [event(`w${w}-1`), event(`w${w}-2`), event(`w${w}-3`)]));
          busy.flush(ids);
          return ids;
        }),
      );
      expect(await busy.flushAndWait(writes.flat(), 10_000)).toBe(true);
      const names = (await published()).slice(before);
      expect([...names].sort()).toEqual(
        Array.from({ length: 12 }, (_, w) => [1, 2, 3].map((n) => `w${w}-${n}`))
          .flat()
          .sort(),
      );
      for (let w = 0; w < 12; w++) expect(names.filter((n) => n.startsWith(`w${w}-`))).toEqual([`w${w}-1`, `w${w}-2`, `w${w}-3`]);
      expect(await busy.counts()).toEqual({ pending: 0, parked: 0 });
      // a caller that comes to wait after its rows went out (another writer's flush relayed them) waits for nothing
      expect(await busy.flushAndWait(writes[0], 100)).toBe(true);
    } finally {
      busy.onApplicationShutdown();
      await busy.idle();
      await db.query(`DROP SCHEMA IF EXISTS ${busySchema} CASCADE`);
    }
  });
});
