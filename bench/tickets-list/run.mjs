#!/usr/bin/env node
// GET /tickets on one company with 1,000,000 tickets over 200,000 contacts (10% pending, 10% open,
// 80% closed, one message each), through the gateway, at concurrency 4: p50, p99 and requests/s of
// page 1, page 500 by pageNumber, 500 pages deep by cursor, a search matching one contact and one matching
// more than half of the tickets.
//   node bench/tickets-list/run.mjs            (env: TICKETS=1000000 CONTACTS=200000 REQUESTS=2000 CONCURRENCY=4 WARMUP=1000)
//   BENCH_PROFILE=tickets,messaging-gateway    writes those services' CPU profiles to BENCH_PROFILE_DIR (/tmp/wa-bench-profiles)
// Uses its own database (wa_bench_list, kept between runs: filled once), Redis db 5, the local NATS,
// and the built services (npx nx run-many -t build --projects=tag:scope:service).
import pg from 'pg';
import { healthy, httpLoad, startGateway, startService, ticketsBenchSetup } from '../lib/http-bench.mjs';

const TICKETS = Number(process.env.TICKETS ?? 1_000_000);
const CONTACTS = Number(process.env.CONTACTS ?? 200_000);
const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const companyId = 1;
const { url, env, ensureDatabase, adminToken } = await ticketsBenchSetup('wa_bench_list');

async function fill() {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const n = (await pool.query('SELECT count(*)::int AS n FROM tickets.tickets WHERE "companyId" = $1', [companyId])).rows[0].n;
  if (n === TICKETS) {
    await pool.end();
    return;
  }
  const t0 = performance.now();
  console.log(`filling ${TICKETS} tickets over ${CONTACTS} contacts…`);
  await pool.query('TRUNCATE tickets.messages, tickets.tickets, tickets.contacts, tickets.connections CASCADE');
  await pool.query(
    `INSERT INTO tickets.connections (id, "companyId", name, status, "isDefault") VALUES (1, $1, 'Bench', 'CONNECTED', true)`,
    [companyId],
  );
  await pool.query(
    `INSERT INTO tickets.contacts ("companyId", name, number)
     SELECT $1, CASE WHEN g = 123457 THEN 'Zuleica Prado' ELSE 'Cliente ' || g END, '55' || (11900000000 + g)::text
       FROM generate_series(1, $2) g`,
    [companyId, CONTACTS],
  );
  const perContact = TICKETS / CONTACTS;
  // per contact: one non-closed ticket (half pending, half open) and the rest closed → 10% / 10% / 80%
  await pool.query(
    `INSERT INTO tickets.tickets ("companyId", "contactId", "whatsappId", status, "lastMessage", "createdAt", "updatedAt")
     SELECT $1, c.id, 1,
            CASE WHEN k = 1 THEN (CASE WHEN c.id % 2 = 0 THEN 'pending' ELSE 'open' END) ELSE 'closed' END,
            'mensagem ' || k, ts, ts
       FROM tickets.contacts c, generate_series(1, $2::int) k,
            LATERAL (SELECT now() - ((c.id * $2::int + k) % 5000000) * interval '1 second' AS ts) x
      WHERE c."companyId" = $1`,
    [companyId, perContact],
  );
  await pool.query(
    `INSERT INTO tickets.messages ("companyId", "ticketId", "contactId", "whatsappId", wid, body, "sentAt")
     SELECT t."companyId", t.id, t."contactId", 1, 'B' || t.id, t."lastMessage", t."updatedAt" FROM tickets.tickets t WHERE t."companyId" = $1`,
    [companyId],
  );
  await pool.query('VACUUM ANALYZE tickets.contacts');
  await pool.query('VACUUM ANALYZE tickets.tickets');
  await pool.query('VACUUM ANALYZE tickets.messages');
  await pool.end();
  console.log(`filled in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

const WARMUP = Number(process.env.WARMUP ?? 1000);
const token = adminToken(companyId);

await ensureDatabase();
await fill();
const tickets = startService('tickets', 45102, env);
const gateway = startGateway(45080, env, tickets.url);
const { run, measure, close } = httpLoad({
  baseUrl: gateway.url,
  token,
  concurrency: CONCURRENCY,
  requests: REQUESTS,
  rowsOf: (b) => b.tickets.length,
  services: [gateway, tickets],
});
try {
  await healthy(tickets.url);
  await healthy(gateway.url);
  // the cursor of page 500, walked page by page as the web app scrolls
  let cursor = '';
  for (let i = 1; i < 500; i++) {
    const res = await fetch(`${gateway.url}/tickets?showAll=true${cursor ? `&cursor=${cursor}` : ''}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    cursor = (await res.json()).nextCursor;
  }
  const cases = [
    ['page 1 (showAll)', () => '/tickets?showAll=true&pageNumber=1'],
    ['page 500 by pageNumber (showAll)', () => '/tickets?showAll=true&pageNumber=500'],
    ['page 500 by cursor (showAll)', () => `/tickets?showAll=true&cursor=${cursor}`],
    ['pending tab, page 1', () => '/tickets?status=pending&showAll=true&pageNumber=1'],
    ['pending tab, page 500 by pageNumber', () => '/tickets?status=pending&showAll=true&pageNumber=500'],
    ['search matching one contact', () => '/tickets?showAll=true&searchParam=zuleica'],
    ['search matching 55% of tickets', () => '/tickets?showAll=true&searchParam=cliente%201'],
  ];
  // the services run for days: warm them on every case (JIT, heap sizes), then measure each case
  for (const [, pathFor] of cases) await run(WARMUP, pathFor);
  console.log(
    `GET /tickets, one company with ${TICKETS} tickets, ${REQUESTS} requests at concurrency ${CONCURRENCY}, through the gateway:`,
  );
  for (const [label, pathFor] of cases) await measure(label, pathFor, 'tickets');
} finally {
  await close();
  tickets.child.kill('SIGTERM');
  gateway.child.kill('SIGTERM');
}
