#!/usr/bin/env node
// Schedules benchmark: N scheduled messages due in the same minute, through the real services: how late
// the last one was sent, and that none was sent twice or lost (issue target: every one on the phone
// within 30 s of its time, at the sandbox's pace).
//
//   npm run bench:schedules [-- N [CONTACTS]]      (or BENCH_N, default 10000; BENCH_CONTACTS, default 500)
//
// Starts the product as processes (bench/lib/product.mjs: fresh `wa_bench_schedules` database, private NATS
// with the shipped nats.conf and Redis, NODE_ENV=production), signs in through the gateway, makes a sandbox
// connection and connects the admin's socket (left open, as an admin watching). Then
//   contacts:  CONTACTS contacts write in (POST …/sandbox/inbound/batch through the gateway); their ids are
//              read back with GET /contacts?searchParam=<number>;
//   pilot:     a few schedules a day ahead (deleted afterwards) warm the path and give the creation rate;
//   creation:  N schedules (POST /schedules through the gateway, BENCH_CONCURRENCY (24) calls in flight,
//              contact i % CONTACTS, body `agendada <i>`), all with sendAt = T, the start of the first
//              whole minute (hh:mm:00, as the app's minute-precision picker gives) that begins at least
//              15 s after the creation is estimated to end (1.25 × the pilot's estimate). BENCH_SPREAD=1
//              spreads them evenly over T..T+60 s instead;
//   sending:   waits (BENCH_TIMEOUT_S, 600 s after T) until all N are ENVIADA and all N bodies are in
//              whatsapp.sandbox_outbox (what the sandbox phone put on the wire), printing progress every
//              5 s, then BENCH_SETTLE_S (10 s) more so a late second send would show.
// Prints, from PostgreSQL: the creation rate; the lateness stored (schedules."sentAt" − "sendAt") and on the
// phone (first sandbox_outbox."sentAt" − "sendAt"): p50, p99, max; the time from T to the last one on the
// phone; the pace of the sender and of the sandbox phone; the ones sent twice (bodies with more than one
// sandbox_outbox row, messages stored twice) and lost (never on the phone); whether the 30 s target held.
// Exits 1 when any was sent twice or lost.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import {
  benchRun,
  createCompany,
  ensureBuilt,
  fmt,
  jsonRequest,
  percentile,
  recreateDatabase,
  sandboxCompany,
  sleep,
} from '../lib/product.mjs';
import { busyPercent, cpuSeconds, machineCpu, postgresCpu } from '../lib/proc.mjs';

const arg = (i, name, dflt) => Number(process.argv[2 + i] ?? process.env[name] ?? dflt);
const N = arg(0, 'BENCH_N', 10_000);
const CONTACTS = arg(1, 'BENCH_CONTACTS', 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 24);
const SPREAD = process.env.BENCH_SPREAD === '1';
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 600);
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 10);
const TARGET_MS = 30_000;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432';
const BODY = 'agendada ';

for (const [k, v] of Object.entries({ N, CONTACTS, CONCURRENCY, TIMEOUT_S })) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`bad ${k}: ${v}`);
}
if (!Number.isFinite(SETTLE_S) || SETTLE_S < 0) throw new Error(`bad BENCH_SETTLE_S: ${SETTLE_S}`);

const now = () => performance.now();
const log = (s) => process.stderr.write(`bench:schedules: ${s}\n`);
const out = (s) => process.stdout.write(`${s}\n`);
const bench = benchRun('schedules', log);
const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, 16), maxFreeSockets: Math.max(CONCURRENCY, 16) });
const request = (base, method, path, opts) => jsonRequest(agent, base, method, path, opts);

/** `n` jobs, `concurrency` at a time. */
async function pool(n, concurrency, job) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        await job(i);
      }
    }),
  );
}

