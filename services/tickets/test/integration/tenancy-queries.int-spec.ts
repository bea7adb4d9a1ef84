import { beforeAll, describe, expect, it } from '@jest/globals';
import { runMigrations } from '@wa/database';
import { TEST_DATABASE_URL } from '@wa/testing';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { DataSource } from 'typeorm';
import { ticketsDatabase } from '../../src/database/data-source.js';

/**
 * Tenancy as tickets does it (STYLE "Tenant scoping"): no repository adds the company behind the caller's back;
 * every method takes it, and every SQL statement of a repository or queries file that touches a table of a
 * company's rows names the company column. The files are read as they are when the test runs (every
 * `*.repository.ts`, `*.queries.ts` and `*.query.ts` under src), so a file added later is covered; the tables
 * are those of the migrated schema with a "companyId" column, so a table added later is covered too.
 *
 * A statement is one string or template literal (split at `;`) that starts as a statement does (SELECT, INSERT,
 * UPDATE, DELETE, WITH), with `${NAME}` replaced by the text of a literal constant of that name in the same file.
 * TypeORM calls are not read: those pass `companyId` in their `where` (TenantScopedRepository or explicitly).
 */

/**
 * Statements that may leave the company out, each for a reason: they work across companies on purpose, or reach
 * rows only through a statement that names it. Matched on the statement's text with its spaces collapsed.
 */
const CROSS_COMPANY: ReadonlyArray<{ statement: string; why: string }> = [
  {
    statement: `DELETE FROM tickets.campaign_messages WHERE "sentAt" < now() - interval '7 days'`,
    why: 'the hourly purge of every company’s kept campaign messages older than 7 days (no longer what a contact answers)',
  },
  {
    statement: 'FROM page JOIN tickets.tickets t ON t.id = page.id',
    why: 'list-tickets: the page of ids comes from the `page` subquery, which filters by "companyId"; rows are joined by primary key',
  },
  {
    statement: 'SELECT ${TICKET_COLUMNS} FROM tickets.tickets t ${TICKET_JOINS}',
    why: 'the ticket view’s select list and joins, which its users complete with a WHERE on t."companyId"',
  },
  {
    statement: "FROM tickets.connections WHERE status = 'CONNECTED'",
    why: 'the provider’s dashboard card (super users only, spec 01 §2) counts the connected sessions of every company',
  },
  {
    statement: 'FROM tickets.prompts WHERE "voiceKey" IS NOT NULL',
    why: 'sealing at start: every company’s voice keys still in clear are sealed (stored-secrets)',
  },
  {
    statement: 'UPDATE tickets.prompts SET "voiceKey" = $2 WHERE id = $1 AND "voiceKey" = $3',
    why: 'sealing at start: the row the sealing read, by primary key',
  },
  {
    statement: 'SELECT * FROM tickets.messages WHERE id = ANY($1::bigint[])',
    why: 'the inbound lane: an inbound batch spans companies; the ids are those store_inbound answered for it',
  },
  {
    statement: 'SELECT * FROM tickets.contacts WHERE id = ANY($1::int[])',
    why: 'the inbound lane: the contacts store_inbound answered for a batch that spans companies',
  },
  {
    statement: 'SELECT id, "queueIds" FROM tickets.connections WHERE id = ANY($1::int[])',
    why: 'the inbound lane: the connections a batch’s events name, each event with its company (checked by the lane)',
  },
  {
    statement: 'UPDATE tickets.messages m SET "mediaUrl" = COALESCE(m."mediaUrl", x.url)',
    why: 'the inbound lane: files and quotes of the messages store_inbound just stored, by their ids',
  },
  {
    statement: `AS "oldestS" FROM tickets.webhook_deliveries WHERE status = 'pending'`,
    why: "the metrics' webhook backlog (webhook_deliveries_pending and the oldest's age) counts every company's deliveries: a number, no rows",
  },
  {
    statement: 'UPDATE tickets.webhook_deliveries SET status = $2::varchar',
    why: 'the webhook sweeper delivers for every company; it updates the delivery it claimed, by primary key',
  },
  {
    statement: "UPDATE tickets.schedules s SET status = 'ENVIADA'",
    why: 'the schedule sweeper sends the due schedules of every company; it marks those it claimed, by primary key',
  },
  {
    statement: 'UPDATE tickets.tickets t SET "botState" = u.state',
    why: 'the bot lane answers an inbound batch that spans companies; it writes the tickets it read, by primary key',
  },
];

/**
 * Statements that should name the company and do not yet: each reaches rows by the id of a row (or of its parent:
 * a chat, a file list, a ticket, a tag, a connection) that its use case checked is the caller's company's first.
 * As [file name, statement]; the list only shrinks: add `AND "companyId" = $n` to a statement (its callers pass
 * the company) and remove its entry here; the test fails on an entry no statement matches any more, so a fixed one
 * cannot come back unnoticed. The 29 known when this test came (chats, file lists, ticket tags, API idempotency
 * keys, a message read, the bot's connection read) all name the company now: the list is empty.
 */
const NOT_YET_SCOPED: ReadonlyArray<readonly [file: string, statement: string]> = [];

const src = join(dirname(fileURLToPath(import.meta.url)), '../../src');
const HOME = /\.(?:repository|queries|query)\.ts$/;
const STATEMENT = /^\s*\(?\s*(?:select|insert|update|delete|with)\b/i;

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const path = join(dir, f);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });

