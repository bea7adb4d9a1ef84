#!/usr/bin/env node
// GET /dashboard?days=30 and both chart calls (/dashboard/ticketsUsers, /dashboard/ticketsDay over 30 days) on
// one company with 1,000,000 tickets created over the last 90 days (10% pending, 10% open, 80% closed, 50
// agents, half the closed ones rated), through the gateway, at concurrency 4: p50, p99 and requests/s; and the
// first call after the kept days were forgotten (every past day computed from the tickets).
//   node bench/dashboard/run.mjs            (env: TICKETS=1000000 DAYS=90 REQUESTS=2000 CONCURRENCY=4 WARMUP=500)
// Uses its own database (wa_bench_dashboard, kept between runs: filled once), Redis db 5, the local NATS, and
// the built services (npx nx run-many -t build --projects=tag:scope:service).
import pg from 'pg';
import { healthy, httpLoad, startGateway, startService, ticketsBenchSetup } from '../lib/http-bench.mjs';

const TICKETS = Number(process.env.TICKETS ?? 1_000_000);
const DAYS = Number(process.env.DAYS ?? 90);
const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const WARMUP = Number(process.env.WARMUP ?? 500);
// one open or pending ticket per contact: the 20% not closed each get a contact of their own
const CONTACTS = Math.ceil(TICKETS / 5) + 10;
const companyId = 1;
const { url, env, ensureDatabase, adminToken } = await ticketsBenchSetup('wa_bench_dashboard');

async function fill(pool) {
  const n = (await pool.query('SELECT count(*)::int AS n FROM tickets.tickets WHERE "companyId" = $1', [companyId])).rows[0].n;
  if (n === TICKETS) return;
  const t0 = performance.now();
  console.log(`filling ${TICKETS} tickets over the last ${DAYS} days…`);
  await pool.query('TRUNCATE tickets.messages, tickets.tickets, tickets.contacts, tickets.connections, tickets.dashboard_days CASCADE');
  await pool.query(
    `INSERT INTO tickets.connections (id, "companyId", name, status, "isDefault") VALUES (1, $1, 'Bench', 'CONNECTED', true)`,
    [companyId],
  );
  await pool.query(
    `INSERT INTO tickets.contacts ("companyId", name, number) SELECT $1, 'Cliente ' || g, '55' || (11900000000 + g)::text FROM generate_series(1, $2) g`,
    [companyId, CONTACTS],
  );
  // g-th ticket: created at a point of the period; accepted 0–30 min later, closed 0–2 h after that
  await pool.query(
    `INSERT INTO tickets.tickets ("companyId", "contactId", "whatsappId", status, "userId", "lastMessage", "createdAt", "updatedAt", "acceptedAt", "closedAt", rating)
     SELECT $1, (SELECT min(id) FROM tickets.contacts) + CASE WHEN g % 10 < 2 THEN (g / 10) * 2 + g % 10 ELSE g % $3 END, 1, s, CASE WHEN s = 'pending' THEN NULL ELSE 1 + g % 50 END, 'mensagem',
            c, c, CASE WHEN s = 'pending' THEN NULL ELSE c + (g % 1800) * interval '1 second' END,
            CASE WHEN s = 'closed' THEN c + (g % 1800) * interval '1 second' + (g % 7200) * interval '1 second' END,
            CASE WHEN s = 'closed' AND g % 2 = 0 THEN 1 + g % 3 END
       FROM generate_series(1, $2) g,
            LATERAL (SELECT now() - (($2 - g)::float8 / $2 * $4) * interval '1 day' AS c,
                            CASE WHEN g % 10 = 0 THEN 'pending' WHEN g % 10 = 1 THEN 'open' ELSE 'closed' END AS s) x
      WHERE x.c < now()`,
    [companyId, TICKETS, CONTACTS, DAYS],
  );
  await pool.query('VACUUM ANALYZE tickets.tickets');
  console.log(`filled in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

const token = adminToken(companyId);
await ensureDatabase();
const pool = new pg.Pool({ connectionString: url, max: 2 });
await fill(pool);
const tickets = startService('tickets', 45112, env);
const gateway = startGateway(45090, env, tickets.url);
const { run, measure, close } = httpLoad({
  baseUrl: gateway.url,
  token,
  concurrency: CONCURRENCY,
  requests: REQUESTS,
  rowsOf: (b) => (Array.isArray(b.data) ? b.data.length : b.attendants.length),
  services: [gateway, tickets],
});
const day = (offset) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + offset * 86_400_000));
try {
  await healthy(tickets.url);
  await healthy(gateway.url);
  // the first call after the kept days are forgotten: 29 past days computed from the tickets, today live
  const cold = [];
  for (let i = 0; i < 5; i++) {
    await pool.query('DELETE FROM tickets.dashboard_days WHERE "companyId" = $1', [companyId]);
    const t0 = performance.now();
    const res = await fetch(`${gateway.url}/dashboard?days=30`, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.json();
    cold.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(JSON.stringify(body));
    if (i === 0) console.log(`counters: ${JSON.stringify(body.counters)}`);
  }
  cold.sort((a, b) => a - b);
  const range = `initialDate=${day(-29)}&finalDate=${day(0)}`;
  const cases = [
    ['GET /dashboard?days=30', () => '/dashboard?days=30'],
    ['GET /dashboard/ticketsUsers (30 days)', () => `/dashboard/ticketsUsers?${range}`],
    ['GET /dashboard/ticketsDay (30 days)', () => `/dashboard/ticketsDay?${range}`],
  ];
  for (const [, pathFor] of cases) await run(WARMUP, pathFor);
  console.log(
    `dashboard, one company with ${TICKETS} tickets over ${DAYS} days, ${REQUESTS} requests at concurrency ${CONCURRENCY}, through the gateway:`,
  );
  console.log(
    `${'first call, no day kept (5 runs)'.padEnd(34)} min ${cold[0].toFixed(2)} ms   median ${cold[2].toFixed(2)} ms   max ${cold[4].toFixed(2)} ms`,
  );
  for (const [label, pathFor] of cases) await measure(label, pathFor, 'rows');
} finally {
  await close();
  await pool.end();
  tickets.child.kill('SIGTERM');
  gateway.child.kill('SIGTERM');
}
