#!/usr/bin/env node
// GET /contacts on one company with 200,000 contacts (and 50,000 of another company beside them), through
// the gateway, at concurrency 4: p50, p99 and requests/s of page 1, page 500, a search matching one contact
// by name, one by part of its number, and one matching a tenth of the contacts.
//   node bench/contacts/run.mjs            (env: CONTACTS=200000 REQUESTS=2000 CONCURRENCY=4 WARMUP=1000)
//   BENCH_PROFILE=tickets,messaging-gateway    writes those services' CPU profiles to BENCH_PROFILE_DIR (/tmp/wa-bench-profiles)
// Uses its own database (wa_bench_contacts, kept between runs: filled once), Redis db 5, the local NATS,
// and the built services (npx nx run-many -t build --projects=tag:scope:service).
// Targets (issue 12): p99 ≤ 25 ms for the pages, ≤ 50 ms for the search.
import pg from 'pg';
import { healthy, httpLoad, startGateway, startService, ticketsBenchSetup } from '../lib/http-bench.mjs';

const CONTACTS = Number(process.env.CONTACTS ?? 200_000);
const OTHERS = 50_000;
const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const WARMUP = Number(process.env.WARMUP ?? 1000);
const companyId = 1;
const { url, env, ensureDatabase: migrate, adminToken } = await ticketsBenchSetup('wa_bench_contacts');

async function ensureDatabase() {
  await migrate();
  // a migration that rewrote the table leaves no page all-visible; autovacuum would see to it in time
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await pool.query('VACUUM ANALYZE tickets.contacts');
  await pool.end();
}

async function fill() {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const n = (await pool.query('SELECT count(*)::int AS n FROM tickets.contacts WHERE "companyId" = $1', [companyId])).rows[0].n;
  if (n === CONTACTS) {
    await pool.end();
    return;
  }
  const t0 = performance.now();
  console.log(`filling ${CONTACTS} contacts (and ${OTHERS} of another company)…`);
  await pool.query('TRUNCATE tickets.contacts CASCADE');
  // names from a small vocabulary (like real ones: many share a first name), emails for a third of them
  await pool.query(
    `INSERT INTO tickets.contacts ("companyId", name, number, email, "createdAt", "updatedAt")
     SELECT $1,
            CASE WHEN g = 123457 THEN 'Zuleica Prado'
                 ELSE (ARRAY['Ana','Bruno','Carla','Daniel','Eduarda','Felipe','Gabriela','Heitor','Isabela','João'])[1 + g % 10]
                      || ' ' || (ARRAY['Silva','Souza','Oliveira','Santos','Lima','Pereira','Costa','Almeida'])[1 + (g / 10) % 8] || ' ' || g END,
            '55' || (11900000000 + g)::text,
            CASE WHEN g % 3 = 0 THEN 'cliente' || g || '@example.com' ELSE '' END,
            now() - (g % 400) * interval '1 day', now()
       FROM generate_series(1, $2) g`,
    [companyId, CONTACTS],
  );
  await pool.query(
    `INSERT INTO tickets.contacts ("companyId", name, number) SELECT 2, 'Outra ' || g, '55' || (21900000000 + g)::text FROM generate_series(1, $1) g`,
    [OTHERS],
  );
  await pool.query('VACUUM ANALYZE tickets.contacts');
  await pool.end();
  console.log(`filled in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

await ensureDatabase();
await fill();
const token = adminToken(companyId);
const tickets = startService('tickets', 45112, env);
const gateway = startGateway(45090, env, tickets.url);
const { run, measure, close } = httpLoad({
  baseUrl: gateway.url,
  token,
  concurrency: CONCURRENCY,
  requests: REQUESTS,
  rowsOf: (b) => b.contacts.length,
  services: [gateway, tickets],
});
try {
  await healthy(tickets.url);
  await healthy(gateway.url);
  const cases = [
    ['page 1', () => '/contacts?pageNumber=1'],
    ['page 500', () => '/contacts?pageNumber=500'],
    ['search matching one contact (name)', () => '/contacts?searchParam=zuleica'],
    ['search matching one contact (number)', () => '/contacts?searchParam=11900123457'],
    ['search matching 10% (name)', () => '/contacts?searchParam=carla'],
    ['created in one day, page 1', () => '/contacts?date=2026-01-15'],
  ];
  for (const [, pathFor] of cases) await run(WARMUP, pathFor);
  console.log(
    `GET /contacts, one company with ${CONTACTS} contacts, ${REQUESTS} requests at concurrency ${CONCURRENCY}, through the gateway:`,
  );
  for (const [label, pathFor] of cases) await measure(label, pathFor, 'contacts');
} finally {
  await close();
  tickets.child.kill('SIGTERM');
  gateway.child.kill('SIGTERM');
}
