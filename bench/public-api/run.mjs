#!/usr/bin/env node
// Public messages API benchmark: TOKENS integrators, each with its connection's API token, send at BENCH_RATE
// calls/s (more than their pace) through POST /api/messages/send for SECONDS, through the real services: how long a call takes,
// how soon the message is stored, that each connection's pace is never exceeded on the phone, that the
// gateway refuses (429) what does not fit the connection's queue, and that no accepted send is lost or
// sent twice (issue target: p99 of an accepted call ≤ 30 ms).
//
//   npm run bench:public-api [-- SECONDS [TOKENS]]     (or BENCH_SECONDS, default 30; BENCH_TOKENS, default 10)
//
//   BENCH_RATE             calls per second each token offers, open loop (3); 0: closed loop, as fast as
//                          BENCH_CONCURRENCY allows
//   BENCH_CONCURRENCY      calls in flight per token when BENCH_RATE=0 (4)
//   BENCH_NUMBERS          numbers each token sends to (3)
//   BENCH_SENDS_PER_MINUTE the pace given to the gateway as API_SENDS_PER_MINUTE (20, the product's default:
//                          one send per 3 s per connection; 120 = one per 500 ms, six times the sends and acks
//                          behind the calls, with BENCH_QUEUE_MAX=20 so the queue fills and 429s come)
//   BENCH_QUEUE_MAX        the gateway's API_QUEUE_MAX (200, the product's default)
//                          (BENCH_ENV_API_SENDS_PER_MINUTE / BENCH_ENV_API_QUEUE_MAX, which product.mjs passes
//                          to every service, win over these, and the figures use them)
//   BENCH_WARMUP           sends each token makes, one after another, before the measured ones (5): the services
//                          have just started, and a path's first calls pay for compiling its code and preparing
//                          its statements on each connection; they are checked like the others (stored, on the
//                          phone once) but not in the figures
//   BENCH_DRAIN_EXTRA_S    how long past the paced drain time to wait for the phone (30)
//   BENCH_SETTLE_S         how long to wait once all are on the phone, so a late second send shows (10)
//   BENCH_PACE_SLACK_MS    how far ahead of the pace the phone may look before the pace counts as exceeded (10):
//                          sandbox_outbox."sentAt" is stamped by the INSERT after the send's timer, so a late
//                          timer or a slow INSERT shortens the next gap by as much without the sends going faster
//   BENCH_PG_URL           the PostgreSQL server (postgres://postgres:postgres@127.0.0.1:5432)
//
// Starts the product as processes (bench/lib/product.mjs: fresh `wa_bench_public_api` database, private NATS
// with the shipped nats.conf and Redis, NODE_ENV=production; the gateway gets API_SENDS_PER_MINUTE and
// API_QUEUE_MAX). Then
//   set-up:   TOKENS companies (createCompany: plan 1, which has useExternalApi), each with a sandbox
//             connection (sandboxCompany: through the gateway, CONNECTED, the admin's socket left open), and
//             an API token set by the admin (PUT /whatsapp/<id> { token }); waits until tickets' read model
//             has every connection CONNECTED, and warms each token with GET /api/messages/1 (404: admitted,
//             no such message; not paced, nothing sent);
//   sending:  one client per token, BENCH_CONCURRENCY calls in flight, each call with a unique body
//             `api <token#> <i>` to number i % NUMBERS of the token, for SECONDS. A 429 is counted and not
//             retried (the next call has the next body); any other answer but 202 is an error;
//   draining: waits until every 202's message is on the sandbox phone (whatsapp.sandbox_outbox, matched by
//             the message's WhatsApp id), at most the paced drain time (API_QUEUE_MAX × interval: the last
//             accepted slot is at most that far ahead of the end of sending) + BENCH_DRAIN_EXTRA_S, printing
//             progress every 5 s, then BENCH_SETTLE_S more; then GET /api/messages/<id> for every 202.
// Prints: the pace used; (a) call latency of accepted (202) calls p50/p99/max, and of 429s; (b) call → stored
// (tickets.messages."createdAt", the storing transaction's start, − the call's start, one clock: this machine)
// p50/p99/max; (c) per token, the smallest gap between two consecutive sends of its connection on the phone,
// how many gaps were below the interval, and how far the phone ever got ahead of the pace over any run of sends
// (pace never exceeded: ≤ BENCH_PACE_SLACK_MS); (d) accepted calls/s and 429s/s, against what the pace admits;
// (e) lost (a 202 whose message is not on the phone, or not stored) and sent twice (a 202 on the phone more
// than once, a body with more than one sandbox_outbox row, a body stored twice); the states GET answers, with
// how many GETs a second it answered (16 in flight) and their p50/p99; CPU while sending; whether the target
// held. Exits 1 when any was lost, sent twice, stored twice, sent to a wrong number or connection, or a call
// answered other than 202/429.
import { randomBytes } from 'node:crypto';
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
const SECONDS = arg(0, 'BENCH_SECONDS', 30);
const TOKENS = arg(1, 'BENCH_TOKENS', 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
/** calls per second each token offers (open loop); 0: as fast as CONCURRENCY calls in flight allow */
const RATE = Number(process.env.BENCH_RATE ?? 3);
const NUMBERS = Number(process.env.BENCH_NUMBERS ?? 3);
// product.mjs gives BENCH_ENV_<NAME> to every service over what startProduct is told: the figures use what the gateway runs with
const SENDS_PER_MINUTE = Number(process.env.BENCH_ENV_API_SENDS_PER_MINUTE ?? process.env.BENCH_SENDS_PER_MINUTE ?? 20);
const QUEUE_MAX = Number(process.env.BENCH_ENV_API_QUEUE_MAX ?? process.env.BENCH_QUEUE_MAX ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const DRAIN_EXTRA_S = Number(process.env.BENCH_DRAIN_EXTRA_S ?? 30);
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 10);
const PACE_SLACK_MS = Number(process.env.BENCH_PACE_SLACK_MS ?? 10);
const TARGET_P99_MS = 30;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432';
const BODY = 'api ';

for (const [k, v] of Object.entries({ SECONDS, TOKENS, CONCURRENCY, NUMBERS, SENDS_PER_MINUTE, QUEUE_MAX })) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`bad ${k}: ${v}`);
}
if (TOKENS > 99 || NUMBERS > 99) throw new Error('at most 99 tokens and 99 numbers per token');
if (SENDS_PER_MINUTE > 6000) throw new Error(`bad SENDS_PER_MINUTE: ${SENDS_PER_MINUTE} (the gateway takes at most 6000)`);
for (const [k, v] of Object.entries({ WARMUP, DRAIN_EXTRA_S, SETTLE_S, PACE_SLACK_MS })) {
  if (!Number.isFinite(v) || v < 0) throw new Error(`bad ${k}: ${v}`);
}

