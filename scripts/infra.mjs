#!/usr/bin/env node
// Local infrastructure for `npm start` and `npm test`: PostgreSQL, Redis and
// NATS (with JetStream) on loopback.
//
//   node scripts/infra.mjs            # exit 0 when everything answers, 1 otherwise
//   import { ensureInfra } from './infra.mjs'; await ensureInfra({ quiet: true });
//
// What it does (idempotent; a second run changes nothing):
//   1. checks the three servers in parallel (short timeouts);
//   2. starts a server that is installed but down, installs it from Debian
//      packages first when it is missing (root only) -- only for loopback hosts;
//   3. verifies JetStream by asking the server (account info);
//   4. makes TCP password logins work for DATABASE_URL on a fresh Debian
//      PostgreSQL (only when the login actually fails);
//   5. creates the databases `wa` and `wa_test` and the pg_trgm extension.
//   Before all that, on a machine with none of the servers installed or answering (macOS, another Linux) and
//   Docker (with compose), it starts the three from deploy/infra.compose.yml (INFRA_DOCKER=1: prefer Docker;
//   INFRA_DOCKER=0: never).
//
// Environment:
//   DATABASE_URL        default postgres://postgres:postgres@127.0.0.1:5432/wa
//                       (host/port/user/password are used; the path is ignored)
//   DATABASE_NAME       default wa
//   TEST_DATABASE_NAME  default wa_test
//   REDIS_URL           default redis://127.0.0.1:6379
//   NATS_URL            default nats://127.0.0.1:4222 (first of a comma list)
//   INFRA_NATS_STORE_DIR  JetStream store dir for a nats-server we start
//                       (default /var/lib/nats-server)
//
// Logs go to stderr, prefixed `infra:`. `quiet` keeps only errors and the
// final summary line.

