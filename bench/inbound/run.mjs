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
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { busyPercent, cpuSeconds, machineCpu, postgresCpu } from '../lib/proc.mjs';
import pg from 'pg';
import { io } from 'socket.io-client';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
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
const JWT_SECRET = `bench-inbound-${randomBytes(12).toString('hex')}`;
const WARMUP = 200;

for (const [k, v] of Object.entries({ N, M, RATE, SECONDS, CONCURRENCY, BATCH })) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`bad ${k}: ${v}`);
}
if (!['gateway', 'sessions', 'bus'].includes(VIA)) throw new Error(`BENCH_VIA must be gateway, sessions or bus, not ${VIA}`);

const now = () => performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (x, d = 0) => Number(x).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const log = (s) => process.stderr.write(`bench:inbound: ${s}\n`);
const out = (s) => process.stdout.write(`${s}\n`);
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

// ------------------------------------------------------------------ processes

const logDir = mkdtempSync(join(tmpdir(), 'wa-bench-inbound-'));
const children = [];

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function spawnLogged(name, cmd, args, env) {
  const file = join(logDir, `${name}.log`);
  const stream = createWriteStream(file);
  const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(stream, { end: false });
  child.stderr.pipe(stream, { end: false });
  const proc = { name, child, file, exited: false };
  child.on('exit', (code, signal) => {
    proc.exited = true;
    proc.exit = signal ?? code;
  });
  children.push(proc);
  return proc;
}

async function startRedis() {
  if (REDIS_URL_GIVEN) return REDIS_URL_GIVEN;
  const port = await freePort();
  const p = spawnLogged('redis-server', 'redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', logDir], { PATH: process.env.PATH });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (p.exited) throw new Error(`redis-server exited: ${readFileSync(p.file, 'utf8')}`);
    const redis = new Redis(`redis://127.0.0.1:${port}/4`, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => undefined);
    const ok = await redis.connect().then(() => redis.ping(), () => null);
    redis.disconnect();
    if (ok === 'PONG') return `redis://127.0.0.1:${port}/4`;
    await sleep(100);
  }
  throw new Error('redis-server did not start');
}

/**
 * The services run as in production: NODE_ENV=production and NATS with the shipped configuration
 * (k8s/base/nats.conf: one user per service, each allowed only its own subjects; the bench itself
 * publishes as `operator`). A given NATS_URL is taken as an open server (credentials are ignored there).
 */
const NATS_USERS = ['auth', 'tickets', 'whatsapp-sessions', 'realtime-gateway', 'messaging-gateway', 'campaigns', 'billing', 'operator'];
const natsPasswords = Object.fromEntries(NATS_USERS.map((u) => [u, `n${randomBytes(24).toString('hex')}`]));
const natsCredentials = (user) => ({ NATS_USER: user, NATS_PASSWORD: natsPasswords[user] });

async function startNats() {
  if (NATS_URL_GIVEN) return NATS_URL_GIVEN;
  const port = await freePort();
  const store = join(logDir, 'jetstream');
  mkdirSync(store);
  const passwords = Object.fromEntries(NATS_USERS.map((u) => [`NATS_PASSWORD_${u.toUpperCase().replace(/-/g, '_')}`, natsPasswords[u]]));
  const conf = join(root, 'k8s/base/nats.conf');
  const p = spawnLogged('nats-server', 'nats-server', ['-c', conf, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store, '-m', String(await freePort())], { PATH: process.env.PATH, ...passwords });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (p.exited) throw new Error(`nats-server exited: ${readFileSync(p.file, 'utf8')}`);
    const ok = await new Promise((resolve) => {
      const s = createServer().listen(port, '127.0.0.1');
      s.once('listening', () => s.close(() => resolve(false)));
      s.once('error', () => resolve(true)); // in use: the server listens
    });
    if (ok) return `nats://127.0.0.1:${port}`;
    await sleep(100);
  }
  throw new Error('nats-server did not start');
}

