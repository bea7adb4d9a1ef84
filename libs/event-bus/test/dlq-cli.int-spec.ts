import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { EventBus } from '../src/index.js';
import type { DeadLetter } from '../src/index.js';
import { SERVERS, memLogger, uniq, waitFor } from './helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);
const DB = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa_test';

/** `npm run dlq -- <args>`, as an operator types it. */
async function dlq(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run('npm', ['run', '-s', 'dlq', '--', ...args], { cwd: root, env: { ...process.env, NATS_URL: SERVERS } });
    return { code: 0, ...r };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

interface Note {
  id: string;
  body: string;
}

describe('npm run dlq: list, show and replay what a consumer gave up on', () => {
  const u = uniq();
  const table = `dlq_notes_${u.sfx}`;
  let bus: EventBus;
  let db: pg.Client;

  beforeAll(async () => {
    db = new pg.Client({ connectionString: DB });
    await db.connect();
    // a rule the stored rows must keep: a note of more than 10 characters breaks it
    await db.query(
      `CREATE TABLE public.${table} (id text PRIMARY KEY, body text NOT NULL CONSTRAINT body_short CHECK (length(body) <= 10))`,
    );
    bus = await EventBus.connect({ servers: SERVERS, name: 'test-dlq-cli', streams: [u.stream], logger: memLogger() });
  });

  afterAll(async () => {
    const jsm = await bus.connection.jetstreamManager();
    await jsm.streams.purge('DLQ', { filter: `dlq.${u.durable('notes')}.>` }).catch(() => undefined);
    await jsm.streams.delete(u.stream.name).catch(() => undefined);
    await bus.close();
    await db.query(`DROP TABLE IF EXISTS public.${table}`);
    await db.end();
  });

  const stored = async (id: string) => Number((await db.query(`SELECT count(*) AS n FROM public.${table} WHERE id = $1`, [id])).rows[0].n);

  it('dead-letters a poison event after its attempts, lists and shows it, and a replay after the fix stores it once', async () => {
    const durable = u.durable('notes');
    const calls: number[] = [];
    const h = await bus.consume<Note>({
      stream: u.stream.name,
      durable,
      filterSubjects: [u.subj('notes.>')],
      maxAttempts: 3,
      backoffMs: [20],
      handler: async ([m]) => {
        calls.push(m!.attempt);
        // idempotent as every consumer: the primary key makes a repeat store nothing
        await db.query(`INSERT INTO public.${table} (id, body) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [m!.data.id, m!.data.body]);
      },
    });
    await bus.publish<Note>(u.subj('notes.1'), { id: 'good', body: 'short' }, { msgId: `${u.sfx}-good` });
    await bus.publish<Note>(u.subj('notes.2'), { id: 'long', body: 'a note far too long' }, { msgId: `${u.sfx}-long` });
    await waitFor(async () => (await stored('good')) === 1, 10_000, 'the good note');

    let dead: DeadLetter | undefined;
    await waitFor(
      async () => {
        const r = await dlq('list', '--json', '--durable', durable);
        dead = (JSON.parse(r.stdout || '[]') as DeadLetter[])[0];
        return dead !== undefined;
      },
      15_000,
      'the dead letter in the list',
    );
    expect(calls.filter((n) => n > 0).length).toBe(4); // the good one once, the bad one three times
    expect(dead).toMatchObject({ durable, subject: u.subj('notes.2'), attempts: 3 });
    expect(dead!.error).toMatch(/body_short/);
    expect(await stored('long')).toBe(0);

    const table_ = await dlq('list', '--durable', durable);
    expect(table_.stdout).toContain(`${dead!.id}\t`);
    expect(table_.stdout).toContain(u.subj('notes.2'));

    const shown = await dlq('show', String(dead!.id));
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: dead!.id, payload: { id: 'long', body: 'a note far too long' } });

    // the cause is fixed (the rule was wrong: notes may be longer)
    await db.query(`ALTER TABLE public.${table} DROP CONSTRAINT body_short`);
    const first = await dlq('replay', String(dead!.id), '--keep');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`replayed ${dead!.id}`);
    await waitFor(async () => (await stored('long')) === 1, 10_000, 'the replayed note');

    // replayed again (an operator's second try): the stream drops the repeat; nothing more is stored
    const second = await dlq('replay', String(dead!.id));
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/already replayed/);
    // and a late repeat past the duplicate window meets the consumer's unique key
    await bus.publish<Note>(u.subj('notes.2'), { id: 'long', body: 'a note far too long' }, { msgId: `${u.sfx}-late-repeat` });
    await waitFor(async () => (await bus.consumerPending(u.stream.name, durable)) === 0, 10_000, 'the repeat handled');
    expect(await stored('long')).toBe(1);

    // the dead letter is gone once replayed
    expect(JSON.parse((await dlq('list', '--json', '--durable', durable)).stdout)).toEqual([]);
    expect((await dlq('show', String(dead!.id))).code).toBe(1);
    expect(h.stats()).toMatchObject({ deadLettered: 1 });
    await h.stop();
  });

  it('answers usage for a bad command', async () => {
    const r = await dlq('frobnicate');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/usage: npm run dlq/);
  });
});