import { spawn } from 'node:child_process';
import {
  accessSync,
  constants as fsConstants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const CHECK_TIMEOUT_MS = 1500;
const START_WAIT_MS = 20_000;
const DEFAULT_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5432/wa';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';
const NATS_BIN = '/usr/sbin/nats-server';
const DEFAULT_NATS_STORE_DIR = '/var/lib/nats-server';
const PG_HBA_MARKER = '# added by scripts/infra.mjs';

// ---------------------------------------------------------------------------
// small helpers

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = () => (isRoot() ? '' : 'sudo ');

function isLoopback(host) {
  const h = String(host || '')
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  return (
    h === 'localhost' ||
    h === 'ip6-localhost' ||
    h === '::1' ||
    h === '0.0.0.0' ||
    h.startsWith('/') || // unix socket directory
    /^127\.\d+\.\d+\.\d+$/.test(h) ||
    /^::ffff:127\./.test(h)
  );
}

function which(cmd) {
  if (cmd.includes('/')) return isExecutable(cmd) ? cmd : null;
  const dirs = [
    ...(process.env.PATH || '').split(':').filter(Boolean),
    '/usr/local/sbin',
    '/usr/local/bin',
    '/usr/sbin',
    '/usr/bin',
    '/sbin',
    '/bin',
  ];
  for (const d of dirs) {
    const p = path.join(d, cmd);
    if (isExecutable(p)) return p;
  }
  return null;
}

function isExecutable(p) {
  try {
    accessSync(p, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isWritableDir(p) {
  try {
    accessSync(p, fsConstants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function tail(text, lines = 15) {
  return String(text || '')
    .trim()
    .split('\n')
    .slice(-lines)
    .join('\n');
}

function shellQuote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${String(arg).replace(/'/g, `'\\''`)}'`;
}
const cmdline = (cmd, args) => [cmd, ...args].map(shellQuote).join(' ');

/** Run a command, capture output. Resolves { code, out } (never rejects). */
function run(cmd, args, { timeoutMs = 60_000, env, input, cwd } = {}) {
  return new Promise((resolve) => {
    let out = '';
    let done = false;
    let timer;
    let child;
    const finish = (code) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // A daemon may keep our pipes open: do not wait for it.
      child?.stdout?.destroy();
      child?.stderr?.destroy();
      resolve({ code, out: out.trim() });
    };
    try {
      child = spawn(cmd, args, {
        cwd: cwd || '/',
        env: env || process.env,
        stdio: [input != null ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      });
    } catch (e) {
      resolve({ code: -1, out: e.message });
      return;
    }
    const collect = (d) => {
      out += d;
      if (out.length > 64_000) out = out.slice(-32_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (e) => {
      out += `\n${e.message}`;
      finish(-1);
    });
    child.on('close', (code) => finish(code ?? -1));
    child.on('exit', (code) => setTimeout(() => finish(code ?? -1), 300));
    timer = setTimeout(() => {
      out += `\n(timed out after ${Math.round(timeoutMs / 1000)} s)`;
      try {
        child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
      finish(-1);
    }, timeoutMs);
    if (input != null) {
      child.stdin.on('error', () => {});
      child.stdin.end(input);
    }
  });
}

/** Plain TCP connect: tells "nothing listens" apart from protocol problems. */
function tcpProbe(host, port, timeoutMs = CHECK_TIMEOUT_MS) {
  return new Promise((resolve) => {
    let timer;
    const sock = net.connect({ host: host.replace(/^\[|\]$/g, ''), port });
    const done = (ok, reason) => {
      clearTimeout(timer);
      sock.destroy();
      resolve({ ok, reason });
    };
    timer = setTimeout(() => done(false, 'timeout'), timeoutMs);
    sock.once('connect', () => done(true));
    sock.once('error', (e) => done(false, e.code || e.message));
  });
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function waitUntil(fn, timeoutMs = START_WAIT_MS, intervalMs = 250) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await fn();
    if (r.ready || Date.now() >= end) return r;
    await sleep(intervalMs);
  }
}

let modsPromise;
function loadMods() {
  modsPromise ??= Promise.all([import('pg'), import('ioredis'), import('nats')]).then(([pg, ioredis, nats]) => ({
    pg: pg.default ?? pg,
    Redis: ioredis.default ?? ioredis.Redis,
    nats: typeof nats.connect === 'function' ? nats : nats.default,
  }));
  return modsPromise;
}

// ---------------------------------------------------------------------------
// configuration

function loadConfig(env = process.env) {
  const dbUrl = new URL(env.DATABASE_URL || DEFAULT_DATABASE_URL);
  const pgHost = dbUrl.hostname || dbUrl.searchParams.get('host') || 'localhost';
  const pg = {
    url: dbUrl,
    host: pgHost.replace(/^\[|\]$/g, ''),
    port: Number(dbUrl.port || dbUrl.searchParams.get('port')) || 5432,
    user: decodeURIComponent(dbUrl.username || '') || env.PGUSER || 'postgres',
    password: dbUrl.password ? decodeURIComponent(dbUrl.password) : undefined,
    databases: [...new Set([env.DATABASE_NAME || 'wa', env.TEST_DATABASE_NAME || 'wa_test'])],
  };
  pg.loopback = isLoopback(pg.host);
  pg.socket = pg.host.startsWith('/');

  const rUrl = new URL(env.REDIS_URL || DEFAULT_REDIS_URL);
  const redis = {
    url: rUrl.toString(),
    host: (rUrl.hostname || '127.0.0.1').replace(/^\[|\]$/g, ''),
    port: Number(rUrl.port) || 6379,
  };
  redis.loopback = isLoopback(redis.host);

  let natsRaw = (env.NATS_URL || DEFAULT_NATS_URL).split(',')[0].trim();
  if (!/^[a-z]+:\/\//i.test(natsRaw)) natsRaw = `nats://${natsRaw}`;
  const nUrl = new URL(natsRaw);
  const nats = {
    host: (nUrl.hostname || '127.0.0.1').replace(/^\[|\]$/g, ''),
    port: Number(nUrl.port) || 4222,
    auth: {},
    storeDir: env.INFRA_NATS_STORE_DIR || DEFAULT_NATS_STORE_DIR,
  };
  if (nUrl.username && nUrl.password) {
    nats.auth = { user: decodeURIComponent(nUrl.username), pass: decodeURIComponent(nUrl.password) };
  } else if (nUrl.username) {
    nats.auth = { token: decodeURIComponent(nUrl.username) };
  }
  nats.server = `${nats.host.includes(':') ? `[${nats.host}]` : nats.host}:${nats.port}`;
  nats.loopback = isLoopback(nats.host);
  return { pg, redis, nats };
}

function pgUrlFor(pgCfg, database) {
  const u = new URL(pgCfg.url.toString());
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

// ---------------------------------------------------------------------------
// apt (serialised: dpkg takes a lock)

function makeApt(log) {
  let chain = Promise.resolve();
  let updated = null;
  return function aptInstall(pkg) {
    const fix = `${sudo()}apt-get update && ${sudo()}env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${pkg}`;
    const job = chain.then(async () => {
      if (!isRoot()) return { ok: false, error: `${pkg} is not installed; run: ${fix}` };
      if (!which('apt-get')) return { ok: false, error: `${pkg} is not installed and apt-get is not available; install ${pkg} by hand` };
      if (!updated) {
        log.info('running apt-get update');
        updated = run('apt-get', ['update'], { timeoutMs: 300_000 });
      }
      const u = await updated;
      if (u.code !== 0) return { ok: false, error: `apt-get update failed:\n${tail(u.out)}\nfix the apt sources, then run: ${fix}` };
      log.info(`installing ${pkg}: apt-get install -y --no-install-recommends ${pkg} (may take a minute)`);
      const r = await run('apt-get', ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=300', pkg], {
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        timeoutMs: 900_000,
      });
      if (r.code !== 0) return { ok: false, error: `apt-get install ${pkg} failed:\n${tail(r.out)}\nrun: ${fix}` };
      log.info(`installed ${pkg}`);
      return { ok: true };
    });
    chain = job.catch(() => {});
    return job;
  };
}

// ---------------------------------------------------------------------------
// PostgreSQL

function classifyPgError(e) {
  const code = e?.code;
  const msg = e?.message || String(e);
  if (code === '57P03' || /starting up|shutting down|recovery/i.test(msg)) return 'starting';
  if (code === '28P01' || code === '28000' || /password|authentication|pg_hba|SASL/i.test(msg)) return 'auth';
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOENT'].includes(code) || /timeout|terminated|ECONNREFUSED/i.test(msg))
    return 'down';
  return 'error';
}

async function pgTry(ctx, database = 'postgres', timeoutMs = CHECK_TIMEOUT_MS) {
  const { pg } = await loadMods();
  const client = new pg.Client({
    connectionString: pgUrlFor(ctx.cfg.pg, database),
    connectionTimeoutMillis: timeoutMs,
  });
  client.on('error', () => {});
  try {
    await withTimeout(client.connect(), timeoutMs + 500, 'postgres connect');
    await withTimeout(client.query('SELECT 1'), timeoutMs, 'postgres query');
    return { ready: true, ok: true };
  } catch (e) {
    const kind = classifyPgError(e);
    // "answers" = the server is there, even if we cannot log in
    return { ready: kind === 'auth' || kind === 'error', ok: false, kind, code: e.code, message: e.message };
  } finally {
    await client.end().catch(() => {});
  }
}

function pgInstalledVersions() {
  try {
    return readdirSync('/usr/lib/postgresql')
      .filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/postgres`))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

function pgClusters() {
  const out = [];
  let versions = [];
  try {
    versions = readdirSync('/etc/postgresql');
  } catch {
    return out;
  }
  for (const version of versions) {
    let names = [];
    try {
      names = readdirSync(`/etc/postgresql/${version}`);
    } catch {
      continue;
    }
    for (const name of names) {
      const conf = `/etc/postgresql/${version}/${name}/postgresql.conf`;
      if (!existsSync(conf)) continue;
      let port = 5432;
      try {
        const m = readFileSync(conf, 'utf8').match(/^\s*port\s*=\s*(\d+)/m);
        if (m) port = Number(m[1]);
      } catch {
        /* unreadable: assume default */
      }
      out.push({ version, name, port });
    }
  }
  return out.sort((a, b) => Number(b.version) - Number(a.version));
}

function pickCluster(port) {
  const clusters = pgClusters();
  return clusters.find((c) => c.port === port) || clusters.find((c) => c.name === 'main') || clusters[0] || null;
}

function pgStartCommand(port) {
  const c = pickCluster(port);
  if (c) return { cluster: c, cmd: 'pg_ctlcluster', args: ['--skip-systemctl-redirect', c.version, c.name, 'start'] };
  const version = pgInstalledVersions()[0] || '<version>';
  return {
    cluster: { version, name: 'main', port },
    cmd: 'pg_createcluster',
    args: ['-p', String(port), version, 'main', '--start'],
  };
}

function cleanPgEnv() {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('PG')) delete env[k];
  return env;
}

async function psqlAsPostgres(port, sql) {
  const psqlArgs = ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-p', String(port), '-d', 'postgres'];
  const runuser = which('runuser');
  const [cmd, args] = runuser
    ? [runuser, ['-u', 'postgres', '--', 'psql', ...psqlArgs]]
    : ['su', ['postgres', '-s', '/bin/sh', '-c', cmdline('psql', psqlArgs)]];
  return run(cmd, args, { input: sql, env: cleanPgEnv(), timeoutMs: 30_000 });
}

const sqlLit = (s) => `'${String(s).replace(/'/g, "''")}'`;
const sqlIdent = (s) => `"${String(s).replace(/"/g, '""')}"`;

/** Fresh Debian PostgreSQL: peer/scram auth, postgres has no password. */
async function fixPgAuth(ctx, first) {
  const { cfg, log } = ctx;
  const { user, password, port, host } = cfg.pg;
  const manual =
    `${sudo()}runuser -u postgres -- psql -p ${port} -c ${shellQuote(`ALTER ROLE ${sqlIdent(user)} WITH LOGIN PASSWORD ${sqlLit(password ?? '<password>')}`)}` +
    ` (and make sure pg_hba.conf has "host all all 127.0.0.1/32 scram-sha-256", then reload)`;
  const fail = (why) => ({
    ok: false,
    error: `postgres at ${host}:${port} refuses login as "${user}" (${first.message})${why ? `; ${why}` : ''}; fix: ${manual}`,
  });

  if (!cfg.pg.loopback || cfg.pg.socket) return fail('not a loopback TCP host, not touching it');
  if (!isRoot()) return fail('not root');
  if (password === undefined) return fail('DATABASE_URL has no password to set');

  log.info(`postgres refuses login as "${user}" (${first.message}); setting its password from DATABASE_URL`);
  const setPw = `DO $infra$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${sqlLit(user)}) THEN
    ALTER ROLE ${sqlIdent(user)} WITH LOGIN PASSWORD ${sqlLit(password)};
  ELSE
    CREATE ROLE ${sqlIdent(user)} WITH LOGIN CREATEDB PASSWORD ${sqlLit(password)};
  END IF;
END $infra$;
SHOW hba_file;
`;
  const r = await psqlAsPostgres(port, setPw);
  if (r.code !== 0) return fail(`psql as postgres failed: ${tail(r.out, 5)}`);
  const hbaFile = r.out
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .pop();

  let t = await pgTry(ctx);
  if (t.ok) {
    log.info(`postgres: password for "${user}" set`);
    return { ok: true, action: 'password set' };
  }
  if (t.kind !== 'auth') return fail(t.message);

  // Still refused: pg_hba.conf has no password line for loopback TCP (or an
  // ident/peer/reject one first). Put scram lines for loopback on top.
  if (!hbaFile || !existsSync(hbaFile)) return fail(`cannot find pg_hba.conf (got "${hbaFile}")`);
  const hba = readFileSync(hbaFile, 'utf8');
  if (!hba.includes(PG_HBA_MARKER)) {
    const lines = hba.split('\n');
    let at = lines.findIndex((l) => l.trim() && !l.trim().startsWith('#'));
    if (at < 0) at = lines.length;
    lines.splice(
      at,
      0,
      `${PG_HBA_MARKER}: password logins over loopback TCP for the app`,
      'host    all             all             127.0.0.1/32            scram-sha-256',
      'host    all             all             ::1/128                 scram-sha-256',
    );
    writeFileSync(hbaFile, lines.join('\n'));
    log.info(`postgres: added loopback scram-sha-256 lines to ${hbaFile}`);
  }
  const rl = await psqlAsPostgres(port, 'SELECT pg_reload_conf();\n');
  if (rl.code !== 0) return fail(`reload failed: ${tail(rl.out, 5)}`);
  await sleep(300);
  t = await pgTry(ctx);
  if (t.ok) return { ok: true, action: 'password + pg_hba set' };
  return fail(t.message);
}

async function ensureDatabases(ctx) {
  const { cfg, log, warnings } = ctx;
  const { pg } = await loadMods();
  const actions = [];
  const admin = new pg.Client({ connectionString: pgUrlFor(cfg.pg, 'postgres'), connectionTimeoutMillis: 5000 });
  admin.on('error', () => {});
  try {
    await admin.connect();
    for (const db of cfg.pg.databases) {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db]);
      if (found.rowCount > 0) continue;
      try {
        await admin.query(`CREATE DATABASE ${sqlIdent(db)}`);
        actions.push(`created ${db}`);
        log.info(`postgres: created database ${db}`);
      } catch (e) {
        // 42P04 duplicate_database / 23505: someone else created it meanwhile
        if (e.code === '42P04' || e.code === '23505') continue;
        const fix = `${sudo()}runuser -u postgres -- createdb -p ${cfg.pg.port} -O ${shellQuote(cfg.pg.user)} ${shellQuote(db)}`;
        throw new Error(`postgres: cannot create database ${db} (${e.message}); run: ${fix}`);
      }
    }
  } finally {
    await admin.end().catch(() => {});
  }

  await Promise.all(
    cfg.pg.databases.map(async (db) => {
      const c = new pg.Client({ connectionString: pgUrlFor(cfg.pg, db), connectionTimeoutMillis: 5000 });
      c.on('error', () => {});
      try {
        await c.connect();
        const have = await c.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`);
        if (have.rowCount > 0) return;
        try {
          await c.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
          log.info(`postgres: created extension pg_trgm in ${db}`);
        } catch (e) {
          if (e.code === '42710' || e.code === '23505') return; // created concurrently
          const w =
            `postgres: could not create extension pg_trgm in ${db} (${e.message}); ignoring. ` +
            `It ships with Debian's postgresql package; as superuser run: CREATE EXTENSION pg_trgm;`;
          warnings.push(w);
          log.error(`warning: ${w}`);
        }
      } finally {
        await c.end().catch(() => {});
      }
    }),
  );
  return actions;
}

async function ensurePostgres(ctx) {
  const { cfg, log, apt } = ctx;
  const { host, port } = cfg.pg;
  const where = `${host}:${port}`;
  const notes = [];

  let up = cfg.pg.socket ? { ok: true } : await tcpProbe(host, port);
  if (!up.ok) {
    if (!cfg.pg.loopback) {
      throw new Error(
        `postgres at ${where} does not answer (${up.reason}); it is not on loopback, so not starting it — check DATABASE_URL`,
      );
    }
    const installed = which('pg_ctlcluster') && pgInstalledVersions().length > 0;
    if (!installed) {
      log.info('postgres is not installed');
      const r = await apt('postgresql');
      if (!r.ok) throw new Error(`postgres: ${r.error}`);
      notes.push('installed');
      up = await tcpProbe(host, port); // the package may have started it
    }
  }
  if (!up.ok) {
    const start = pgStartCommand(port);
    const shown = cmdline(start.cmd, start.args);
    log.info(`postgres down at ${where} (${up.reason}); starting: ${shown}`);
    const r = await run(start.cmd, start.args, { timeoutMs: 60_000 });
    if (r.code !== 0) log.info(`postgres: ${start.cmd} exited ${r.code}: ${tail(r.out, 5)}`);
    const w = await waitUntil(() => pgTry(ctx));
    if (!w.ready) {
      throw new Error(
        `postgres at ${where} still not answering after start (${w.message}).\n` +
          `  start output: ${tail(r.out, 8) || '(none)'}\n` +
          `  fix: ${sudo()}${shown}  (log: /var/log/postgresql/postgresql-${start.cluster.version}-${start.cluster.name}.log)`,
      );
    }
    notes.push('started');
  }

  let t = await pgTry(ctx);
  if (!t.ok && t.kind === 'starting') t = await waitUntil(() => pgTry(ctx).then((x) => ({ ...x, ready: x.ok || x.kind !== 'starting' })));
  if (!t.ok && t.kind === 'auth') {
    const f = await fixPgAuth(ctx, t);
    if (!f.ok) throw new Error(f.error);
    notes.push(f.action);
    t = { ok: true };
  }
  if (!t.ok) throw new Error(`postgres at ${where} answers but a test query failed: ${t.message}`);

  const created = await ensureDatabases(ctx);
  notes.push(...created);
  return notes;
}

// ---------------------------------------------------------------------------
// Redis

async function redisTry(ctx, timeoutMs = CHECK_TIMEOUT_MS) {
  const { Redis } = await loadMods();
  const r = new Redis(ctx.cfg.redis.url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    enableReadyCheck: false,
  });
  r.on('error', () => {});
  try {
    await withTimeout(r.connect(), timeoutMs + 500, 'redis connect');
    const pong = await withTimeout(r.ping(), timeoutMs, 'redis ping');
    return { ready: true, ok: pong === 'PONG', message: `PING answered ${pong}` };
  } catch (e) {
    const msg = e?.message || String(e);
    if (/LOADING/.test(msg)) return { ready: false, ok: false, kind: 'starting', message: msg };
    const down = /ECONNREFUSED|ECONNRESET|timed out|timeout|Connection is closed/i.test(msg);
    return { ready: !down, ok: false, kind: down ? 'down' : 'error', message: msg };
  } finally {
    r.disconnect();
  }
}

/** Redis keeps BullMQ jobs: AOF with an fsync every second, in a directory that outlives the process. */
function redisStartArgs(port) {
  const dir = existsSync('/var/lib/redis')
    ? '/var/lib/redis'
    : path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.run', 'redis');
  mkdirSync(dir, { recursive: true });
  return [
    '--daemonize',
    'yes',
    '--bind',
    '127.0.0.1',
    '-::1',
    '--port',
    String(port),
    '--save',
    '',
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
    '--dir',
    dir,
  ];
}

/** A Redis we did not start may run without persistence: say so (jobs would not survive its restart). */
async function redisPersistenceWarning(ctx) {
  const { Redis } = await loadMods();
  const r = new Redis(ctx.cfg.redis.url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  r.on('error', () => {});
  try {
    await withTimeout(r.connect(), CHECK_TIMEOUT_MS, 'redis connect');
    const [, aof] = await withTimeout(r.config('GET', 'appendonly'), CHECK_TIMEOUT_MS, 'redis config');
    if (aof !== 'yes') {
      return `redis at ${ctx.cfg.redis.host}:${ctx.cfg.redis.port} runs without AOF persistence (appendonly ${aof}): scheduled messages and campaign jobs would be lost if it restarted; run it with --appendonly yes --appendfsync everysec (or: redis-cli CONFIG SET appendonly yes)`;
    }
    return undefined;
  } catch {
    return undefined; // CONFIG may be disabled on a managed Redis: nothing to say
  } finally {
    r.disconnect();
  }
}

async function ensureRedis(ctx) {
  const { cfg, log, apt } = ctx;
  const { host, port } = cfg.redis;
  const where = `${host}:${port}`;
  const notes = [];

  let up = await tcpProbe(host, port);
  if (!up.ok) {
    if (!cfg.redis.loopback) {
      throw new Error(`redis at ${where} does not answer (${up.reason}); it is not on loopback, so not starting it — check REDIS_URL`);
    }
    if (!which('redis-server')) {
      log.info('redis-server is not installed');
      const r = await apt('redis-server');
      if (!r.ok) throw new Error(`redis: ${r.error}`);
      notes.push('installed');
      up = await tcpProbe(host, port); // the package may have started it
    }
  }
  if (!up.ok) {
    const args = redisStartArgs(port);
    const shown = cmdline('redis-server', args);
    log.info(`redis down at ${where} (${up.reason}); starting: ${shown}`);
    const r = await run(which('redis-server') || 'redis-server', args, { timeoutMs: 30_000 });
    if (r.code !== 0) log.info(`redis: redis-server exited ${r.code}: ${tail(r.out, 5)}`);
    const w = await waitUntil(() => redisTry(ctx));
    if (!w.ready) {
      throw new Error(
        `redis at ${where} still not answering after start (${w.message}).\n  start output: ${tail(r.out, 8) || '(none)'}\n  fix: ${sudo()}${shown}`,
      );
    }
    notes.push('started');
  }

  let t = await redisTry(ctx);
  if (!t.ok && t.kind === 'starting')
    t = await waitUntil(() => redisTry(ctx).then((x) => ({ ...x, ready: x.ok || x.kind !== 'starting' })));
  if (!t.ok && t.kind === 'down')
    throw new Error(`redis at ${where} accepts TCP but does not answer PING (${t.message}) — is it really redis? check REDIS_URL`);
  if (!t.ok) throw new Error(`redis at ${where} answers but PING failed: ${t.message} — check REDIS_URL (password?)`);
  const warning = await redisPersistenceWarning(ctx);
  if (warning) {
    log.error(`WARNING ${warning}`);
    notes.push('no AOF persistence');
  }
  return notes;
}

// ---------------------------------------------------------------------------
// NATS + JetStream

async function natsTry(ctx, timeoutMs = CHECK_TIMEOUT_MS) {
  const { nats } = await loadMods();
  const n = ctx.cfg.nats;
  let nc;
  try {
    nc = await nats.connect({
      servers: n.server,
      timeout: timeoutMs,
      reconnect: false,
      maxReconnectAttempts: 0,
      name: 'infra-check',
      ...n.auth,
    });
  } catch (e) {
    const msg = `${e.code ? `${e.code}: ` : ''}${e.message}`;
    const down = /CONNECTION_REFUSED|ECONNREFUSED|TIMEOUT|timed out|ECONNRESET/i.test(msg);
    return { ready: !down, ok: false, kind: down ? 'down' : 'error', message: msg };
  }
  try {
    const jsm = await nc.jetstreamManager({ timeout: timeoutMs });
    const ai = await jsm.getAccountInfo();
    return { ready: true, ok: true, js: true, streams: ai.streams, version: nc.info?.version };
  } catch (e) {
    const off = e.code === '503' || /not enabled|no responders/i.test(e.message);
    return {
      ready: true,
      ok: false,
      kind: off ? 'js-off' : 'js-error',
      message: `${e.code ? `${e.code}: ` : ''}${e.message}`,
      version: nc.info?.version,
    };
  } finally {
    await nc.close().catch(() => {});
  }
}

function natsPaths(cfg) {
  const port = cfg.nats.port;
  const runDir = isWritableDir('/run') ? '/run' : '/tmp';
  const pidFile = `${runDir}/infra-nats-server-${port}.pid`;
  const logFile = isWritableDir('/var/log')
    ? port === 4222
      ? '/var/log/nats-server.log'
      : `/var/log/nats-server-${port}.log`
    : `/tmp/nats-server-${port}.log`;
  return { pidFile, logFile };
}

function natsBin() {
  return isExecutable(NATS_BIN) ? NATS_BIN : which('nats-server');
}

function natsStartCommand(cfg) {
  const { pidFile, logFile } = natsPaths(cfg);
  const bind = cfg.nats.host === 'localhost' || cfg.nats.host === '0.0.0.0' ? '127.0.0.1' : cfg.nats.host;
  const bin = natsBin() || NATS_BIN;
  const args = [
    '--start',
    '--oknodo',
    '--background',
    '--make-pidfile',
    '--pidfile',
    pidFile,
    '--exec',
    bin,
    '--',
    '-a',
    bind,
    '-p',
    String(cfg.nats.port),
    '-js',
    '-sd',
    cfg.nats.storeDir,
    '-l',
    logFile,
  ];
  return { cmd: 'start-stop-daemon', args, pidFile, logFile, bin };
}

/** pid of the nats-server we started earlier (pid file alive and really nats-server). */
function ourNatsPid(cfg) {
  const { pidFile } = natsPaths(cfg);
  try {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (!pid) return null;
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmd.includes('nats-server') ? pid : null;
  } catch {
    return null;
  }
}

/** pid of the nats-server process serving `port` (by its command line), if unambiguous. */
function natsPidForPort(port) {
  const procs = [];
  try {
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').filter(Boolean);
        if (path.basename(argv[0] || '') === 'nats-server') procs.push({ pid: Number(d), argv });
      } catch {
        /* gone */
      }
    }
  } catch {
    return null; // no /proc
  }
  const portOf = (argv) => {
    for (let i = 1; i < argv.length; i++) {
      const m = argv[i].match(/^--?(?:p|port)(?:=(\d+))?$/);
      if (m) return Number(m[1] ?? argv[i + 1]);
    }
    return argv.some((a) => /^--?(c|config)\b/.test(a)) ? null : 4222;
  };
  const matching = procs.filter((p) => portOf(p.argv) === port);
  if (matching.length === 1) return matching[0].pid;
  return procs.length === 1 ? procs[0].pid : null;
}

async function startNats(ctx) {
  const { cfg, log } = ctx;
  const start = natsStartCommand(cfg);
  mkdirSync(cfg.nats.storeDir, { recursive: true });
  const shown = cmdline(start.cmd, start.args);
  log.info(`starting nats-server: ${shown}`);
  const r = await run(which('start-stop-daemon') || 'start-stop-daemon', start.args, { timeoutMs: 30_000 });
  if (r.code !== 0) log.info(`nats: start-stop-daemon exited ${r.code}: ${tail(r.out, 5)}`);
  const w = await waitUntil(() => natsTry(ctx));
  if (!w.ready) {
    throw new Error(
      `nats at ${cfg.nats.server} still not answering after start (${w.message}).\n` +
        `  start output: ${tail(r.out, 8) || '(none)'}\n` +
        `  fix: ${sudo()}mkdir -p ${cfg.nats.storeDir} && ${sudo()}${shown}  (log: ${start.logFile})`,
    );
  }
  return w;
}

async function ensureNats(ctx) {
  const { cfg, log, apt } = ctx;
  const where = cfg.nats.server;
  const notes = [];

  let up = await tcpProbe(cfg.nats.host, cfg.nats.port);
  if (!up.ok) {
    if (!cfg.nats.loopback) {
      throw new Error(`nats at ${where} does not answer (${up.reason}); it is not on loopback, so not starting it — check NATS_URL`);
    }
    if (!natsBin()) {
      log.info('nats-server is not installed');
      const r = await apt('nats-server');
      if (!r.ok) throw new Error(`nats: ${r.error}`);
      notes.push('installed');
      up = await tcpProbe(cfg.nats.host, cfg.nats.port);
    }
  }
  if (!up.ok) {
    log.info(`nats down at ${where} (${up.reason})`);
    await startNats(ctx);
    notes.push('started');
  }

  let t = await natsTry(ctx);
  if (!t.ok && t.kind === 'js-off') {
    const ours = ourNatsPid(cfg);
    if (ours && cfg.nats.loopback) {
      log.info(`nats at ${where} answers but JetStream is off; it is ours (pid ${ours}): restarting it with -js`);
      const { pidFile, bin } = natsStartCommand(cfg);
      await run('start-stop-daemon', ['--stop', '--oknodo', '--pidfile', pidFile, '--exec', bin, '--retry', 'TERM/10/KILL/5'], {
        timeoutMs: 30_000,
      });
      await startNats(ctx);
      notes.push('restarted with -js');
      t = await natsTry(ctx);
    }
  }
  if (!t.ok) {
    const start = natsStartCommand(cfg);
    if (t.kind === 'js-off') {
      let fix;
      if (cfg.nats.loopback) {
        const pid = natsPidForPort(cfg.nats.port);
        const stop = pid ? `${sudo()}kill ${pid}` : `stop the nats-server listening on port ${cfg.nats.port}`;
        fix = `${stop} && ${sudo()}mkdir -p ${cfg.nats.storeDir} && ${sudo()}${cmdline(start.cmd, start.args)}`;
      } else {
        fix = `restart the nats-server at ${where} with JetStream enabled (-js -sd <store dir>)`;
      }
      throw new Error(`nats at ${where} answers (v${t.version || '?'}) but JetStream is NOT enabled; fix: ${fix}`);
    }
    throw new Error(`nats at ${where}: ${t.message} — check NATS_URL`);
  }
  return notes;
}

// ---------------------------------------------------------------------------

/**
 * Make sure PostgreSQL, Redis and NATS+JetStream answer and the product
 * databases exist. Throws an Error (message = what is missing + fix commands).
 * @param {{ quiet?: boolean }} [options]
 */
// ---------------------------------------------------------------------------
// Docker: for a machine without the servers (macOS, a Linux without Debian's packages)

const INFRA_COMPOSE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'deploy', 'infra.compose.yml');

/** Is any of the three servers installed here (its binary), whether or not it runs? */
function anyServerInstalled() {
  return pgInstalledVersions().length > 0 || !!which('redis-server') || !!which('nats-server') || isExecutable(NATS_BIN);
}

/**
 * Docker's compose command when Docker answers (its daemon, not only its client) and has compose: `docker compose`
 * (the plugin) or `docker-compose`; null otherwise.
 */
async function dockerCompose() {
  if (!which('docker')) return null;
  if ((await run('docker', ['info', '--format', '{{.ServerVersion}}'], { timeoutMs: 10_000 })).code !== 0) return null;
  if ((await run('docker', ['compose', 'version'], { timeoutMs: 10_000 })).code === 0) return ['docker', ['compose']];
  if (which('docker-compose') && (await run('docker-compose', ['version'], { timeoutMs: 10_000 })).code === 0)
    return ['docker-compose', []];
  return null;
}

/**
 * Starts the three servers from deploy/infra.compose.yml when none answers and none is installed here (or
 * INFRA_DOCKER=1), Docker being there; INFRA_DOCKER=0 never does. True when it did: the checks that follow then
 * find them up (and create the databases as on any machine). A failure is told and the usual way goes on.
 */
async function startWithDocker(ctx) {
  const { cfg, log } = ctx;
  const wanted = process.env.INFRA_DOCKER;
  if (wanted === '0' || !cfg.pg.loopback || !cfg.redis.loopback || !cfg.nats.loopback) return false;
  if (wanted !== '1') {
    const probes = await Promise.all([
      tcpProbe(cfg.pg.host, cfg.pg.port),
      tcpProbe(cfg.redis.host, cfg.redis.port),
      tcpProbe(cfg.nats.host, cfg.nats.port),
    ]);
    if (probes.some((p) => p.ok) || anyServerInstalled()) return false;
  }
  const compose = await dockerCompose();
  if (!compose) {
    if (wanted === '1') log.error('INFRA_DOCKER=1 but Docker does not answer (or has no compose): the usual way then');
    return false;
  }
  const [cmd, pre] = compose;
  const args = [...pre, '-f', INFRA_COMPOSE, 'up', '-d', '--wait'];
  log.info(`starting PostgreSQL, Redis and NATS in Docker: ${cmdline(cmd, args)}`);
  const r = await run(cmd, args, { timeoutMs: 600_000 });
  if (r.code !== 0) {
    log.error(`${cmdline(cmd, args)} failed:\n${tail(r.out)}\nthe usual way then`);
    return false;
  }
  return true;
}

export async function ensureInfra({ quiet = false } = {}) {
  const t0 = performance.now();
  const log = {
    info: (m) => {
      if (!quiet) process.stderr.write(`infra: ${m}\n`);
    },
    error: (m) => process.stderr.write(`infra: ${m}\n`),
  };
  let cfg;
  try {
    cfg = loadConfig();
  } catch (e) {
    const err = new Error(`bad DATABASE_URL / REDIS_URL / NATS_URL: ${e.message}`);
    log.error(`ERROR ${err.message}`);
    err.infraReported = true;
    throw err;
  }
  const ctx = { cfg, log, apt: makeApt(log), warnings: [] };
  loadMods().catch(() => {}); // start loading client libraries while we probe

  // no server here and none installed, but Docker is: the three come up from deploy/infra.compose.yml
  const viaDocker = await startWithDocker(ctx);
  const services = [
    ['postgres', ensurePostgres],
    ['redis', ensureRedis],
    ['nats+jetstream', ensureNats],
  ];
  const results = await Promise.allSettled(services.map(([, fn]) => fn(ctx)));

  const problems = [];
  const parts = results.map((r, i) => {
    const name = services[i][0];
    if (r.status === 'fulfilled') {
      const notes = [...r.value];
      if (name === 'postgres' && ctx.warnings.length) notes.push('pg_trgm missing');
      return `${name} ok${notes.length ? ` (${notes.join(', ')})` : ''}`;
    }
    problems.push(r.reason?.message || String(r.reason));
    return `${name} FAILED`;
  });

  const secs = (performance.now() - t0) / 1000;
  const elapsed = `(${secs.toFixed(secs < 10 ? 1 : 0)} s)`;
  for (const p of problems) log.error(`ERROR ${p}`);
  log.error(`${parts.join(', ')}${viaDocker ? ' (in Docker: deploy/infra.compose.yml)' : ''} ${elapsed}`);

  if (problems.length) {
    const err = new Error(problems.join('\n'));
    err.infraReported = true;
    throw err;
  }
  const pgUrl = (db) => pgUrlFor(cfg.pg, db);
  return {
    databaseUrl: pgUrl(cfg.pg.databases[0]),
    testDatabaseUrl: pgUrl(cfg.pg.databases[cfg.pg.databases.length - 1]),
    redisUrl: cfg.redis.url,
    natsUrl: `nats://${cfg.nats.server}`,
    warnings: ctx.warnings,
    elapsedMs: Math.round(performance.now() - t0),
  };
}

function isMain() {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  const quiet = process.argv.includes('--quiet') || process.argv.includes('-q');
  ensureInfra({ quiet }).then(
    () => process.exit(0),
    (e) => {
      if (!e?.infraReported) process.stderr.write(`infra: ERROR ${e?.stack || e}\n`);
      process.exit(1);
    },
  );
}
