import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EventBus } from '@wa/event-bus';
import { TransactionalOutbox, outboxMigration } from '@wa/server-kit';
import { TEST_DATABASE_URL, TEST_NATS_URL, uniqueSuffix, waitFor } from '@wa/testing';
import { DataSource } from 'typeorm';

/**
 * The shared outbox, on a schema of its own: a row that fails to publish for a reason that will not go
 * away (here a payload larger than NATS accepts) is tried a few times, then set aside with its error and
 * counted; the rows after it are published meanwhile, in order.
 */
describe('TransactionalOutbox: a row that keeps failing is set aside', () => {
  const schema = `outbox_t_${uniqueSuffix().replace(/-/g, '')}`;
  let db: DataSource;
  let bus: EventBus;
  let outbox: TransactionalOutbox;

  beforeAll(async () => {
    db = new DataSource({ type: 'postgres', url: TEST_DATABASE_URL });
    await db.initialize();
    await db.query(`CREATE SCHEMA ${schema}`);
    for (const sql of outboxMigration(schema).up) await db.query(sql);
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    bus = await EventBus.connect({ servers: TEST_NATS_URL, name: 'outbox-set-aside-test', logger: quiet });
    outbox = new TransactionalOutbox(db, bus, { schema, maxFailures: 3, relayEveryMs: 100 });
    outbox.onModuleInit();
  });

  afterAll(async () => {
    outbox?.onApplicationShutdown();
    await outbox?.idle();
    await bus?.close();
    await db?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db?.destroy();
  });

  it('publishes the rows after a poison row, in order, and sets the poison row aside with its error', async () => {
    const subject = (n: number) => `ticket.updated.${900_000_000 + n}.1`;
    const got: string[] = [];
    const sub = bus.connection.subscribe('ticket.updated.>', {
      callback: (_err, msg) => {
        if (msg.subject.startsWith('ticket.updated.9')) got.push(msg.subject);
      },
    });
    const huge = 'x'.repeat(2 * 1024 * 1024); // beyond the server's max payload: this can never be published
    await db.transaction(async (tx) => {
      await outbox.add(tx, [
        { subject: subject(1), msgId: `${schema}-1`, payload: { n: 1 } },
        { subject: subject(2), msgId: `${schema}-2`, payload: { n: 2, huge } },
        { subject: subject(3), msgId: `${schema}-3`, payload: { n: 3 } },
      ]);
    });
    await db.transaction(async (tx) => {
      await outbox.add(tx, [{ subject: subject(4), msgId: `${schema}-4`, payload: { n: 4 } }]);
    });
    await outbox.flush();

    await waitFor(async () => got.length === 3, { timeoutMs: 10_000 });
    expect(got).toEqual([subject(1), subject(3), subject(4)]);
    await waitFor(async () => (await outbox.counts()).parked === 1, { timeoutMs: 10_000 });
    expect(await outbox.counts()).toEqual({ pending: 0, parked: 1 });
    const [parked] = await db.query(`SELECT subject, attempts, "lastError", "parkedAt" FROM ${schema}.outbox`);
    expect(parked).toMatchObject({ subject: subject(2), attempts: 3 });
    expect(parked.lastError).toMatch(/payload/i);
    expect(parked.parkedAt).not.toBeNull();
    // set aside means left alone: no more attempts
    await new Promise((r) => setTimeout(r, 500));
    expect((await db.query(`SELECT attempts FROM ${schema}.outbox`))[0].attempts).toBe(3);
    expect(outbox.published).toBe(3);
    sub.unsubscribe();
  });
});
