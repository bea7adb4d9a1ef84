#!/usr/bin/env node
// Inbound benchmark: N sandbox messages from M contacts through the real services, one admin socket.
//
//   npm run bench:inbound [-- N [M [RATE [SECONDS]]]]     (or BENCH_N, BENCH_M, BENCH_RATE, BENCH_SECONDS)
//
// Starts auth, tickets, whatsapp-sessions, realtime-gateway and messaging-gateway as processes
// (node services/<name>/dist/main.js) on a fresh `wa_bench` database, logs in through the gateway,
// creates a queue and a sandbox connection, connects one socket.io client as the company's admin, then
//   phase 1: injects N messages (CONCURRENCY requests in flight) and measures the injection rate, the
//            stored rate (rows in tickets.messages) and the fanned-out rate (appMessage creates on the socket);
//   phase 2: injects RATE messages/s for SECONDS s and measures inject call start → appMessage on the socket.
// See README.md beside this file.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
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
  streamSeqs,
} from '../lib/product.mjs';
import { busyPercent, costRanking, cpuSeconds, machineCpu, paceProbe, postgresCpu, processCosts } from '../lib/proc.mjs';
import pg from 'pg';

const arg = (i, name, dflt) => Number(process.argv[2 + i] ?? process.env[name] ?? dflt);
const N = arg(0, 'BENCH_N', 50_000);
const M = arg(1, 'BENCH_M', 500);
const RATE = arg(2, 'BENCH_RATE', 500);
const SECONDS = arg(3, 'BENCH_SECONDS', 10);
/**
 * `gateway` (default): POST …/sandbox/inbound through messaging-gateway; `sessions`: the same POST straight to
 * whatsapp-sessions' port; `bus` (diagnostic, no HTTP): publish on JetStream the `wa.inbound.*` message
 * whatsapp-sessions would publish for that request, to measure what comes after the sandbox (tickets, fan-out).
 */
const VIA = process.env.BENCH_VIA ?? 'gateway';
/**
 * Phase 1 delivers BATCH messages per sandbox call (POST …/sandbox/inbound/batch: one Baileys upsert, as a
 * phone hands over its backlog); 1 = one call per message. Phase 2 always injects one message per call.
 */
const BATCH = Number(process.env.BENCH_BATCH ?? 50);
/**
 * Phase 2 hands the sandbox what is due every TICK ms in one call (Baileys too buffers a socket's events
 * and flushes them together); each message's latency runs from the start of its call. 0 = one call per message.
 */
const P2_TICK_MS = Number(process.env.BENCH_P2_TICK_MS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? (VIA === 'bus' ? 256 : BATCH > 1 ? 8 : 48));
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432';
const DB_NAME = 'wa_bench';
/**
 * Empty: a private redis-server for the run (its db 4). Another process on the shared server's db 4 would share
 * keys with the services (session leases `wa:session:lease:<connectionId>`, ticket places…), and would be hurt by a flush.
 */
const REDIS_URL_GIVEN = process.env.BENCH_REDIS_URL ?? '';
/** Empty: a private nats-server (JetStream, temp store) for the run, so no other process shares our durables. */
const NATS_URL_GIVEN = process.env.BENCH_NATS_URL ?? '';
const WARMUP = 200;
/**
 * 1: the connection has the chatbot's menu (a greeting and two queues), so every customer message on a waiting
 * ticket is the bot's turn and its replies go out through the sandbox, as on a company that uses the bot. Only
 * the customers' messages are counted (stored rows with fromMe false, appMessage creates of them).
 */
const BOT = process.env.BENCH_BOT === '1';

for (const [k, v] of Object.entries({ N, M, RATE, SECONDS, CONCURRENCY, BATCH })) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`bad ${k}: ${v}`);
}
if (!['gateway', 'sessions', 'bus'].includes(VIA)) throw new Error(`BENCH_VIA must be gateway, sessions or bus, not ${VIA}`);

const now = () => performance.now();
const log = (s) => process.stderr.write(`bench:inbound: ${s}\n`);
const out = (s) => process.stdout.write(`${s}\n`);
const bench = benchRun('inbound', log);
const { children } = bench;

// ------------------------------------------------------------------ HTTP

const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, 64), maxFreeSockets: Math.max(CONCURRENCY, 64) });

const request = (base, method, path, opts) => jsonRequest(agent, base, method, path, opts);

