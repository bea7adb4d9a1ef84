// The whole product as processes for a benchmark: a fresh database with every schema migrated, a company
// with its admin, private NATS (the shipped nats.conf, one user per service) and Redis servers, the five
// services as built (node services/<name>/dist/main.js, NODE_ENV=production), and a sandbox connection
// with an admin socket through the gateway. Used by bench/inbound and bench/media.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from 'nats';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort } from '../../scripts/lib/free-port.mjs';
import { serviceNodeOptions } from '../../scripts/lib/service-runtime.mjs';
import { io } from 'socket.io-client';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const fmt = (x, d = 0) => Number(x).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export { freePort };

/** POST/GET with JSON through a keep-alive agent; resolves { status, body, headers }. */
export function jsonRequest(agent, base, method, path, { token, body, headers = {} } = {}) {
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
          resolve({ status: res.statusCode, body: parsed, headers: res.headers });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

/** Builds the services when their dist is missing. */
export function ensureBuilt(log) {
  const needed = [
    ...['auth', 'tickets', 'whatsapp-sessions', 'realtime-gateway', 'messaging-gateway', 'campaigns'].map(
      (s) => `services/${s}/dist/main.js`,
    ),
    ...['auth', 'tickets', 'whatsapp-sessions', 'campaigns'].map((s) => `services/${s}/dist/migrate.js`),
    'libs/database/dist/index.js',
    'libs/auth/dist/index.js',
    'libs/event-bus/dist/index.js',
  ];
  if (needed.every((f) => existsSync(join(root, f)))) return;
  log('building the services (dist missing)…');
  const res = spawnSync(join(root, 'node_modules/.bin/nx'), ['run-many', '-t', 'build', '--projects=tag:scope:service'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (res.status !== 0) throw new Error('build failed');
}

/** Drops and creates `db`, then runs the migrations of every service with tables. */
export async function recreateDatabase(pgUrl, db) {
  const admin = new pg.Client({ connectionString: `${pgUrl}/postgres` });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [db]);
    await admin.query(`DROP DATABASE IF EXISTS ${db}`);
    await admin.query(`CREATE DATABASE ${db}`);
  } finally {
    await admin.end();
  }
  const url = `${pgUrl}/${db}`;
  for (const svc of ['auth', 'tickets', 'whatsapp-sessions', 'billing', 'campaigns']) {
    const res = spawnSync(process.execPath, [join(root, 'services', svc, 'dist/migrate.js')], {
      cwd: root,
      env: { PATH: process.env.PATH, DATABASE_URL: url, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(`migrations of ${svc} failed:\n${res.stdout}\n${res.stderr}`);
  }
  return url;
}

/** A company on the full plan with its admin (email and password answered). */
export async function createCompany(dbUrl) {
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

/**
 * One benchmark run's processes: each logs to a file of the run's directory; `finish` stops them
 * (services first, then NATS and Redis), says which ended badly or logged warnings, and removes the logs
 * of a good run (BENCH_KEEP_LOGS keeps them).
 */
export function benchRun(name, log) {
  const logDir = mkdtempSync(join(tmpdir(), `wa-bench-${name}-`));
  const children = [];
  const jwtSecret = `bench-${name}-${randomBytes(12).toString('hex')}`;
  const NATS_USERS = ['auth', 'tickets', 'whatsapp-sessions', 'realtime-gateway', 'messaging-gateway', 'campaigns', 'billing', 'operator'];
  const natsPasswords = Object.fromEntries(NATS_USERS.map((u) => [u, `n${randomBytes(24).toString('hex')}`]));
  const natsCredentials = (user) => ({ NATS_USER: user, NATS_PASSWORD: natsPasswords[user] });

  function spawnLogged(procName, cmd, args, env) {
    const file = join(logDir, `${procName}.log`);
    const stream = createWriteStream(file);
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(stream, { end: false });
    child.stderr.pipe(stream, { end: false });
    const proc = { name: procName, child, file, exited: false };
    child.on('exit', (code, signal) => {
      proc.exited = true;
      proc.exit = signal ?? code;
    });
    children.push(proc);
    return proc;
  }

  /** A private redis-server (its db 4), unless `given`. */
  async function startRedis(given) {
    if (given) return given;
    const port = await freePort();
    const p = spawnLogged(
      'redis-server',
      'redis-server',
      ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', logDir],
      { PATH: process.env.PATH },
    );
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (p.exited) throw new Error(`redis-server exited: ${readFileSync(p.file, 'utf8')}`);
      const redis = new Redis(`redis://127.0.0.1:${port}/4`, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      redis.on('error', () => undefined);
      const ok = await redis.connect().then(
        () => redis.ping(),
        () => null,
      );
      redis.disconnect();
      if (ok === 'PONG') return `redis://127.0.0.1:${port}/4`;
      await sleep(100);
    }
    throw new Error('redis-server did not start');
  }

  /** A private nats-server with the shipped configuration (k8s/base/nats.conf), unless `given` (taken as an open server). */
  async function startNats(given) {
    if (given) return given;
    const port = await freePort();
    const store = join(logDir, 'jetstream');
    mkdirSync(store);
    const passwords = Object.fromEntries(NATS_USERS.map((u) => [`NATS_PASSWORD_${u.toUpperCase().replace(/-/g, '_')}`, natsPasswords[u]]));
    const p = spawnLogged(
      'nats-server',
      'nats-server',
      ['-c', join(root, 'k8s/base/nats.conf'), '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store, '-m', String(await freePort())],
      { PATH: process.env.PATH, ...passwords },
    );
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (p.exited) throw new Error(`nats-server exited: ${readFileSync(p.file, 'utf8')}`);
      const listening = await new Promise((resolve) => {
        const s = createServer().listen(port, '127.0.0.1');
        s.once('listening', () => s.close(() => resolve(false)));
        s.once('error', () => resolve(true)); // in use: the server listens
      });
      if (listening) return `nats://127.0.0.1:${port}`;
      await sleep(100);
    }
    throw new Error('nats-server did not start');
  }

  /**
   * A built service as in production; BENCH_PROFILE=<name> writes its CPU profile, BENCH_ENV_<NAME>=v sets <NAME> for every
   * service, BENCH_NODE_FLAGS (space-separated, e.g. `--trace-gc`) are given to every service's node.
   */
  async function startService(svc, port, env, redisUrl) {
    const profile = (process.env.BENCH_PROFILE ?? '').split(',').includes(svc)
      ? ['--cpu-prof', `--cpu-prof-dir=${join(logDir, 'prof')}`, `--cpu-prof-name=${svc}.cpuprofile`]
      : [];
    const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    const p = spawnLogged(svc, process.execPath, [...flags, ...profile, join(root, 'services', svc, 'dist/main.js')], {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      NODE_OPTIONS: serviceNodeOptions('', svc),
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      JWT_SECRET: jwtSecret,
      REDIS_URL: redisUrl,
      ...natsCredentials(svc),
      CONNECTION_TOKEN_KEY: jwtSecret,
      TICKETS_SECRETS_KEY: jwtSecret,
      AUTH_SECRETS_KEY: jwtSecret,
      BILLING_WEBHOOK_SECRET: jwtSecret,
      // the customers are the sandbox phone's: in production its channel is refused unless enabled
      SANDBOX_CHANNEL: 'enabled',
      ...env,
      ...Object.fromEntries(
        Object.entries(process.env)
          .filter(([k]) => k.startsWith('BENCH_ENV_'))
          .map(([k, v]) => [k.slice('BENCH_ENV_'.length), v]),
      ),
    });
    p.url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (p.exited) throw new Error(`${svc} exited during start (${p.exit}); log:\n${readFileSync(p.file, 'utf8').slice(-4000)}`);
      const res = await fetch(`${p.url}/health`, { signal: AbortSignal.timeout(1000) }).catch(() => undefined);
      if (res?.status === 200) return p;
      await sleep(150);
    }
    throw new Error(`${svc} not healthy after 60 s; log: ${p.file}`);
  }

  /**
   * auth, tickets, whatsapp-sessions, realtime-gateway and messaging-gateway on `dbUrl`, `natsUrl` and
   * `redisUrl`; `env` goes to every service. `natsGiven`: a shared server (realtime takes a durable of its own).
   */
  async function startProduct({ dbUrl, natsUrl, redisUrl, natsGiven = false, env = {} }) {
    const ports = {};
    for (const s of ['billing', 'auth', 'tickets', 'whatsapp-sessions', 'realtime-gateway', 'messaging-gateway'])
      ports[s] = await freePort();
    const base = { DATABASE_URL: dbUrl, NATS_URL: natsUrl, AUTH_URL: `http://127.0.0.1:${ports.auth}`, ...env };
    // billing owns the plans: auth keeps its copy from billing's stream, which billing creates
    const billing = await startService('billing', ports.billing, base, redisUrl);
    const [auth, tickets, sessions] = await Promise.all([
      startService('auth', ports.auth, base, redisUrl),
      startService('tickets', ports.tickets, base, redisUrl),
      startService('whatsapp-sessions', ports['whatsapp-sessions'], base, redisUrl),
    ]);
    const realtime = await startService(
      'realtime-gateway',
      ports['realtime-gateway'],
      {
        ...env,
        NATS_URL: natsUrl,
        TICKETS_URL: tickets.url,
        ...(natsGiven ? { REALTIME_DURABLE: `bench-${name}-${randomBytes(3).toString('hex')}` } : {}),
      },
      redisUrl,
    );
    const gateway = await startService(
      'messaging-gateway',
      ports['messaging-gateway'],
      {
        ...env,
        NATS_URL: natsUrl,
        AUTH_URL: auth.url,
        TICKETS_URL: tickets.url,
        WHATSAPP_SESSIONS_URL: sessions.url,
        REALTIME_URL: realtime.url,
      },
      redisUrl,
    );
    return { billing, auth, tickets, sessions, realtime, gateway, services: [billing, auth, tickets, sessions, realtime, gateway] };
  }

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

  /** Runs `main`, then stops everything and reports; exits the process with 0 or 1. */
  async function run(main) {
    let code = 0;
    try {
      await main();
    } catch (err) {
      code = 1;
      console.error(err);
      for (const c of children) if (c.exited) log(`${c.name} exited (${c.exit}); log: ${c.file}`);
    } finally {
      await stopAll();
      const dead = children.filter(
        (c) => c.exit !== 'SIGTERM' && c.exit !== 0 && c.exit !== null && !(c.name === 'nats-server' && c.exit === 1),
      );
      for (const c of dead) log(`${c.name} ended with ${c.exit}; log: ${c.file}`);
      // warnings and errors of the services, so a run with trouble says so
      for (const c of children) {
        if (!existsSync(c.file)) continue;
        const lines = readFileSync(c.file, 'utf8')
          .split('\n')
          .filter((l) => /"level":(4|5|6)0|"level":"(warn|error|fatal)"/.test(l));
        if (lines.length) log(`${c.name}: ${lines.length} warning/error lines, e.g. ${lines[0].slice(0, 300)}`);
      }
      if (code === 0 && !process.env.BENCH_KEEP_LOGS) rmSync(logDir, { recursive: true, force: true });
      else log(`logs kept in ${logDir}`);
    }
    process.exit(code);
  }

  return { logDir, children, jwtSecret, natsPasswords, startRedis, startNats, startProduct, startService, run };
}

/**
 * Through the gateway, as the app does: signs the admin in, creates a queue and a sandbox connection
 * (default, with that queue), waits until it is CONNECTED, and connects the admin's socket.
 * `token()` is renewed every 10 min (a long run outlasts an access token).
 */
export async function sandboxCompany({ request, gatewayUrl, adminUser, jwtSecret }) {
  const xff = { 'x-forwarded-for': `10.${1 + (process.pid % 200)}.${(Date.now() >> 8) % 250}.7` };
  const login = await request(gatewayUrl, 'POST', '/auth/login', {
    body: { email: adminUser.email, password: adminUser.password },
    headers: xff,
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  let token = login.body.token;
  const companyId = login.body.user.companyId;
  const { signAccessToken } = await import('../../libs/auth/dist/index.js');
  const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
  const renewer = setInterval(() => {
    token = signAccessToken(
      { id: claims.id, companyId: claims.companyId, profile: claims.profile, super: claims.super, sid: claims.sid },
      jwtSecret,
    );
  }, 10 * 60_000);
  renewer.unref();
  const queue = await request(gatewayUrl, 'POST', '/queue', { token, body: { name: 'Atendimento', color: '#123456' } });
  if (queue.status !== 201) throw new Error(`queue: ${queue.status} ${JSON.stringify(queue.body)}`);
  const conn = await request(gatewayUrl, 'POST', '/whatsapp', {
    token,
    body: { name: 'Sandbox bench', channel: 'sandbox', queueIds: [queue.body.id], isDefault: true },
  });
  if (conn.status !== 201) throw new Error(`connection: ${conn.status} ${JSON.stringify(conn.body)}`);
  const connectionId = conn.body.id;
  for (let attempt = 1; ; attempt++) {
    const started = await request(gatewayUrl, 'POST', `/whatsappsession/${connectionId}`, { token });
    if (started.status < 300) break;
    // 503: the session is being placed (the connection's creation may be starting it right now)
    if (started.status !== 503 || attempt >= 5) throw new Error(`session start: ${started.status} ${JSON.stringify(started.body)}`);
    await sleep(500 * attempt);
  }
  for (let i = 0; ; i++) {
    const c = await request(gatewayUrl, 'GET', `/whatsapp/${connectionId}`, { token });
    if (c.body?.status === 'CONNECTED') break;
    if (i > 100) throw new Error(`sandbox connection not CONNECTED: ${JSON.stringify(c.body)}`);
    await sleep(100);
  }
  const socket = io(gatewayUrl, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { token: () => token, companyId, connectionId, queueId: queue.body.id, socket };
}

/**
 * Each JetStream stream's last sequence (how many messages it has ever stored), by name; with `byKind`, also how many
 * messages each kind of subject (its first two tokens, e.g. `message.created`, `wa.inbound`) holds now, by `kind`.
 */
export async function streamSeqs(natsUrl, password, { byKind = false } = {}) {
  const nc = await connect({ servers: natsUrl, user: 'operator', pass: password, name: 'bench-streams' });
  try {
    const jsm = await nc.jetstreamManager();
    const seqs = new Map();
    for await (const info of jsm.streams.list()) {
      seqs.set(info.config.name, info.state.last_seq);
      // what the stream holds now (grows with what is published while nothing ages out)
      seqs.set(`bytes:${info.config.name}`, info.state.bytes);
      if (!byKind) continue;
      const { state } = await jsm.streams.info(info.config.name, { subjects_filter: '>' });
      for (const [subject, n] of Object.entries(state.subjects ?? {})) {
        const kind = subject.split('.').slice(0, 2).join('.');
        seqs.set(`kind:${kind}`, (seqs.get(`kind:${kind}`) ?? 0) + n);
      }
    }
    return seqs;
  } finally {
    await nc.close();
  }
}
