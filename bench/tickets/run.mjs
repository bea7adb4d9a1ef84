#!/usr/bin/env node
// Ticket list and search timings on a large company, with the very SQL the tickets service runs.
//   node bench/tickets/run.mjs [tickets=100000]     (needs the built tickets service and the wa_test database)
// Prints the median of 15 runs for: page 1, page 100 by pageNumber (OFFSET), page 100 by cursor (keyset),
// a search matching one ticket, a search matching thousands, and one matching nothing.
import pg from 'pg';
import { listTicketsQuery } from '../../services/tickets/dist/conversation/tickets/queries/list-tickets.queries.js';

const N = Number(process.argv[2] ?? process.env.BENCH_N ?? 100_000);
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa_test';
const companyId = 990_000_001;
const pool = new pg.Pool({ connectionString: url, max: 2 });

async function seed() {
  const { rows } = await pool.query(`SELECT count(*)::int AS n FROM tickets.tickets WHERE "companyId" = $1`, [companyId]);
  if (rows[0].n === N) return false;
  await pool.query(`DELETE FROM tickets.contacts WHERE "companyId" = $1`, [companyId]);
  await pool.query(
    `INSERT INTO tickets.contacts ("companyId", name, number)
     SELECT $1, 'Cliente ' || g || CASE WHEN g = 4242 THEN ' Zuleica' ELSE '' END, '55' || (11900000000 + g)::text
       FROM generate_series(1, $2) g`,
    [companyId, N],
  );
  await pool.query(
    `INSERT INTO tickets.tickets ("companyId", "contactId", "whatsappId", status, "lastMessage", "updatedAt")
     SELECT $1, c.id, 1, (ARRAY['pending','open','closed'])[1 + (c.id % 3)], 'olá', now() - (random() * interval '90 days')
       FROM tickets.contacts c WHERE c."companyId" = $1`,
    [companyId],
  );
  await pool.query(
    `INSERT INTO tickets.messages ("companyId", "ticketId", "contactId", "whatsappId", wid, body, "sentAt")
     SELECT $1, t.id, t."contactId", 1, 'B' || t.id || 'X' || k,
            CASE WHEN k = 1 AND t.id % 50 = 0 THEN 'quero saber do boleto em aberto' ELSE 'mensagem comum número ' || k END,
            t."updatedAt"
       FROM tickets.tickets t, generate_series(1, 2) k WHERE t."companyId" = $1`,
    [companyId],
  );
  await pool.query('ANALYZE tickets.tickets; ANALYZE tickets.contacts; ANALYZE tickets.messages');
  return true;
}

async function median(sql, params, runs = 15) {
  const times = [];
  let rows = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    rows = (await pool.query(sql, params)).rows;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(runs / 2)], rows };
}

const admin = { id: 1, companyId, profile: 'admin', isAdmin: true, queueIds: [], name: 'Bench' };
const list = (f) => listTicketsQuery(admin, { showAll: true, offset: 0, limit: 40, ...f });

const t0 = performance.now();
const seeded = await seed();
if (seeded) console.log(`seeded ${N} tickets, ${N} contacts and ${2 * N} messages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const p1 = list({});
const first = await median(p1.sql, p1.params);
const deepOffset = list({ offset: 99 * 40 });
const byOffset = await median(deepOffset.sql, deepOffset.params);
// walk 99 pages by cursor to find page 100's cursor, then time that page
let after;
for (let i = 0; i < 99; i++) {
  const q = list({ after });
  const r = (await pool.query(q.sql, q.params)).rows;
  const last = r[39];
  after = { updatedAt: last.sortKey, id: last.id };
}
const deepCursor = list({ after });
const byCursor = await median(deepCursor.sql, deepCursor.params);
const rare = list({ searchParam: 'zuleica' });
const rareRes = await median(rare.sql, rare.params);
const common = list({ searchParam: 'boleto em aberto' });
const commonRes = await median(common.sql, common.params);
const none = list({ searchParam: 'xyzzy-nada' });
const noneRes = await median(none.sql, none.params);

console.log(`tickets list, one company with ${N} tickets (median of 15, ms):`);
console.log(`  page 1                         ${first.ms.toFixed(2)}`);
console.log(`  page 100 by pageNumber (OFFSET) ${byOffset.ms.toFixed(2)}`);
console.log(`  page 100 by cursor              ${byCursor.ms.toFixed(2)}`);
console.log(`  search, 1 match                 ${rareRes.ms.toFixed(2)}  (${rareRes.rows.length} rows)`);
console.log(`  search, ${N / 50} matches        ${commonRes.ms.toFixed(2)}  (${commonRes.rows.length} rows)`);
console.log(`  search, no match                ${noneRes.ms.toFixed(2)}  (${noneRes.rows.length} rows)`);
await pool.end();