// ------------------------------------------------------------------ main

async function main() {
  ensureBuilt(log);
  const load0 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  log(`logs in ${bench.logDir}`);
  const pace0 = paceProbe().ms;

  const dbUrl = await recreateDatabase(PG_URL, DB_NAME);
  const adminUser = await createCompany(dbUrl);
  const natsUrl = await bench.startNats(NATS_URL_GIVEN);
  const redisUrl = await bench.startRedis(REDIS_URL_GIVEN);
  const { sessions, gateway, services } = await bench.startProduct({ dbUrl, natsUrl, redisUrl, natsGiven: Boolean(NATS_URL_GIVEN) });

  // login, queue, sandbox connection and the admin's socket: through the gateway, as the app does
  const company = {
    ...(await sandboxCompany({ request, gatewayUrl: gateway.url, adminUser, jwtSecret: bench.jwtSecret })),
    gatewayUrl: gateway.url,
    dbUrl,
  };
  const { companyId, connectionId, socket } = company;
  if (BOT) await withBotMenu(company);
  let token = company.token();
  setInterval(() => (token = company.token()), 60_000).unref();
  let disconnected = null;
  socket.on('disconnect', (reason) => (disconnected = reason));
  let creates = 0;
  let ticketEvents = 0;
  let lastCreateAt = 0;
  const waiting = new Map(); // phase 2: body -> inject start time
  const latencies = [];
  const seen = new Map(); // phase 2: body -> [inject start, on the socket] (performance.now())
  socket.on(`company-${companyId}-appMessage`, (p) => {
    if (p?.action !== 'create' || p.message?.fromMe) return;
    creates++;
    lastCreateAt = now();
    const t0 = waiting.get(p.message?.body);
    if (t0 !== undefined) {
      latencies.push(lastCreateAt - t0);
      seen.set(p.message.body, [t0, lastCreateAt]);
      waiting.delete(p.message.body);
    }
  });
  socket.on(`company-${companyId}-ticket`, () => ticketEvents++);

  const injectBase = VIA === 'gateway' ? gateway.url : sessions.url;
  const inboundPath = `/whatsappsession/${connectionId}/sandbox/inbound`;
  const failures = new Map();
  const contact = (i) => `5511${String(900_000_000 + i)}`;
  let bus;
  if (VIA === 'bus') {
    const { EventBus } = await import('../../libs/event-bus/dist/index.js');
    bus = await EventBus.connect({
      servers: natsUrl,
      name: 'bench-inbound',
      user: 'operator',
      pass: bench.natsPasswords.operator,
      logger: { info() {}, warn: (o, m) => log(`bus: ${m}`), error: (o, m) => log(`bus: ${m}`) },
    });
  }
  /** What whatsapp-sessions publishes for a sandbox message (toInboundMessage of its Baileys-shaped upsert). */
  const publishInbound = async (from, body, id) => {
    const waMessageId = `3EB0${id}`;
    const payload = {
      companyId,
      connectionId,
      waMessageId,
      from,
      fromName: `Cliente ${from.slice(-4)}`,
      body,
      mediaType: 'chat',
      fromMe: false,
      isGroup: false,
      timestamp: Date.now(),
      quotedWaMessageId: null,
    };
    await bus.publish(`wa.inbound.${companyId}.${connectionId}.${from}`, payload, { msgId: `${connectionId}:${waMessageId}` });
    return 202;
  };
  const sandboxMessage = ({ from, body, id }) => ({ from, name: `Cliente ${from.slice(-4)}`, body, id });
  /** One sandbox call with one message or several; retried (same WhatsApp ids, so never stored twice) on a transport error or a 5xx/429. */
  async function injectMany(list) {
    for (let attempt = 0; ; attempt++) {
      let status;
      try {
        if (bus) {
          for (const m of list) status = await publishInbound(m.from, m.body, m.id);
        } else if (list.length === 1) {
          status = (await request(injectBase, 'POST', inboundPath, { token, body: sandboxMessage(list[0]) })).status;
        } else {
          status = (await request(injectBase, 'POST', `${inboundPath}/batch`, { token, body: { messages: list.map(sandboxMessage) } }))
            .status;
        }
      } catch (err) {
        status = err.code ?? 'error';
      }
      if (status === 202) return;
      failures.set(status, (failures.get(status) ?? 0) + 1);
      if (attempt >= 5 || (typeof status === 'number' && status < 500 && status !== 429)) throw new Error(`inject: ${status}`);
      await sleep(50 * (attempt + 1));
    }
  }
  const inject = (from, body, id) => injectMany([{ from, body, id }]);

  const pool = new pg.Pool({ connectionString: dbUrl, max: 2 });
  const stored = async () =>
    (await pool.query('SELECT count(*)::int AS n FROM tickets.messages WHERE "companyId" = $1 AND NOT "fromMe"', [companyId])).rows[0].n;

  // ---- warm-up: JIT, pools, the queue's first tickets (contacts of its own) --------------------
  log(`warm-up: ${WARMUP} messages`);
  await Promise.all(
    Array.from({ length: 16 }, async (_, w) => {
      for (let i = w; i < WARMUP; i += 16) await inject(`5521${String(900_000_000 + (i % 50))}`, `warm-${i}`, `warm${i}`);
    }),
  );
  for (let i = 0; (await stored()) < WARMUP || creates < WARMUP; i++) {
    if (i > 300) throw new Error(`warm-up: ${await stored()} stored, ${creates} fanned out of ${WARMUP}`);
    await sleep(100);
  }
  await sleep(500);

  // ---- phase 1: throughput -------------------------------------------------------------------
  const storedBase = await stored();
  const createsBase = creates;
  const ticketBase = ticketEvents;
  const cpu0 = Object.fromEntries(services.map((s) => [s.name, cpuSeconds(s.child.pid)]));
  const selfCpu0 = process.cpuUsage();
  const machine0 = machineCpu();
  const pg0 = postgresCpu();
  const nats0 = children.filter((c) => c.name === 'nats-server').map((c) => cpuSeconds(c.child.pid))[0];
  /** PostgreSQL's commits in the bench's database (every service writes there) */
  const commits = async () =>
    Number((await pool.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows[0].xact_commit);
  const commits0 = await commits();
  const js0 = await streamSeqs(natsUrl, bench.natsPasswords.operator);
  const productCpu = () => children.reduce((sum, c) => sum + (cpuSeconds(c.child.pid) || 0), 0) + postgresCpu();
  const product0 = productCpu();
  // each process's user and system time and its system calls (a socket write crosses into the kernel and wakes the peer)
  const costs = () => processCosts(children.filter((c) => !c.exited));
  const cost0 = costs();
  log(`phase 1: ${fmt(N)} messages from ${fmt(M)} contacts, ${BATCH} a call, ${CONCURRENCY} calls in flight, via ${VIA}`);
  let next = 0;
  let storedDoneAt = 0;
  let storedCount = 0;
  const t0 = now();
  // the poll runs beside the injection, so the stored rate is measured from the first request. Its count(*) is
  // PostgreSQL's work, which the product's CPU figure includes (every 100 ms it was ~2 % of it): it counts every 2 s
  // until the socket has seen nearly all the messages (each is stored before it is fanned out), then every 100 ms
  let injectedAt = 0;
  const poll = (async () => {
    let countedAt = 0;
    // until all are stored, or 120 s after the last 202 (the injection itself may take long)
    while (!injectedAt || now() < injectedAt + 120_000) {
      const close = creates - createsBase >= N * 0.95 || storedCount >= N * 0.95;
      if (close || now() - countedAt >= 2_000) {
        countedAt = now();
        storedCount = (await stored()) - storedBase;
        if (storedCount >= N) {
          storedDoneAt = now();
          return;
        }
      }
      await sleep(100);
    }
  })();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) {
        const first = next;
        next = Math.min(N, next + BATCH);
        const list = [];
        for (let i = first; i < next; i++) list.push({ from: contact(i % M), body: `p1-${i}`, id: `p1x${i}` });
        await injectMany(list);
      }
    }),
  );
  injectedAt = now();
  await poll;
  const fanDeadline = now() + 60_000;
  while (creates - createsBase < N && now() < fanDeadline && !disconnected) await sleep(20);
  const fanned = creates - createsBase;
  const fanDoneAt = fanned >= N ? lastCreateAt : NaN;
  const cpu1 = Object.fromEntries(services.map((s) => [s.name, cpuSeconds(s.child.pid)]));
  const selfCpu = process.cpuUsage(selfCpu0);
  const machine1 = machineCpu();
  const pgCpu = postgresCpu() - pg0;
  const natsCpu = children.filter((c) => c.name === 'nats-server').map((c) => cpuSeconds(c.child.pid))[0] - nats0;
  const productCpuPerK = ((productCpu() - product0) / N) * 1000;
  const cost1 = costs();
  const js1 = await streamSeqs(natsUrl, bench.natsPasswords.operator);
  // the statistics collector reports a backend's commits when it goes idle: a moment for the last ones
  await sleep(1000);
  const commitsPerMessage = ((await commits()) - commits0) / N;
  const phase1Secs = ((Number.isNaN(fanDoneAt) ? now() : Math.max(fanDoneAt, storedDoneAt || 0)) - t0) / 1000;

  // ---- phase 2: latency at a steady rate -----------------------------------------------------
  await sleep(1000);
  const total = RATE * SECONDS;
  log(`phase 2: ${fmt(total)} messages at ${RATE}/s`);
  const injectTimes = [];
  const p2Failures = [];
  const s0 = now();
  const machine2 = machineCpu();
  const cpu2 = Object.fromEntries(services.map((s) => [s.name, cpuSeconds(s.child.pid)]));
  const pg2 = postgresCpu();
  const nats2 = children.filter((c) => c.name === 'nats-server').map((c) => cpuSeconds(c.child.pid))[0];
  const selfCpu2 = process.cpuUsage();
  const inflight = new Set();
  let sent = 0;
  const call = (list) => {
    const start = now();
    for (const m of list) waiting.set(m.body, start);
    const p = injectMany(list).then(
      () => injectTimes.push(now() - start),
      (err) => p2Failures.push(err.message),
    );
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };
  while (sent < total) {
    const due = Math.min(total, Math.floor(((now() - s0) / 1000) * RATE) + 1);
    const list = [];
    while (sent < due) {
      const k = sent++;
      list.push({ from: contact(k % M), body: `p2-${k}-${randomBytes(3).toString('hex')}`, id: `p2x${k}` });
    }
    if (P2_TICK_MS > 0 && list.length > 0) call(list);
    else for (const m of list) call([m]);
    await sleep(Math.max(1, P2_TICK_MS));
  }
  const sentSecs = (now() - s0) / 1000;
  await Promise.all(inflight);
  const p2Deadline = now() + 15_000;
  while (latencies.length < total - p2Failures.length && now() < p2Deadline && !disconnected) await sleep(20);
  const lost = waiting.size;
  const machine3 = machineCpu();
  const cpu3 = Object.fromEntries(services.map((s) => [s.name, cpuSeconds(s.child.pid)]));
  const pg3 = postgresCpu();
  const nats3 = children.filter((c) => c.name === 'nats-server').map((c) => cpuSeconds(c.child.pid))[0];
  const selfCpu3 = process.cpuUsage(selfCpu2);
  const split = await phase2Split(pool, seen);
  const pace1 = paceProbe().ms;

  // ---- figures --------------------------------------------------------------------------------
  const injectSecs = (injectedAt - t0) / 1000;
  const storedSecs = storedDoneAt ? (storedDoneAt - t0) / 1000 : NaN;
  const fanSecs = (fanDoneAt - t0) / 1000;
  const lat = latencies.sort((a, b) => a - b);
  const inj = injectTimes.sort((a, b) => a - b);
  const finalStored = (await stored()) - storedBase;
  const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  out(
    `inbound benchmark${BOT ? ' with the bot on (a greeting and a menu of two queues)' : ''}: N=${N} messages from M=${M} contacts, phase 1 ${BATCH} a sandbox call with ${CONCURRENCY} calls in flight, injected via ${{ gateway: 'messaging-gateway', sessions: 'whatsapp-sessions directly', bus: 'JetStream directly (DIAGNOSTIC: no HTTP, no whatsapp-sessions)' }[VIA]}, NATS ${NATS_URL_GIVEN || 'private nats-server'}, Redis ${REDIS_URL_GIVEN || 'private redis-server'}`,
  );
  out(`load average before / after          : ${load0} / ${load1}`);
  out(`machine pace before / after          : ${fmt(pace0)} / ${fmt(pace1)} CPU ms for a fixed piece of work, alone (lower is faster)`);
  out(`injected (202 or JetStream ack)      : ${fmt(N)} in ${fmt(injectSecs, 2)} s = ${fmt(N / injectSecs)} msg/s`);
  out(
    `stored (tickets.messages rows)       : ${fmt(Math.min(storedCount, N))} in ${fmt(storedSecs, 2)} s = ${storedDoneAt ? fmt(N / storedSecs) : 'n/a (not all stored)'} msg/s (target >= 3,000)`,
  );
  out(
    `fanned out (appMessage create, admin): ${fmt(fanned)} in ${fmt(fanSecs, 2)} s = ${Number.isNaN(fanDoneAt) ? 'n/a (not all delivered)' : fmt(N / fanSecs)} msg/s (target >= 3,000)`,
  );
  out(`ticket events on the admin socket    : ${fmt(ticketEvents - ticketBase)} during phase 1`);
  out(
    `rows check                           : ${fmt(finalStored)} stored for phase 1+2, expected ${fmt(N + total - p2Failures.length)} -> ${finalStored === N + total - p2Failures.length ? 'OK' : 'MISMATCH'}`,
  );
  out(
    `inject retries / failures            : ${[...failures].map(([k, v]) => `${k}×${v}`).join(', ') || 'none'}${p2Failures.length ? `; phase 2 failed: ${p2Failures.length}` : ''}`,
  );
  out(
    `CPU seconds in phase 1 (${fmt(phase1Secs, 1)} s wall): ` +
      services.map((s) => `${s.name} ${fmt(cpu1[s.name] - cpu0[s.name], 1)}`).join(', ') +
      `, this client ${fmt((selfCpu.user + selfCpu.system) / 1e6, 1)}` +
      `${NATS_URL_GIVEN ? '' : `, nats-server ${fmt(natsCpu, 1)}`}, postgres (all backends) ${fmt(pgCpu, 1)}`,
  );
  out(
    `CPU s per 1,000 customer messages    : ${fmt(productCpuPerK, 2)} (phase 1, every process of the product: ${children.map((c) => c.name).join(', ')}, and postgres)`,
  );
  out(`PostgreSQL commits per customer msg : ${fmt(commitsPerMessage, 2)} (phase 1, every service's, in the bench database)`);
  const perMessage = (keep, name = (key) => key) =>
    [...js1]
      .filter(([key]) => keep(key))
      .map(([key, n]) => [name(key), (n - (js0.get(key) ?? 0)) / N])
      .filter(([, n]) => n > 0);
  const published = perMessage((key) => !key.includes(':'));
  const bytes = perMessage(
    (key) => key.startsWith('bytes:'),
    (key) => key.slice('bytes:'.length),
  );
  out(
    `JetStream messages per customer msg : ${fmt(
      published.reduce((sum, [, n]) => sum + n, 0),
      2,
    )} (phase 1, stored in every stream: ` + `${published.map(([name, n]) => `${name} ${fmt(n, 2)}`).join(', ')})`,
  );
  out(
    `JetStream bytes per customer msg    : ${fmt(
      bytes.reduce((sum, [, n]) => sum + n, 0),
      0,
    )} (phase 1, what the streams grew by: ` + `${bytes.map(([name, n]) => `${name} ${fmt(n, 0)}`).join(', ')})`,
  );
  const perK = (n) => fmt((n / N) * 1000, 0);
  for (const [name, c] of costRanking(cost0, cost1)) {
    out(
      `  ${name.padEnd(35)}: user ${fmt(c.user, 1)} s, system ${fmt(c.sys, 1)} s; per 1,000 msgs ${perK(c.syscw)} writes, ${perK(c.syscr)} reads (phase 1)`,
    );
  }
  out(
    `machine CPU busy (2 cores = 100%)    : phase 1 ${fmt(busyPercent(machine0, machine1))}%, phase 2 ${fmt(busyPercent(machine2, machine3))}%`,
  );
  out(
    `steady phase                         : ${fmt(total)} messages offered at ${RATE}/s over ${fmt(sentSecs, 1)} s (${P2_TICK_MS > 0 ? `what is due every ${P2_TICK_MS} ms in one call` : 'one call per message'}), ${fmt(lat.length)} seen on the socket, ${fmt(lost)} not seen`,
  );
  out(
    `CPU seconds in phase 2             : ${services.map((s) => `${s.name} ${fmt(cpu3[s.name] - cpu2[s.name], 1)}`).join(', ')}, this client ${fmt((selfCpu3.user + selfCpu3.system) / 1e6, 1)}, nats-server ${fmt(nats3 - nats2, 1)}, postgres ${fmt(pg3 - pg2, 1)}`,
  );
  out(`inject -> appMessage on socket  p50  : ${fmt(percentile(lat, 50), 2)} ms (target <= 10)`);
  out(`inject -> appMessage on socket  p99  : ${fmt(percentile(lat, 99), 2)} ms (target <= 50)`);
  out(`inject -> appMessage on socket  p90 / max: ${fmt(percentile(lat, 90), 2)} / ${fmt(lat[lat.length - 1], 2)} ms`);
  out(`inject call (202) duration  p50 / p99: ${fmt(percentile(inj, 50), 2)} / ${fmt(percentile(inj, 99), 2)} ms`);
  if (split) {
    const show = (xs) => `${fmt(percentile(xs, 50), 1)} / ${fmt(percentile(xs, 99), 1)} / ${fmt(xs[xs.length - 1], 1)}`;
    out(
      `phase 2 split p50 / p99 / max (ms)  : inject -> stored ${show(split.toStored)}; stored -> socket ${show(split.toSocket)} (stored: the row's createdAt, its transaction's start)`,
    );
    out(
      `phase 2 slowest message             : ${fmt(split.worst.total, 1)} ms = ${fmt(split.worst.toStored, 1)} to stored + ${fmt(split.worst.toSocket, 1)} to the socket, ${fmt(split.worst.offsetS, 1)} s into the phase`,
    );
  }
  if (disconnected) out(`warning: the admin socket disconnected (${disconnected})`);

  socket.close();
  await bus?.close();
  await pool.end();
  agent.destroy();
}