const isLiteral = (n: ts.Node): n is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression =>
  ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n);

/** The literal's text without its quotes, `${…}` kept as written. */
const textOf = (n: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression) => n.getText().slice(1, -1);

interface Statement {
  file: string;
  line: number;
  text: string;
}

/** Every statement of a file (see above), with the constants it interpolates written out. */
function statementsOf(file: string): Statement[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const constants = new Map<string, string[]>();
  const collect = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && isLiteral(n.initializer)) {
      constants.set(n.name.text, [...(constants.get(n.name.text) ?? []), textOf(n.initializer)]);
    }
    ts.forEachChild(n, collect);
  };
  collect(source);
  const expand = (text: string, depth = 0): string =>
    depth > 3
      ? text
      : text.replace(/\$\{\s*([A-Za-z_$][\w$]*)\s*\}/g, (all, name: string) =>
          constants.has(name) ? expand(constants.get(name)!.join(' '), depth + 1) : all,
        );
  const found: Statement[] = [];
  const visit = (n: ts.Node): void => {
    if (isLiteral(n) && STATEMENT.test(textOf(n))) {
      const line = source.getLineAndCharacterOfPosition(n.getStart()).line + 1;
      for (const part of textOf(n).split(/;\s*(?=\S)/)) {
        if (STATEMENT.test(part))
          found.push({ file: relative(src, file), line, text: part.replace(/\s+/g, ' ').trim() + expandedTail(part) });
      }
      return; // a literal inside this one's ${…} belongs to this statement
    }
    ts.forEachChild(n, visit);
  };
  // the interpolated constants' text, kept apart so the statement still reads as written
  const expandedTail = (part: string) => {
    const expanded = expand(part);
    return expanded === part ? '' : ` /* expanded: ${expanded.replace(/\s+/g, ' ').trim()} */`;
  };
  visit(source);
  return found;
}

describe('every tickets statement that touches a company’s rows names "companyId"', () => {
  let companyTables: string[];

  beforeAll(async () => {
    await runMigrations(ticketsDatabase(TEST_DATABASE_URL));
    const db = new DataSource({ type: 'postgres', url: TEST_DATABASE_URL, extra: { max: 1 } });
    await db.initialize();
    try {
      const rows: Array<{ name: string }> = await db.query(
        `SELECT c.table_name AS name FROM information_schema.columns c
           JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
          WHERE c.table_schema = 'tickets' AND c.column_name = 'companyId' AND t.table_type = 'BASE TABLE' ORDER BY 1`,
      );
      companyTables = rows.map((r) => r.name);
    } finally {
      await db.destroy();
    }
  });

  /** The statements of `files` that touch a company's table without naming "companyId", but the cross-company ones. */
  const unscopedIn = (files: string[]): Statement[] => {
    // a table named in SQL, not inside a quoted SQL string (an advisory lock's key names no rows)
    const table = new RegExp(`\\btickets\\."?(${companyTables.join('|')})\\b"?(?![\\w"])`, 'g');
    const touches = (text: string) => [...text.replace(/'(?:[^']|'')*'/g, "''").matchAll(table)].length > 0;
    return files
      .flatMap(statementsOf)
      .filter((s) => touches(s.text) && !s.text.includes('"companyId"'))
      .filter((s) => !CROSS_COMPANY.some((a) => s.text.includes(a.statement)));
  };
  const known = (s: Statement, [file, statement]: readonly [string, string]) =>
    (s.file === file || s.file.endsWith(`/${file}`)) && s.text.startsWith(statement);

  it('in every repository and queries file under src (cross-company statements allowed by name only)', () => {
    expect(companyTables).toEqual(expect.arrayContaining(['tickets', 'messages', 'contacts']));
    const files = walk(src).filter((f) => HOME.test(f));
    expect(files.length).toBeGreaterThan(0);
    const unscoped = unscopedIn(files);
    const offending = unscoped
      .filter((s) => !NOT_YET_SCOPED.some((k) => known(s, k)))
      .map((s) => `${s.file}:${s.line} ${s.text.slice(0, 300)}`);
    expect(offending).toEqual([]);
    // entries whose statement names the company now (or is gone): remove them from NOT_YET_SCOPED
    const fixed = NOT_YET_SCOPED.filter((k) => !unscoped.some((s) => known(s, k))).map(([file, statement]) => `${file}: ${statement}`);
    expect(fixed).toEqual([]);
  });

  it('finds a planted statement that leaves the company out, and passes it once it names the company', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenancy-queries-'));
    try {
      const file = join(dir, 'planted.queries.ts');
      const statement = (where: string) =>
        `const PAGE = 50;\nconst OWN = '"companyId" = $3';\nexport const RENAME = \`UPDATE tickets.chats SET title = $2 WHERE ${where} LIMIT \${PAGE}\`;\nexport const LOCK = \`SELECT pg_advisory_xact_lock(hashtext('tickets.chats'), $1)\`;\n`;
      writeFileSync(file, statement('id = $1'));
      expect(unscopedIn([file]).map((s) => s.text)).toEqual([expect.stringContaining('UPDATE tickets.chats SET title = $2 WHERE id = $1')]);
      writeFileSync(file, statement('id = $1 AND "companyId" = $3'));
      expect(unscopedIn([file])).toEqual([]);
      // the company named through a constant of the file
      writeFileSync(file, statement('id = $1 AND ${OWN}'));
      expect(unscopedIn([file])).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
