import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { keptPlansTransaction } from './page-reads.js';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa_test';

/**
 * keptPlansTransaction against a real PostgreSQL: its work runs in one transaction with the kept-plan settings,
 * commits when the work succeeds, writes nothing when it throws, and leaves the connection as it found it.
 */
describe('keptPlansTransaction (PostgreSQL)', () => {
  const table = `kept_plans_spec_${randomUUID().slice(0, 8)}`;
  let db: DataSource;

  beforeAll(async () => {
    // one connection, so every statement below runs on the connection the transactions used
    db = new DataSource({ type: 'postgres', url: TEST_DATABASE_URL, extra: { max: 1, options: '-c plan_cache_mode=force_custom_plan' } });
    await db.initialize();
    await db.query(`CREATE TABLE public.${table} (id int PRIMARY KEY)`);
  });

  afterAll(async () => {
    await db?.query(`DROP TABLE IF EXISTS public.${table}`);
    await db?.destroy();
  });

  const count = async () => Number((await db.query(`SELECT count(*)::int AS n FROM public.${table}`))[0].n);

  it('runs the work in one transaction with plans kept, commits it, and the connection keeps its own settings after', async () => {
    const seen = await keptPlansTransaction(db, async (tx) => {
      await tx.query(`INSERT INTO public.${table} (id) VALUES (1)`);
      const [{ plan }] = await tx.query(`SELECT current_setting('plan_cache_mode') AS plan`);
      const [{ seqscan }] = await tx.query(`SELECT current_setting('enable_seqscan') AS seqscan`);
      // another connection does not see the row before the commit
      const outside = new DataSource({ type: 'postgres', url: TEST_DATABASE_URL, extra: { max: 1 } });
      await outside.initialize();
      const [{ n }] = await outside.query(`SELECT count(*)::int AS n FROM public.${table}`);
      await outside.destroy();
      return { plan, seqscan, outside: Number(n) };
    });
    expect(seen).toEqual({ plan: 'force_generic_plan', seqscan: 'off', outside: 0 });
    expect(await count()).toBe(1);
    const [{ plan }] = await db.query(`SELECT current_setting('plan_cache_mode') AS plan`);
    expect(plan).toBe('force_custom_plan');
  });

  it('writes nothing when the work throws, throws the work’s error, and the connection serves the next caller', async () => {
    await expect(
      keptPlansTransaction(db, async (tx) => {
        await tx.query(`INSERT INTO public.${table} (id) VALUES (2)`);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    // a statement that fails inside the work is rolled back the same way
    await expect(keptPlansTransaction(db, (tx) => tx.query(`INSERT INTO public.${table} (id) VALUES (1)`))).rejects.toThrow(
      /duplicate key/,
    );
    expect(await count()).toBe(1);
    const [{ idle }] = await db.query(`SELECT (pg_current_xact_id_if_assigned() IS NULL) AS idle`);
    expect(idle).toBe(true);
  });
});
