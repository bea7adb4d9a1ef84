// Starts the whole product exactly as `npm start` does (node scripts/start.mjs), on its own ports,
// database, Redis database and NATS server, so it can run beside a developer's `npm start`.
// Used by the browser tests (global set-up) and by bench/web/run.mjs.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

export const E2E_DEFAULTS = {
  portOffset: 20000,
  databaseUrl: 'postgres://postgres:postgres@127.0.0.1:5432/wa_e2e',
  redisUrl: 'redis://127.0.0.1:6379/3',
  natsPort: 24222,
};

export function urlsFor(portOffset) {
  return {
    webUrl: `http://localhost:${3000 + portOffset}`,
    apiUrl: `http://localhost:${8080 + portOffset}`,
    mailUrl: `http://localhost:${1080 + portOffset}`,
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** A deadline raced against an exit: it does not keep the process (jest, after the last test) alive once that came. */
const timeLimit = (ms) => new Promise((r) => setTimeout(r, ms).unref());

async function answers(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Drops and recreates the database (the seed then creates the demo company and admin). */
async function recreateDatabase(databaseUrl) {
  const { default: pg } = await import('pg');
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name ${name}`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}

/** Empties the Redis database of the run (revoked sessions, presence, caches of an earlier run). */
async function flushRedis(redisUrl) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

/** A NATS server with JetStream for this run only, so no other copy of the services shares its streams. */
async function startNats(port) {
  const storeDir = mkdtempSync(join(tmpdir(), 'wa-e2e-nats-'));
  const child = spawn('/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const net = await import('node:net');
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) break;
    await sleep(100);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, timeLimit(5000)]);
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** Our environment without the variables of an Nx task that runs us (start.mjs runs Nx itself). */
function parentEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NX_')));
}

/**
 * Starts the product; resolves when the web app and the gateway answer.
 * Returns the URLs and `stop()` (SIGINT to start.mjs, as Ctrl-C, then waits for it to exit).
 */
export async function startProduct(options = {}) {
  const o = { ...E2E_DEFAULTS, ...options };
  const { webUrl, apiUrl } = urlsFor(o.portOffset);
  if ((await answers(`${apiUrl}/health`)) || (await answers(webUrl)))
    throw new Error(`something already answers on ${webUrl} or ${apiUrl}`);
  await recreateDatabase(o.databaseUrl);
  await flushRedis(o.redisUrl);
  const nats = await startNats(o.natsPort);

  const logDir = join(root, 'reports');
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `product-${o.portOffset}.log`);
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...parentEnv(),
      PORT_OFFSET: String(o.portOffset),
      DATABASE_URL: o.databaseUrl,
      REDIS_URL: o.redisUrl,
      NATS_URL: nats.url,
      NX_DAEMON: 'false',
      // the browser tests' webhook receivers are HTTP servers on loopback (webhooks.e2e-spec.ts)
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let gone = false;
  void exited.then(() => (gone = true));

  async function stop() {
    if (!gone) child.kill('SIGINT');
    const done = await Promise.race([exited, timeLimit(40_000).then(() => null)]);
    if (done === null && !gone) {
      child.kill('SIGKILL');
      await exited;
    }
    await nats.stop();
    log.end();
  }

  const deadline = Date.now() + (o.startTimeoutMs ?? 600_000);
  while (!(await answers(webUrl)) || !(await answers(`${apiUrl}/health`))) {
    if (gone) {
      await nats.stop();
      throw new Error(`npm start exited before the product answered; see ${logFile}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the product did not answer within the time; see ${logFile}`);
    }
    await sleep(500);
  }
  return { webUrl, apiUrl, logFile, stop };
}
