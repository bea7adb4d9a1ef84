import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runMigrations } from '@wa/database';
import { TEST_DATABASE_URL } from '@wa/testing';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataSource } from 'typeorm';
import { ticketsDatabase } from '../../src/database/data-source.js';

const src = join(dirname(fileURLToPath(import.meta.url)), '../../src');
/** The function's current text, whole (STYLE: a PostgreSQL function's text lives in one .sql file). */
const FILE = join(src, 'inbound/store-inbound.sql');
const NAME = 'tickets.store_inbound(';

/** The CREATE statement of the file, from CREATE to the end of its body. */
function createStatement(text: string): string {
  const start = text.indexOf('CREATE OR REPLACE FUNCTION');
  const end = text.lastIndexOf('$function$');
  if (start < 0 || end < start) throw new Error(`${FILE}: no CREATE OR REPLACE FUNCTION … $function$ in it`);
  return text.slice(start, end + '$function$'.length);
}

/** Definitions compared as PostgreSQL prints them, line ends and trailing spaces aside. */
const normalized = (def: string) =>
  def
    .replace(/\r\n/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .trim();

/**
 * `src/inbound/store-inbound.sql` is the function a database migrated to head runs: whoever changes the file
 * must add a migration that creates the function from a copy of the new whole text (as 1732240000035 does),
 * and this test fails until they do (or when a migration changes the function some other way).
 */
describe('tickets.store_inbound is the text of src/inbound/store-inbound.sql', () => {
  let db: DataSource;

  beforeAll(async () => {
    await runMigrations(ticketsDatabase(TEST_DATABASE_URL));
    db = new DataSource({ type: 'postgres', url: TEST_DATABASE_URL, extra: { max: 1 } });
    await db.initialize();
  });

  afterAll(async () => {
    await db?.destroy();
  });

  it('the migrated function’s definition is the file’s, created beside it in a scratch schema', async () => {
    const text = readFileSync(FILE, 'utf8');
    expect(text.split(NAME)).toHaveLength(2);
    const [{ def: migrated }] = (await db.query(`SELECT pg_get_functiondef('tickets.store_inbound'::regproc) AS def`)) as Array<{
      def: string;
    }>;
    const scratch = `store_inbound_check_${process.pid}`;
    // created and read in a transaction that is rolled back: nothing of the check stays
    const runner = db.createQueryRunner();
    await runner.connect();
    let fromFile: string;
    try {
      await runner.startTransaction();
      await runner.query(`CREATE SCHEMA ${scratch}`);
      await runner.query(text.replace(NAME, `${scratch}.store_inbound(`));
      [{ def: fromFile }] = (await runner.query(`SELECT pg_get_functiondef('${scratch}.store_inbound'::regproc) AS def`)) as Array<{
        def: string;
      }>;
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(normalized(migrated)).toBe(normalized(fromFile.replace(`${scratch}.store_inbound(`, NAME)));
  });

  it('the newest migration that writes the function creates it from a copy of the whole text', () => {
    const dir = join(src, 'database/migrations');
    const writers = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && readFileSync(join(dir, f), 'utf8').includes(NAME))
      .sort();
    const newest = readFileSync(join(dir, writers[writers.length - 1]), 'utf8');
    expect(newest).toContain(createStatement(readFileSync(FILE, 'utf8')));
  });
});