/**
 * Where phase 2's time went, message by message: from the inject call's start to the row's `createdAt` (the start of
 * the transaction that stored it: PostgreSQL and this process read the same clock) and from there to the socket.
 */
async function phase2Split(pool, seen) {
  if (seen.size === 0) return undefined;
  const { rows } = await pool.query(
    `SELECT body, extract(epoch FROM "createdAt") * 1000 AS at FROM tickets.messages WHERE body = ANY($1) AND NOT "fromMe"`,
    [[...seen.keys()]],
  );
  const toStored = [];
  const toSocket = [];
  let worst;
  let first = Infinity;
  for (const [t0] of seen.values()) first = Math.min(first, t0);
  for (const r of rows) {
    const [t0, at] = seen.get(r.body);
    const storedAt = Number(r.at) - performance.timeOrigin; // on performance.now()'s scale
    const a = storedAt - t0;
    const b = at - storedAt;
    toStored.push(a);
    toSocket.push(b);
    if (!worst || a + b > worst.total) worst = { total: a + b, toStored: a, toSocket: b, offsetS: (t0 - first) / 1000 };
  }
  toStored.sort((x, y) => x - y);
  toSocket.sort((x, y) => x - y);
  return { toStored, toSocket, worst };
}

/** The chatbot's menu on the bench's connection: a greeting and two queues, as tickets reads it (its copy of the connection). */
async function withBotMenu(company) {
  const call = (method, path, body) => request(company.gatewayUrl, method, path, { token: company.token(), body });
  const second = await call('POST', '/queue', { name: 'Financeiro', color: '#0000aa', greetingMessage: 'Financeiro', orderQueue: 2 });
  if (second.status !== 201) throw new Error(`queue: ${second.status} ${JSON.stringify(second.body)}`);
  const put = await call('PUT', `/whatsapp/${company.connectionId}`, {
    queueIds: [company.queueId, second.body.id],
    greetingMessage: 'Olá! Escolha um setor:',
  });
  if (put.status !== 200) throw new Error(`connection: ${put.status} ${JSON.stringify(put.body)}`);
  const pool = new pg.Pool({ connectionString: company.dbUrl, max: 1 });
  try {
    for (let i = 0; ; i++) {
      const c = (await pool.query('SELECT "queueIds" FROM tickets.connections WHERE id = $1', [company.connectionId])).rows[0];
      if (c?.queueIds?.length === 2) break;
      if (i > 100) throw new Error('tickets never heard of the connection’s menu');
      await sleep(100);
    }
  } finally {
    await pool.end();
  }
}

await bench.run(main);