// as the gateway paces (services/messaging-gateway/src/public-api/api-gate.ts)
const INTERVAL_MS = Math.ceil(60_000 / SENDS_PER_MINUTE);
const BOUND_MS = INTERVAL_MS * QUEUE_MAX;

const now = () => performance.now();
const log = (s) => process.stderr.write(`bench:public-api: ${s}\n`);
const out = (s) => process.stdout.write(`${s}\n`);
const bench = benchRun('public-api', log);
const SOCKETS = TOKENS * CONCURRENCY + 8;
const agent = new http.Agent({ keepAlive: true, maxSockets: SOCKETS, maxFreeSockets: SOCKETS });
const request = (base, method, path, opts) => jsonRequest(agent, base, method, path, opts);
/** token t's number n: a Brazilian mobile (55 11 9 87 00 tt nn), canonical as typed */
const numberOf = (t, n) => `5511${987_000_000 + t * 100 + n}`;

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

/** Date.now() − performance.now(), to within a fraction of a millisecond (taken as Date.now() ticks). */
function wallOffset() {
  const start = Date.now();
  let d;
  while ((d = Date.now()) === start) {
    // spin to the tick
  }
  return d - now();
}

async function main() {
  ensureBuilt(log);
  const dbUrl = await recreateDatabase(PG_URL, 'wa_bench_public_api');
  log(`set-up: ${TOKENS} companies`);
  const admins = [];
  for (let t = 0; t < TOKENS; t++) admins.push(await createCompany(dbUrl));
  const natsUrl = await bench.startNats('');
  const redisUrl = await bench.startRedis('');
  const { gateway, services } = await bench.startProduct({
    dbUrl,
    natsUrl,
    redisUrl,
    env: { API_SENDS_PER_MINUTE: String(SENDS_PER_MINUTE), API_QUEUE_MAX: String(QUEUE_MAX) },
  });
  const db = new pg.Pool({ connectionString: dbUrl, max: 2 });
  const one = async (sql, params) => (await db.query(sql, params)).rows[0];

  // ---- set-up: a sandbox connection and an API token per company ---------------------------------
  const tokens = [];
  for (let t = 0; t < TOKENS; t++) {
    const company = await sandboxCompany({ request, gatewayUrl: gateway.url, adminUser: admins[t], jwtSecret: bench.jwtSecret });
    const apiToken = `bench-api-${t}-${randomBytes(18).toString('base64url')}`;
    const put = await request(gateway.url, 'PUT', `/whatsapp/${company.connectionId}`, {
      token: company.token(),
      body: { token: apiToken },
    });
    if (put.status !== 200) throw new Error(`PUT /whatsapp/${company.connectionId} { token }: ${put.status} ${JSON.stringify(put.body)}`);
    tokens.push({
      t,
      apiToken,
      companyId: company.companyId,
      connectionId: company.connectionId,
      socket: company.socket,
      numbers: Array.from({ length: NUMBERS }, (_, n) => numberOf(t, n)),
      accepted: [],
      warm: [],
      lat429: [],
      n429: 0,
      retryAfterMissing: 0,
      acceptedBeforeFirst429: null,
      errors: 0,
      errorSamples: [],
      offAnswers: 0,
    });
    log(`set-up: company ${company.companyId}, connection ${company.connectionId}, token #${t}`);
  }
  const companyIds = tokens.map((k) => k.companyId);
  const connectionIds = tokens.map((k) => k.connectionId);
  for (let i = 0; ; i++) {
    const { n } = await one(`SELECT count(*)::int AS n FROM tickets.connections WHERE id = ANY($1::int[]) AND status = 'CONNECTED'`, [
      connectionIds,
    ]);
    if (n === TOKENS) break;
    if (i > 300) throw new Error(`tickets' read model has ${n} of ${TOKENS} connections CONNECTED after 30 s`);
    await sleep(100);
  }
  // warm-up: each token admitted once (owner and company answers cached at the gateway), nothing sent
  for (const k of tokens) {
    const res = await request(gateway.url, 'GET', '/api/messages/1', { token: k.apiToken });
    if (res.status !== 404)
      throw new Error(`warm-up GET /api/messages/1 with token #${k.t}: ${res.status} ${JSON.stringify(res.body)} (expected 404)`);
  }
  // warm-up sends: checked below like every 202 (stored, on the phone once), left out of the figures
  const warmLat = [];
  for (let w = 0; w < WARMUP; w++) {
    for (const k of tokens) {
      const body = `${BODY}${k.t} warm ${w}`;
      const number = k.numbers[w % NUMBERS];
      const start = now();
      const res = await request(gateway.url, 'POST', '/api/messages/send', { token: k.apiToken, body: { number, body } });
      if (res.status !== 202) throw new Error(`warm-up send with token #${k.t}: ${res.status} ${JSON.stringify(res.body)}`);
      warmLat.push(now() - start);
      k.warm.push({ i: -1 - w, id: res.body.id, body, number, startWall: NaN, lat: NaN });
    }
  }
  if (WARMUP > 0)
    log(
      `warm-up: ${fmt(warmLat.length)} sends one at a time, call ${warmLat
        .slice(0, TOKENS)
        .map((x) => fmt(x, 0))
        .join(', ')} … ${fmt(warmLat[warmLat.length - 1], 0)} ms`,
    );

  // ---- sending: TOKENS clients, CONCURRENCY calls in flight each, for SECONDS ------------------
  log(
    `sending: ${TOKENS} tokens × ${CONCURRENCY} calls in flight for ${SECONDS} s, ${NUMBERS} numbers per token; ` +
      `pace ${SENDS_PER_MINUTE}/min per connection (one per ${INTERVAL_MS} ms), ${QUEUE_MAX} queued at most`,
  );
  const offset = wallOffset();
  const cpu0 = Object.fromEntries(services.map((s) => [s.name, cpuSeconds(s.child.pid)]));
  const self0 = process.cpuUsage();
  const machine0 = machineCpu();
  const pg0 = postgresCpu();
  const s0 = now();
  const stopAt = s0 + SECONDS * 1000;
  const sendStartWall = Date.now();
  const reporter = setInterval(() => {
    const acc = tokens.reduce((a, k) => a + k.accepted.length, 0);
    const r429 = tokens.reduce((a, k) => a + k.n429, 0);
    const err = tokens.reduce((a, k) => a + k.errors, 0);
    log(`+${fmt((now() - s0) / 1000)} s: 202 ${fmt(acc)}, 429 ${fmt(r429)}${err ? `, errors ${fmt(err)}` : ''}`);
  }, 5000);
  await Promise.all(
    tokens.map(async (k) => {
      const call = async (i) => {
        const body = `${BODY}${k.t} ${i}`;
        const number = k.numbers[i % NUMBERS];
        const start = now();
        let res;
        try {
          res = await request(gateway.url, 'POST', '/api/messages/send', { token: k.apiToken, body: { number, body } });
        } catch (err) {
          res = { status: `network ${err.code ?? err.message}` };
        }
        const lat = now() - start;
        if (res.status === 202) {
          const a = res.body ?? {};
          if (a.state !== 'queued' || a.ack !== 0 || a.body !== body || typeof a.id !== 'number' || typeof a.ticketId !== 'number')
            k.offAnswers++;
          k.accepted.push({ i, id: a.id, body, number: a.number ?? number, startWall: offset + start, lat });
        } else if (res.status === 429) {
          k.n429++;
          k.acceptedBeforeFirst429 ??= k.accepted.length;
          k.lat429.push(lat);
          if (!res.headers?.['retry-after']) k.retryAfterMissing++;
        } else {
          k.errors++;
          if (k.errorSamples.length < 3) k.errorSamples.push(`${res.status} ${JSON.stringify(res.body ?? '').slice(0, 200)}`);
        }
      };
      if (RATE > 0) {
        // open loop: call i starts at i / RATE s, whether or not the earlier ones have answered
        const calls = [];
        for (let i = 0; s0 + (i * 1000) / RATE < stopAt; i++) {
          const at = s0 + (i * 1000) / RATE + (k.t * 1000) / RATE / TOKENS;
          if (at > now()) await sleep(at - now());
          calls.push(call(i));
        }
        await Promise.all(calls);
        return;
      }
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (now() < stopAt) await call(next++);
        }),
      );
    }),
  );
  clearInterval(reporter);
  const sendSecs = (now() - s0) / 1000;
  const sendEndWall = Date.now();
  const cpu1 = Object.fromEntries(services.map((s) => [s.name, cpuSeconds(s.child.pid)]));
  const self1 = process.cpuUsage(self0);
  const machine1 = machineCpu();
  const pgCpu = postgresCpu() - pg0;
  const accepted = tokens.flatMap((k) => k.accepted.map((a) => ({ ...a, k })));
  const total429 = tokens.reduce((a, k) => a + k.n429, 0);
  const totalErrors = tokens.reduce((a, k) => a + k.errors, 0);
  log(`sent for ${fmt(sendSecs, 1)} s: 202 ${fmt(accepted.length)}, 429 ${fmt(total429)}, errors ${fmt(totalErrors)}`);
  for (const k of tokens) if (k.errorSamples.length) log(`token #${k.t}: ${k.errors} errors, e.g. ${k.errorSamples.join(' | ')}`);

  // ---- draining: every 202 on the phone, at the pace -----------------------------------------
  // what must reach the phone once: the measured 202s and the warm-up's
  const checked = [...accepted, ...tokens.flatMap((k) => k.warm.map((a) => ({ ...a, k })))];
  const ids = checked.map((a) => a.id).filter((id) => typeof id === 'number');
  const deadline = sendEndWall + BOUND_MS + DRAIN_EXTRA_S * 1000;
  log(
    `draining: waiting until the ${fmt(ids.length)} accepted are on the phone (at most ${fmt((deadline - Date.now()) / 1000)} s: paced drain ${fmt(BOUND_MS / 1000, 1)} s + ${DRAIN_EXTRA_S} s)`,
  );
  const onPhoneCount = async () =>
    (
      await one(
        `SELECT count(DISTINCT m.id)::int AS n
           FROM tickets.messages m JOIN whatsapp.sandbox_outbox o ON o."connectionId" = m."whatsappId" AND o."waMessageId" = m.wid AND o.kind = 'send'
          WHERE m.id = ANY($1::bigint[])`,
        [ids],
      )
    ).n;
  let phone = 0;
  let lastReport = Date.now();
  for (;;) {
    phone = await onPhoneCount();
    if (phone >= ids.length || Date.now() > deadline) break;
    if (Date.now() - lastReport >= 5000) {
      lastReport = Date.now();
      log(`end+${fmt((Date.now() - sendEndWall) / 1000)} s: on the phone ${fmt(phone)} / ${fmt(ids.length)}`);
    }
    await sleep(1000);
  }
  const drainedAt = Date.now();
  log(
    `end+${fmt((drainedAt - sendEndWall) / 1000, 1)} s: on the phone ${fmt(phone)} / ${fmt(ids.length)}${phone >= ids.length ? '' : ' (stopped waiting)'}; ${SETTLE_S} s more for late second sends`,
  );
  await sleep(SETTLE_S * 1000);

  // ---- the states as an integrator sees them ---------------------------------------------------
  const states = {};
  let getFailed = 0;
  /** each GET's duration, call start to answer (ms) */
  const getMs = [];
  const gets0 = performance.now();
  await pool(accepted.length, Math.min(16, SOCKETS), async (j) => {
    const a = accepted[j];
    const g0 = performance.now();
    const res = await request(gateway.url, 'GET', `/api/messages/${a.id}`, { token: a.k.apiToken }).catch((err) => ({
      status: `network ${err.code ?? err.message}`,
    }));
    getMs.push(performance.now() - g0);
    if (res.status !== 200 || res.body?.id !== a.id) getFailed++;
    else states[res.body.state] = (states[res.body.state] ?? 0) + 1;
  });

  const getsWall = (performance.now() - gets0) / 1000;
  getMs.sort((x, y) => x - y);

  // ---- figures, from PostgreSQL ------------------------------------------------------------------
  const ms = (x) => `(extract(epoch FROM ${x}) * 1000)::float8`;
  const { rows: stored } = await db.query(
    `SELECT id::float8 AS id, "whatsappId", wid, body, ${ms('"createdAt"')} AS "createdAt" FROM tickets.messages WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  const storedById = new Map(stored.map((m) => [m.id, m]));
  const { rows: phoneRows } = await db.query(
    `SELECT id, "connectionId", "waMessageId", "to", body, ${ms('"sentAt"')} AS "sentAt"
       FROM whatsapp.sandbox_outbox WHERE kind = 'send' AND "companyId" = ANY($1::int[]) ORDER BY "connectionId", "sentAt", id`,
    [companyIds],
  );
  const { n: storedTwice } = await one(
    `SELECT count(*)::int AS n FROM (SELECT body FROM tickets.messages WHERE "companyId" = ANY($1::int[]) AND "fromMe" AND body LIKE $2 GROUP BY body HAVING count(*) > 1) d`,
    [companyIds, `${BODY}%`],
  );
  const { n: tickets } = await one(`SELECT count(*)::int AS n FROM tickets.tickets WHERE "companyId" = ANY($1::int[])`, [companyIds]);

  const rowsByWid = new Map();
  const rowsByBody = new Map();
  for (const r of phoneRows) {
    const kw = `${r.connectionId}|${r.waMessageId}`;
    rowsByWid.set(kw, [...(rowsByWid.get(kw) ?? []), r]);
    rowsByBody.set(r.body, (rowsByBody.get(r.body) ?? 0) + 1);
  }
  const acceptedBodies = new Set(checked.map((a) => a.body));
  let lost = 0;
  let notStored = 0;
  let twiceById = 0;
  let wrongNumber = 0;
  let wrongConnection = 0;
  const toStored = [];
  for (const a of checked) {
    const m = storedById.get(a.id);
    if (!m) {
      notStored++;
      lost++;
      continue;
    }
    if (m.whatsappId !== a.k.connectionId || m.body !== a.body) wrongConnection++;
    if (Number.isFinite(a.startWall)) {
      toStored.push(m.createdAt - a.startWall);
      a.stored = m.createdAt - a.startWall;
    }
    const copies = rowsByWid.get(`${m.whatsappId}|${m.wid}`) ?? [];
    if (copies.length === 0) lost++;
    if (copies.length > 1) twiceById++;
    if (copies.some((r) => r.to !== a.number)) wrongNumber++;
  }
  const bodiesTwice = [...rowsByBody.values()].filter((n) => n > 1).length;
  const withoutA202 = [...rowsByBody.keys()].filter((b) => !acceptedBodies.has(b)).length;
  const tokenOfBody = (b) => Number(/^api (\d+) /.exec(b)?.[1]);
  wrongConnection += phoneRows.filter((r) => tokens[tokenOfBody(r.body)]?.connectionId !== r.connectionId).length;

  // pacing: per connection, its sends on the phone in order
  const pacing = tokens.map((k) => {
    const at = phoneRows.filter((r) => r.connectionId === k.connectionId).map((r) => r.sentAt);
    let minGap = Infinity;
    let below = 0;
    // how far ahead of the pace the phone ever was over a run of sends j..i: (i − j) × interval − (at_i − at_j)
    let ahead = -Infinity;
    let best = -Infinity; // max over j < i of (at_j − j × interval)
    for (let i = 0; i < at.length; i++) {
      if (i > 0) {
        const gap = at[i] - at[i - 1];
        minGap = Math.min(minGap, gap);
        if (gap < INTERVAL_MS) below++;
        ahead = Math.max(ahead, best - (at[i] - i * INTERVAL_MS));
      }
      best = Math.max(best, at[i] - i * INTERVAL_MS);
    }
    const span = at.length > 1 ? (at[at.length - 1] - at[0]) / 1000 : NaN;
    return { k, sends: at.length, minGap, below, ahead, rate: (at.length - 1) / span, last: at.length ? at[at.length - 1] : NaN };
  });
  const paceHeld = pacing.every((p) => p.sends < 2 || p.ahead <= PACE_SLACK_MS);
  const anyBelow = pacing.reduce((a, p) => a + p.below, 0);
  const lastOnPhone = Math.max(...pacing.map((p) => p.last).filter(Number.isFinite));
  const smallestGap = Math.min(...pacing.map((p) => p.minGap));
  const msOr = (x, d = 1) => (Number.isFinite(x) ? `${fmt(x, d)} ms` : '-');

  const lat = accepted.map((a) => a.lat).sort((x, y) => x - y);
  const lat429 = tokens.flatMap((k) => k.lat429).sort((x, y) => x - y);
  toStored.sort((x, y) => x - y);
  const p99 = percentile(lat, 99);
  const held = lat.length > 0 && p99 <= TARGET_P99_MS;
  const expectedPerToken = QUEUE_MAX + 1 + Math.floor((sendSecs * 1000) / INTERVAL_MS);
  const offAnswers = tokens.reduce((a, k) => a + k.offAnswers, 0);
  const retryAfterMissing = tokens.reduce((a, k) => a + k.retryAfterMissing, 0);
  const row = (label, list, d = 1) =>
    `${label.padEnd(47)}: p50 ${fmt(percentile(list, 50), d)} ms   p99 ${fmt(percentile(list, 99), d)} ms   max ${fmt(list[list.length - 1], d)} ms   (${fmt(list.length)})`;

  out(
    `public messages API benchmark: ${TOKENS} tokens (one company and sandbox connection each) × ${CONCURRENCY} calls in flight for ${fmt(sendSecs, 1)} s, ${NUMBERS} numbers per token, through messaging-gateway`,
  );
  out(
    `pace (gateway API_SENDS_PER_MINUTE / API_QUEUE_MAX): ${SENDS_PER_MINUTE}/min per connection = one per ${INTERVAL_MS} ms, ${QUEUE_MAX} queued at most (paced drain ≤ ${fmt(BOUND_MS / 1000, 1)} s)`,
  );
  out(row('(a) call latency, accepted (202)', lat));
  out(row('    call latency, refused (429)', lat429));
  out(row('(b) call -> stored (messages.createdAt - start)', toStored));
  // when the tail happened: a stall shared by calls close together is the machine's, not the call's
  const slowest = checked
    .filter((a) => Number.isFinite(a.startWall))
    .sort((x, y) => y.lat - x.lat)
    .slice(0, 9);
  out(
    `    slowest calls (s after sending began at ${new Date(sendStartWall).toISOString()}: call / to stored ms): ${slowest.map((a) => `${fmt((a.startWall - sendStartWall) / 1000, 2)}: ${fmt(a.lat, 0)}/${fmt(a.stored, 0)}`).join(', ')}`,
  );
  out(
    `(c) pacing on the phone, per token (interval ${INTERVAL_MS} ms; "ahead" = how far the phone ever got ahead of the pace over any run of sends):`,
  );
  for (const p of pacing) {
    out(
      `      #${String(p.k.t).padEnd(2)} connection ${String(p.k.connectionId).padEnd(4)}: ${fmt(p.sends).padStart(5)} sends at ${Number.isFinite(p.rate) ? fmt(p.rate, 2) : '-'}/s, smallest gap ${msOr(p.minGap)}, ` +
        `${fmt(p.below)} gaps below ${INTERVAL_MS} ms, ahead ${msOr(Math.max(0, p.ahead))}${p.sends >= 2 && p.ahead > PACE_SLACK_MS ? '  EXCEEDED' : ''}`,
    );
  }
  out(
    `    pace never exceeded (ahead <= ${PACE_SLACK_MS} ms, stamp noise): ${paceHeld ? 'YES' : 'NO'}; gaps below the interval, all tokens: ${fmt(anyBelow)}; smallest gap ${msOr(smallestGap)}`,
  );
  out(
    `(d) accepted / refused                          : ${fmt(accepted.length)} 202 = ${fmt(accepted.length / sendSecs, 1)}/s (${fmt(accepted.length / sendSecs / TOKENS, 2)}/s per token; the pace admits ~${fmt(expectedPerToken)} per token = ` +
      `${QUEUE_MAX + 1} at once + ${fmt(1000 / INTERVAL_MS, 2)}/s), ${fmt(total429)} 429 = ${fmt(total429 / sendSecs, 1)}/s${retryAfterMissing ? ` (${fmt(retryAfterMissing)} without Retry-After)` : ''}`,
  );
  out(
    `    per token 202 / 429 / 202s before the first 429 : ${tokens.map((k) => `${k.accepted.length}/${k.n429}/${k.acceptedBeforeFirst429 ?? '-'}`).join('  ')}`,
  );
  out(
    `    other answers (errors)                      : ${fmt(totalErrors)}${offAnswers ? `; 202 answers not { state: 'queued', ack: 0, id, ticketId, body }: ${fmt(offAnswers)}` : ''}`,
  );
  out(
    `drain: last on the phone                        : ${Number.isFinite(lastOnPhone) ? `${fmt((lastOnPhone - sendEndWall) / 1000, 1)} s` : '-'} after sending ended (paced drain ≤ ${fmt(BOUND_MS / 1000, 1)} s)`,
  );
  out(
    `GET /api/messages/{id} of every 202            : ${
      Object.entries(states)
        .map(([s, n]) => `${s} ${fmt(n)}`)
        .join(', ') || '-'
    }${getFailed ? `; failed ${fmt(getFailed)}` : ''}; ${fmt(getMs.length / getsWall)}/s, call p50 ${fmt(percentile(getMs, 50), 1)} ms, p99 ${fmt(percentile(getMs, 99), 1)} ms (${Math.min(16, SOCKETS)} in flight)`,
  );
  out(
    `CPU seconds while sending (${fmt(sendSecs, 1)} s wall)         : ` +
      services.map((s) => `${s.name} ${fmt(cpu1[s.name] - cpu0[s.name], 1)}`).join(', ') +
      `, postgres ${fmt(pgCpu, 1)}, this client ${fmt((self1.user + self1.system) / 1e6, 1)}; machine busy ${fmt(busyPercent(machine0, machine1))}% of 2 cores`,
  );
  out(
    `stored (tickets.messages)                       : ${fmt(stored.length)} of ${fmt(checked.length)} 202s (${fmt(checked.length - accepted.length)} of the warm-up), ${fmt(storedTwice)} bodies stored twice; tickets: ${fmt(tickets)} for ${fmt(TOKENS * NUMBERS)} numbers`,
  );
  out(`(e) sent twice (a 202 on the phone > once / bodies with > 1 sandbox_outbox row): ${fmt(twiceById)} / ${fmt(bodiesTwice)}`);
  out(
    `    lost (a 202 never on the phone, or not stored): ${fmt(lost)}${notStored ? ` (${fmt(notStored)} not stored)` : ''}${wrongNumber ? `; to a wrong number: ${fmt(wrongNumber)}` : ''}${wrongConnection ? `; through a wrong connection: ${fmt(wrongConnection)}` : ''}; on the phone without a 202: ${fmt(withoutA202)}`,
  );
  out(`target (p99 of an accepted call <= ${TARGET_P99_MS} ms)      : ${held ? 'HELD' : 'MISSED'} (p99 ${fmt(p99, 1)} ms)`);

  for (const k of tokens) k.socket.close();
  await db.end();
  agent.destroy();
  const bad = {
    lost,
    'sent twice': twiceById + bodiesTwice,
    'stored twice': storedTwice,
    'to a wrong number': wrongNumber,
    'through a wrong connection': wrongConnection,
    'answered other than 202/429': totalErrors,
  };
  if (Object.values(bad).some((n) => n > 0)) {
    throw new Error(
      Object.entries(bad)
        .map(([what, n]) => `${n} ${what}`)
        .join(', '),
    );
  }
}

await bench.run(main);