async function startService(name, port, env, redisUrl) {
  const profile = (process.env.BENCH_PROFILE ?? '').split(',').includes(name) ? ['--cpu-prof', `--cpu-prof-dir=${join(logDir, 'prof')}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
  const p = spawnLogged(name, process.execPath, [...profile, join(root, 'services', name, 'dist/main.js')], {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    JWT_SECRET,
    REDIS_URL: redisUrl,
    ...natsCredentials(name),
    CONNECTION_TOKEN_KEY: JWT_SECRET,
    ...env,
    // BENCH_ENV_<NAME>=value sets <NAME> for every service (to try a setting)
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_ENV_')).map(([k, v]) => [k.slice('BENCH_ENV_'.length), v])),
  });
  p.url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (p.exited) throw new Error(`${name} exited during start (${p.exit}); log:\n${readFileSync(p.file, 'utf8').slice(-4000)}`);
    const res = await fetch(`${p.url}/health`, { signal: AbortSignal.timeout(1000) }).catch(() => undefined);
    if (res?.status === 200) return p;
    await sleep(150);
  }
  throw new Error(`${name} not healthy after 60 s; log: ${p.file}`);
}

/** SIGTERM to the services, then to nats-server once they are gone; SIGKILL after 25 s. */
async function stopAll() {
  const infra = (c) => c.name === 'nats-server' || c.name === 'redis-server';
  for (const group of [children.filter((c) => !infra(c)), children.filter(infra)]) {
    const live = group.filter((c) => !c.exited);
    for (const c of live) c.child.kill('SIGTERM');
    const deadline = Date.now() + 25_000;
    while (live.some((c) => !c.exited) && Date.now() < deadline) await sleep(100);
    for (const c of live) if (!c.exited) c.child.kill('SIGKILL');
  }
}

// ------------------------------------------------------------------ HTTP

const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, 64), maxFreeSockets: Math.max(CONCURRENCY, 64) });

/** POST/GET with JSON through the keep-alive agent; resolves { status, body }. */
function request(base, method, path, { token, body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const u = new URL(path, base);
    const req = http.request(
      {
        agent,
        host: u.hostname,
        port: u.port,
        method,
        path: u.pathname + u.search,
        headers: {
          ...(data ? { 'content-type': 'application/json', 'content-length': data.length } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

// ------------------------------------------------------------------ setup

async function recreateDatabase() {
  const admin = new pg.Client({ connectionString: `${PG_URL}/postgres` });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [DB_NAME]);
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME}`);
    await admin.query(`CREATE DATABASE ${DB_NAME}`);
  } finally {
    await admin.end();
  }
  const url = `${PG_URL}/${DB_NAME}`;
  for (const svc of ['auth', 'tickets', 'whatsapp-sessions']) {
    const res = spawnSync(process.execPath, [join(root, 'services', svc, 'dist/migrate.js')], {
      cwd: root,
      env: { PATH: process.env.PATH, DATABASE_URL: url, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(`migrations of ${svc} failed:\n${res.stdout}\n${res.stderr}`);
  }
  return url;
}

async function createCompany(dbUrl) {
  const { createDataSource } = await import('../../libs/database/dist/index.js');
  const { authDatabase } = await import('../../services/auth/dist/database/data-source.js');
  const { createCompanyWithAdmin, ensureFullPlan, isoDateFromNow } = await import('../../services/auth/dist/database/companies.js');
  const admin = { name: 'Bench Admin', email: `bench-${randomBytes(4).toString('hex')}@bench.local`, password: 'bench-secret-123' };
  const ds = createDataSource(authDatabase(dbUrl, 1));
  await ds.initialize();
  try {
    await ds.transaction(async (tx) => {
      const plan = await ensureFullPlan(tx);
      await createCompanyWithAdmin(tx, { name: 'Bench Co', dueDate: isoDateFromNow(30), planId: plan.id, admin });
    });
  } finally {
    await ds.destroy();
  }
  return admin;
}

function ensureBuilt() {
  const needed = [
    ...['auth', 'tickets', 'whatsapp-sessions', 'realtime-gateway', 'messaging-gateway'].map((s) => `services/${s}/dist/main.js`),
    ...['auth', 'tickets', 'whatsapp-sessions'].map((s) => `services/${s}/dist/migrate.js`),
    'libs/database/dist/index.js',
    'libs/auth/dist/index.js',
    'libs/event-bus/dist/index.js',
  ];
  if (needed.every((f) => existsSync(join(root, f)))) return;
  log('building the services (dist missing)…');
  const res = spawnSync(join(root, 'node_modules/.bin/nx'), ['run-many', '-t', 'build', '--projects=tag:scope:service'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('build failed');
}

// ------------------------------------------------------------------ main

async function main() {
  ensureBuilt();
  const load0 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  log(`logs in ${logDir}`);

  const dbUrl = await recreateDatabase();
  const adminUser = await createCompany(dbUrl);
  const natsUrl = await startNats();
  const redisUrl = await startRedis();

  const ports = {};
  for (const s of ['auth', 'tickets', 'whatsapp-sessions', 'realtime-gateway', 'messaging-gateway']) ports[s] = await freePort();
  const base = { DATABASE_URL: dbUrl, NATS_URL: natsUrl };
  const [auth, tickets, sessions] = await Promise.all([
    startService('auth', ports.auth, base, redisUrl),
    startService('tickets', ports.tickets, base, redisUrl),
    startService('whatsapp-sessions', ports['whatsapp-sessions'], base, redisUrl),
  ]);
  const realtime = await startService('realtime-gateway', ports['realtime-gateway'], {
    NATS_URL: natsUrl,
    TICKETS_URL: tickets.url,
    // a durable of its own on a shared server; on the bench's own server, the shipped one (nats.conf allows only it)
    ...(NATS_URL_GIVEN ? { REALTIME_DURABLE: `bench-inbound-${randomBytes(3).toString('hex')}` } : {}),
  }, redisUrl);
  const gateway = await startService('messaging-gateway', ports['messaging-gateway'], {
    NATS_URL: natsUrl,
    AUTH_URL: auth.url,
    TICKETS_URL: tickets.url,
    WHATSAPP_SESSIONS_URL: sessions.url,
    REALTIME_URL: realtime.url,
  }, redisUrl);
  const services = [auth, tickets, sessions, realtime, gateway];

  // login, queue, sandbox connection: through the gateway, as the app does
  const xff = { 'x-forwarded-for': `10.${1 + (process.pid % 200)}.${(Date.now() >> 8) % 250}.7` };
  const login = await request(gateway.url, 'POST', '/auth/login', { body: { email: adminUser.email, password: adminUser.password }, headers: xff });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  let token = login.body.token;
  const companyId = login.body.user.companyId;
  // access tokens live 15 min and a long run outlasts that: the same claims (same session) signed again every 10 min
  const { signAccessToken } = await import('../../libs/auth/dist/index.js');
  const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
  const renewer = setInterval(() => {
    token = signAccessToken({ id: claims.id, companyId: claims.companyId, profile: claims.profile, super: claims.super, sid: claims.sid }, JWT_SECRET);
  }, 10 * 60_000);
  renewer.unref();
  const queue = await request(gateway.url, 'POST', '/queue', { token, body: { name: 'Atendimento', color: '#123456' } });
  if (queue.status !== 201) throw new Error(`queue: ${queue.status} ${JSON.stringify(queue.body)}`);
  const conn = await request(gateway.url, 'POST', '/whatsapp', {
    token,
    body: { name: 'Sandbox bench', channel: 'sandbox', queueIds: [queue.body.id], isDefault: true },
  });
  if (conn.status !== 201) throw new Error(`connection: ${conn.status} ${JSON.stringify(conn.body)}`);
  const connectionId = conn.body.id;
  for (let attempt = 1; ; attempt++) {
    const started = await request(gateway.url, 'POST', `/whatsappsession/${connectionId}`, { token });
    if (started.status < 300) break;
    // 503: the session is being placed (the connection's creation may be starting it right now)
    if (started.status !== 503 || attempt >= 5) throw new Error(`session start: ${started.status} ${JSON.stringify(started.body)}`);
    await sleep(500 * attempt);
  }
  for (let i = 0; ; i++) {
    const c = await request(gateway.url, 'GET', `/whatsapp/${connectionId}`, { token });
    if (c.body?.status === 'CONNECTED') break;
    if (i > 100) throw new Error(`sandbox connection not CONNECTED: ${JSON.stringify(c.body)}`);
    await sleep(100);
  }

  // the admin's socket, through the gateway
  const socket = io(gateway.url, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  let disconnected = null;
  socket.on('disconnect', (reason) => (disconnected = reason));
  let creates = 0;
  let ticketEvents = 0;
  let lastCreateAt = 0;
  const waiting = new Map(); // phase 2: body -> inject start time
  const latencies = [];
  socket.on(`company-${companyId}-appMessage`, (p) => {
    if (p?.action !== 'create') return;
    creates++;
    lastCreateAt = now();
    const t0 = waiting.get(p.message?.body);
    if (t0 !== undefined) {
      latencies.push(lastCreateAt - t0);
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
    bus = await EventBus.connect({ servers: natsUrl, name: 'bench-inbound', user: 'operator', pass: natsPasswords.operator, logger: { info() {}, warn: (o, m) => log(`bus: ${m}`), error: (o, m) => log(`bus: ${m}`) } });
  }
  /** What whatsapp-sessions publishes for a sandbox message (toInboundMessage of its Baileys-shaped upsert). */
  const publishInbound = async (from, body, id) => {
    const waMessageId = `3EB0${id}`;
    const payload = { companyId, connectionId, waMessageId, from, fromName: `Cliente ${from.slice(-4)}`, body, mediaType: 'chat', fromMe: false, isGroup: false, timestamp: Date.now(), quotedWaMessageId: null };
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
          status = (await request(injectBase, 'POST', `${inboundPath}/batch`, { token, body: { messages: list.map(sandboxMessage) } })).status;
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
  const stored = async () => (await pool.query('SELECT count(*)::int AS n FROM tickets.messages WHERE "companyId" = $1', [companyId])).rows[0].n;

  // ---- warm-up: JIT, pools, the queue's first tickets (contacts of its own) --------------------
  log(`warm-up: ${WARMUP} messages`);
  await Promise.all(Array.from({ length: 16 }, async (_, w) => {
    for (let i = w; i < WARMUP; i += 16) await inject(`5521${String(900_000_000 + (i % 50))}`, `warm-${i}`, `warm${i}`);
  }));
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
  log(`phase 1: ${fmt(N)} messages from ${fmt(M)} contacts, ${BATCH} a call, ${CONCURRENCY} calls in flight, via ${VIA}`);
  let next = 0;
  let storedDoneAt = 0;
  let storedCount = 0;
  const t0 = now();
  // the poll runs beside the injection, so the stored rate is measured from the first request
  let injectedAt = 0;
  const poll = (async () => {
    // until all are stored, or 120 s after the last 202 (the injection itself may take long)
    while (!injectedAt || now() < injectedAt + 120_000) {
      storedCount = (await stored()) - storedBase;
      if (storedCount >= N) {
        storedDoneAt = now();
        return;
      }
      await sleep(100);
    }
  })();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < N) {
      const first = next;
      next = Math.min(N, next + BATCH);
      const list = [];
      for (let i = first; i < next; i++) list.push({ from: contact(i % M), body: `p1-${i}`, id: `p1x${i}` });
      await injectMany(list);
    }
  }));
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

  // ---- figures --------------------------------------------------------------------------------
  const injectSecs = (injectedAt - t0) / 1000;
  const storedSecs = storedDoneAt ? (storedDoneAt - t0) / 1000 : NaN;
  const fanSecs = (fanDoneAt - t0) / 1000;
  const lat = latencies.sort((a, b) => a - b);
  const inj = injectTimes.sort((a, b) => a - b);
  const finalStored = (await stored()) - storedBase;
  const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  out(`inbound benchmark: N=${N} messages from M=${M} contacts, phase 1 ${BATCH} a sandbox call with ${CONCURRENCY} calls in flight, injected via ${{ gateway: 'messaging-gateway', sessions: 'whatsapp-sessions directly', bus: 'JetStream directly (DIAGNOSTIC: no HTTP, no whatsapp-sessions)' }[VIA]}, NATS ${NATS_URL_GIVEN || 'private nats-server'}, Redis ${REDIS_URL_GIVEN || 'private redis-server'}`);
  out(`load average before / after          : ${load0} / ${load1}`);
  out(`injected (202 or JetStream ack)      : ${fmt(N)} in ${fmt(injectSecs, 2)} s = ${fmt(N / injectSecs)} msg/s`);
  out(`stored (tickets.messages rows)       : ${fmt(Math.min(storedCount, N))} in ${fmt(storedSecs, 2)} s = ${storedDoneAt ? fmt(N / storedSecs) : 'n/a (not all stored)'} msg/s (target >= 3,000)`);
  out(`fanned out (appMessage create, admin): ${fmt(fanned)} in ${fmt(fanSecs, 2)} s = ${Number.isNaN(fanDoneAt) ? 'n/a (not all delivered)' : fmt(N / fanSecs)} msg/s (target >= 3,000)`);
  out(`ticket events on the admin socket    : ${fmt(ticketEvents - ticketBase)} during phase 1`);
  out(`rows check                           : ${fmt(finalStored)} stored for phase 1+2, expected ${fmt(N + total - p2Failures.length)} -> ${finalStored === N + total - p2Failures.length ? 'OK' : 'MISMATCH'}`);
  out(`inject retries / failures            : ${[...failures].map(([k, v]) => `${k}×${v}`).join(', ') || 'none'}${p2Failures.length ? `; phase 2 failed: ${p2Failures.length}` : ''}`);
  out(
    `CPU seconds in phase 1 (${fmt(phase1Secs, 1)} s wall): ` +
      services.map((s) => `${s.name} ${fmt(cpu1[s.name] - cpu0[s.name], 1)}`).join(', ') +
      `, this client ${fmt((selfCpu.user + selfCpu.system) / 1e6, 1)}` +
      `${NATS_URL_GIVEN ? '' : `, nats-server ${fmt(natsCpu, 1)}`}, postgres (all backends) ${fmt(pgCpu, 1)}`,
  );
  out(`machine CPU busy (2 cores = 100%)    : phase 1 ${fmt(busyPercent(machine0, machine1))}%, phase 2 ${fmt(busyPercent(machine2, machine3))}%`);
  out(`steady phase                         : ${fmt(total)} messages offered at ${RATE}/s over ${fmt(sentSecs, 1)} s (${P2_TICK_MS > 0 ? `what is due every ${P2_TICK_MS} ms in one call` : "one call per message"}), ${fmt(lat.length)} seen on the socket, ${fmt(lost)} not seen`);
  out(`CPU seconds in phase 2             : ${services.map((s) => `${s.name} ${fmt(cpu3[s.name] - cpu2[s.name], 1)}`).join(', ')}, this client ${fmt((selfCpu3.user + selfCpu3.system) / 1e6, 1)}, nats-server ${fmt(nats3 - nats2, 1)}, postgres ${fmt(pg3 - pg2, 1)}`);
  out(`inject -> appMessage on socket  p50  : ${fmt(percentile(lat, 50), 2)} ms (target <= 10)`);
  out(`inject -> appMessage on socket  p99  : ${fmt(percentile(lat, 99), 2)} ms (target <= 50)`);
  out(`inject -> appMessage on socket  p90 / max: ${fmt(percentile(lat, 90), 2)} / ${fmt(lat[lat.length - 1], 2)} ms`);
  out(`inject call (202) duration  p50 / p99: ${fmt(percentile(inj, 50), 2)} / ${fmt(percentile(inj, 99), 2)} ms`);
  if (disconnected) out(`warning: the admin socket disconnected (${disconnected})`);

  socket.close();
  await bus?.close();
  await pool.end();
  agent.destroy();
}

let code = 0;
try {
  await main();
} catch (err) {
  code = 1;
  console.error(err);
  for (const c of children) if (c.exited) log(`${c.name} exited (${c.exit}); log: ${c.file}`);
} finally {
  await stopAll();
  const dead = children.filter((c) => c.exit !== 'SIGTERM' && c.exit !== 0 && c.exit !== null && !(c.name === 'nats-server' && c.exit === 1));
  for (const c of dead) log(`${c.name} ended with ${c.exit}; log: ${c.file}`);
  // warnings and errors of the services, so a run with trouble says so
  for (const c of children) {
    if (!existsSync(c.file)) continue;
    const lines = readFileSync(c.file, 'utf8').split('\n').filter((l) => /"level":(4|5|6)0|"level":"(warn|error|fatal)"/.test(l));
    if (lines.length) log(`${c.name}: ${lines.length} warning/error lines, e.g. ${lines[0].slice(0, 300)}`);
  }
  if (code === 0 && !process.env.BENCH_KEEP_LOGS) rmSync(logDir, { recursive: true, force: true });
  else log(`logs kept in ${logDir}`);
}
process.exit(code);