async function main() {
  ensureBuilt(log);
  const dbUrl = await recreateDatabase(PG_URL, 'wa_bench_schedules');
  const adminUser = await createCompany(dbUrl);
  const natsUrl = await bench.startNats('');
  const redisUrl = await bench.startRedis('');
  const { gateway, services } = await bench.startProduct({ dbUrl, natsUrl, redisUrl });
  const company = await sandboxCompany({ request, gatewayUrl: gateway.url, adminUser, jwtSecret: bench.jwtSecret });
  const { companyId, connectionId, socket } = company;
  const call = async (method, path, body, expected) => {
    const res = await request(gateway.url, method, path, { token: company.token(), body });
    if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const db = new pg.Pool({ connectionString: dbUrl, max: 2 });
  const one = async (sql, params) => (await db.query(sql, params)).rows[0];

  // ---- contacts: each writes in once ------------------------------------------------------------
  log(`contacts: ${CONTACTS} write in through the sandbox`);
  const number = (c) => `5511${900_000_000 + c}`;
  const PER_CALL = 250;
  await pool(Math.ceil(CONTACTS / PER_CALL), 4, async (b) => {
    const messages = [];
    for (let c = b * PER_CALL; c < Math.min(CONTACTS, (b + 1) * PER_CALL); c++)
      messages.push({ from: number(c), name: `Cliente ${c}`, body: `oi ${c}`, id: `SCHEDIN${c}` });
    await call('POST', `/whatsappsession/${connectionId}/sandbox/inbound/batch`, { messages }, 202);
  });
  for (let i = 0; ; i++) {
    const { n } = await one(`SELECT count(*)::int AS n FROM tickets.messages WHERE "companyId" = $1 AND NOT "fromMe"`, [companyId]);
    if (n >= CONTACTS) break;
    if (i > 600) throw new Error(`contacts: ${n} of ${CONTACTS} inbound messages stored after 60 s`);
    await sleep(100);
  }
  const contactIds = new Array(CONTACTS);
  await pool(CONTACTS, 16, async (c) => {
    const page = await call('GET', `/contacts?searchParam=${number(c)}`, undefined, 200);
    const found = page.contacts.filter((x) => x.number === number(c));
    if (found.length !== 1) throw new Error(`contact ${number(c)}: ${found.length} found`);
    contactIds[c] = found[0].id;
  });
  const contactOf = (i) => contactIds[i % CONTACTS];

  // ---- pilot: creation rate, a day ahead, deleted afterwards --------------------------------------
  const PILOT = Math.min(500, Math.max(50, Math.round(N / 20)));
  log(`pilot: ${PILOT} schedules a day ahead, ${CONCURRENCY} calls in flight`);
  const dayAhead = new Date(Date.now() + 24 * 3600_000).toISOString();
  const pilotIds = new Array(PILOT);
  const p0 = now();
  await pool(PILOT, CONCURRENCY, async (i) => {
    pilotIds[i] = (await call('POST', '/schedules', { body: `aquecimento ${i}`, contactId: contactOf(i), sendAt: dayAhead }, 201)).id;
  });
  const pilotRate = PILOT / ((now() - p0) / 1000);
  await pool(PILOT, CONCURRENCY, (i) => call('DELETE', `/schedules/${pilotIds[i]}`, undefined, 200));

  // ---- creation: N schedules due in one minute ----------------------------------------------------
  const estimateMs = (1.25 * N * 1000) / pilotRate;
  const T = Math.ceil((Date.now() + estimateMs + 15_000) / 60_000) * 60_000;
  const sendAtOf = (i) => new Date(SPREAD ? T + Math.floor((i * 60_000) / N) : T).toISOString();
  log(
    `creation: ${fmt(N)} schedules over ${CONTACTS} contacts, ${CONCURRENCY} calls in flight (pilot ${fmt(pilotRate)}/s: ~${fmt(estimateMs / 1000 / 1.25)} s); ${SPREAD ? 'sendAt spread over' : 'all with sendAt ='} ${new Date(T).toISOString()}${SPREAD ? ' + 60 s' : ''} (in ${fmt((T - Date.now()) / 1000)} s)`,
  );
  const createLat = [];
  const c0 = now();
  await pool(N, CONCURRENCY, async (i) => {
    const t = now();
    // no retry: a call that failed after the row was stored would make a second schedule of the same body
    await call('POST', '/schedules', { body: `${BODY}${i}`, contactId: contactOf(i), sendAt: sendAtOf(i) }, 201);
    createLat.push(now() - t);
  });
  const createSecs = (now() - c0) / 1000;
  const createdEnd = Date.now();
  createLat.sort((a, b) => a - b);
  const { n: rows } = await one(`SELECT count(*)::int AS n FROM tickets.schedules WHERE "companyId" = $1 AND body LIKE $2`, [
    companyId,
    `${BODY}%`,
  ]);
  if (rows !== N) throw new Error(`${rows} schedules stored, ${N} created`);
  log(
    `created in ${fmt(createSecs, 1)} s (${fmt(N / createSecs)}/s); ${createdEnd < T ? `${fmt((T - createdEnd) / 1000, 1)} s before` : `WARNING: ${fmt((createdEnd - T) / 1000, 1)} s after`} the minute's start`,
  );

  // ---- sending: until all are ENVIADA and on the phone ------------------------------------------
  while (Date.now() < T) await sleep(Math.min(1000, T - Date.now()));
  const cpu0 = Object.fromEntries(services.map((s) => [s.name, cpuSeconds(s.child.pid)]));
  const machine0 = machineCpu();
  const pg0 = postgresCpu();
  const status = async () =>
    one(
      `SELECT count(*) FILTER (WHERE status = 'ENVIADA')::int AS sent, count(*) FILTER (WHERE status = 'ERRO')::int AS failed,
              (SELECT count(DISTINCT body)::int FROM whatsapp.sandbox_outbox WHERE "companyId" = $1 AND kind = 'send' AND body LIKE $2) AS phone
         FROM tickets.schedules WHERE "companyId" = $1 AND body LIKE $2`,
      [companyId, `${BODY}%`],
    );
  let st = { sent: 0, failed: 0, phone: 0 };
  let lastReport = Date.now();
  let done = false;
  for (;;) {
    st = await status();
    done = st.sent === N && st.phone === N;
    // a failed one never reaches the phone: nothing more will come
    const settled = st.sent + st.failed === N && st.phone >= st.sent;
    if (done || settled || Date.now() > T + TIMEOUT_S * 1000) break;
    if (Date.now() - lastReport >= 5000) {
      lastReport = Date.now();
      log(
        `T+${fmt((Date.now() - T) / 1000)} s: ENVIADA ${fmt(st.sent)} / ${fmt(N)}, on the phone ${fmt(st.phone)} / ${fmt(N)}${st.failed ? `, ERRO ${fmt(st.failed)}` : ''}`,
      );
    }
    // once a second: the count reads every row, and a tighter poll takes CPU from what is measured
    await sleep(1000);
  }
  const doneAt = Date.now();
  const cpu1 = Object.fromEntries(services.map((s) => [s.name, cpuSeconds(s.child.pid)]));
  const machine1 = machineCpu();
  const pgCpu = postgresCpu() - pg0;
  log(
    `T+${fmt((doneAt - T) / 1000, 1)} s: ENVIADA ${fmt(st.sent)}, on the phone ${fmt(st.phone)}${st.failed ? `, ERRO ${fmt(st.failed)}` : ''}${done ? '' : ' (stopped waiting)'}; ${SETTLE_S} s more for late second sends`,
  );
  await sleep(SETTLE_S * 1000);

  // ---- figures, from PostgreSQL -------------------------------------------------------------------
  const ms = (x) => `(extract(epoch FROM ${x}) * 1000)::float8`;
  const { rows: each } = await db.query(
    `WITH o AS (
       SELECT body, min("sentAt") AS first, max("sentAt") AS last, count(*)::int AS n, array_agg(DISTINCT "to") AS tos
         FROM whatsapp.sandbox_outbox WHERE "companyId" = $1 AND kind = 'send' AND body LIKE $2 GROUP BY body
     )
     SELECT s.id, s.status, ${ms('s."sendAt"')} AS "sendAt", ${ms('s."sentAt"')} AS "sentAt", ${ms('o.first')} AS "phoneAt", ${ms('o.last')} AS "phoneLastAt",
            COALESCE(o.n, 0) AS copies, c.number AS "contactNumber", o.tos
       FROM tickets.schedules s JOIN tickets.contacts c ON c.id = s."contactId"
       LEFT JOIN o ON o.body = s.body
      WHERE s."companyId" = $1 AND s.body LIKE $2`,
    [companyId, `${BODY}%`],
  );
  const { n: storedTwice } = await one(
    `SELECT count(*)::int AS n FROM (SELECT body FROM tickets.messages WHERE "companyId" = $1 AND "fromMe" AND body LIKE $2 GROUP BY body HAVING count(*) > 1) d`,
    [companyId, `${BODY}%`],
  );
  const { n: storedMessages } = await one(
    `SELECT count(DISTINCT body)::int AS n FROM tickets.messages WHERE "companyId" = $1 AND "fromMe" AND body LIKE $2`,
    [companyId, `${BODY}%`],
  );
  const { n: extraTickets } = await one(`SELECT (count(*) - $2)::int AS n FROM tickets.tickets WHERE "companyId" = $1`, [
    companyId,
    CONTACTS,
  ]);
  const sentRows = each.filter((r) => r.sentAt !== null);
  const onPhone = each.filter((r) => r.phoneAt !== null);
  const storedLate = sentRows.map((r) => r.sentAt - r.sendAt).sort((a, b) => a - b);
  const phoneLate = onPhone.map((r) => r.phoneAt - r.sendAt).sort((a, b) => a - b);
  const storedToPhone = onPhone
    .filter((r) => r.sentAt !== null)
    .map((r) => r.phoneAt - r.sentAt)
    .sort((a, b) => a - b);
  const sentTwice = each.filter((r) => r.copies > 1).length;
  const lost = each.filter((r) => r.copies === 0).length;
  const notEnviada = each.filter((r) => r.status !== 'ENVIADA').length;
  const wrongNumber = onPhone.filter((r) => r.tos.length !== 1 || r.tos[0] !== r.contactNumber).length;
  const span = (list) => (list.length ? Math.max(...list) - Math.min(...list) : NaN);
  const storedSpan = span(sentRows.map((r) => r.sentAt)) / 1000;
  const phoneSpan = span(onPhone.map((r) => r.phoneAt)) / 1000;
  const lastOnPhone = onPhone.length ? Math.max(...onPhone.map((r) => r.phoneLastAt)) : NaN;
  const firstStored = sentRows.length ? Math.min(...sentRows.map((r) => r.sentAt)) : NaN;
  const firstOnPhone = onPhone.length ? Math.min(...onPhone.map((r) => r.phoneAt)) : NaN;
  const maxPhoneLate = phoneLate[phoneLate.length - 1];
  const held = lost === 0 && onPhone.length === N && maxPhoneLate <= TARGET_MS;
  const row = (label, list) =>
    `${label.padEnd(44)}: p50 ${fmt(percentile(list, 50))} ms   p99 ${fmt(percentile(list, 99))} ms   max ${fmt(list[list.length - 1])} ms`;
  const wall = (doneAt - T) / 1000;

  out(
    `schedules benchmark: ${fmt(N)} schedules over ${fmt(CONTACTS)} contacts, ${SPREAD ? `sendAt spread over ${new Date(T).toISOString()} + 60 s` : `all due at ${new Date(T).toISOString()}`}, one sandbox connection, through messaging-gateway`,
  );
  out(
    `created (POST /schedules, ${CONCURRENCY} in flight)       : ${fmt(N)} in ${fmt(createSecs, 1)} s = ${fmt(N / createSecs)} schedules/s (call p50 ${fmt(percentile(createLat, 50), 1)} ms, p99 ${fmt(percentile(createLat, 99), 1)} ms); ended ${createdEnd < T ? `${fmt((T - createdEnd) / 1000, 1)} s before` : `${fmt((createdEnd - T) / 1000, 1)} s AFTER`} the minute's start`,
  );
  out(row('lateness stored   (sentAt - sendAt)', storedLate));
  out(row('lateness on phone (sandbox sentAt - sendAt)', phoneLate));
  out(row('stored -> on the phone', storedToPhone));
  out(`minute's start -> first stored / first on phone: ${fmt(firstStored - T)} ms / ${fmt(firstOnPhone - T)} ms`);
  out(`minute's start -> last on the phone            : ${fmt((lastOnPhone - T) / 1000, 1)} s`);
  out(
    `pace: sender (first to last stored)            : ${fmt(sentRows.length)} in ${fmt(storedSpan, 1)} s = ${fmt(sentRows.length / storedSpan)}/s`,
  );
  out(
    `pace: sandbox phone (first to last on phone)   : ${fmt(onPhone.length)} in ${fmt(phoneSpan, 1)} s = ${fmt(onPhone.length / phoneSpan)}/s`,
  );
  out(
    `CPU seconds while sending (${fmt(wall, 1)} s wall)      : ` +
      services.map((s) => `${s.name} ${fmt(cpu1[s.name] - cpu0[s.name], 1)}`).join(', ') +
      `, postgres ${fmt(pgCpu, 1)}; machine busy ${fmt(busyPercent(machine0, machine1))}% of 2 cores`,
  );
  out(
    `ENVIADA / ERRO / other                         : ${fmt(N - notEnviada)} / ${fmt(each.filter((r) => r.status === 'ERRO').length)} / ${fmt(each.filter((r) => r.status !== 'ENVIADA' && r.status !== 'ERRO').length)}`,
  );
  out(
    `messages stored (tickets.messages, fromMe)     : ${fmt(storedMessages)} distinct, ${fmt(storedTwice)} stored twice; tickets opened besides the contacts' own: ${fmt(extraTickets)}`,
  );
  out(`sent twice (bodies with > 1 sandbox_outbox row): ${fmt(sentTwice)}`);
  out(`lost (never on the phone)                      : ${fmt(lost)}${wrongNumber ? `; sent to a wrong number: ${fmt(wrongNumber)}` : ''}`);
  out(`target (all on the phone within 30 s of sendAt): ${held ? 'HELD' : 'MISSED'} (max ${fmt(maxPhoneLate / 1000, 1)} s)`);

  socket.close();
  await db.end();
  agent.destroy();
  if (sentTwice || storedTwice || lost || wrongNumber)
    throw new Error(`${sentTwice} sent twice, ${storedTwice} stored twice, ${lost} lost, ${wrongNumber} to a wrong number`);
}

await bench.run(main);
