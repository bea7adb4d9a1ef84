// Shared parts of the HTTP benchmarks: start built services as processes, wait for their health, and
// measure a GET at a set concurrency (p50, p99, requests/s and CPU per request of each process).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { serviceNodeOptions } from '../../scripts/lib/service-runtime.mjs';
import { busyPercent, cpuSeconds, machineCpu, postgresCpu } from './proc.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

const PROFILE = (process.env.BENCH_PROFILE ?? '').split(',').filter(Boolean);

/** Starts `services/<name>/dist/main.js` on `port` with `env`; BENCH_PROFILE=<name> writes its CPU profile. */
export function startService(name, port, env) {
  const prof = PROFILE.includes(name) ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR ?? '/tmp/wa-bench-profiles'}`] : [];
  const child = spawn(process.execPath, [...prof, join(root, 'services', name, 'dist/main.js')], {
    env: { NODE_OPTIONS: serviceNodeOptions(''), ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return { name, child, url: `http://127.0.0.1:${port}`, err: () => err };
}

/** The gateway in front of tickets only (the other upstreams are unreachable on purpose). */
export function startGateway(port, env, ticketsUrl) {
  const nowhere = 'http://127.0.0.1:1';
  return startService('messaging-gateway', port, {
    ...env,
    TICKETS_URL: ticketsUrl,
    AUTH_URL: nowhere,
    WHATSAPP_SESSIONS_URL: nowhere,
    CAMPAIGNS_URL: nowhere,
    BILLING_URL: nowhere,
    REALTIME_URL: nowhere,
  });
}

export async function healthy(u) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${u}/health`)).status === 200) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${u} not healthy`);
}

/**
 * A load of GETs through `baseUrl` with `token`, `concurrency` at a time. `rowsOf(body)` counts a page's
 * rows (printed with the figures). `services` are the processes whose CPU is measured.
 */
export function httpLoad({ baseUrl, token, concurrency, requests, rowsOf, services }) {
  const agent = new Agent({ connections: concurrency, pipelining: 1 });

  async function run(n, pathFor, label = pathFor(0)) {
    const latencies = [];
    let next = 0;
    let rows = 0;
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        const t0 = performance.now();
        const res = await request(`${baseUrl}${pathFor(i)}`, { dispatcher: agent, headers: { authorization: `Bearer ${token}` } });
        const body = await res.body.json();
        latencies.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${JSON.stringify(body)}`);
        rows = rowsOf(body);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { latencies, rows };
  }

  async function measure(label, pathFor, unit = 'rows') {
    await run(300, pathFor, label);
    const cpu0 = {
      machine: machineCpu(),
      services: services.map((s) => cpuSeconds(s.child.pid)),
      postgres: postgresCpu(),
      client: process.cpuUsage(),
    };
    const t0 = performance.now();
    const { latencies, rows } = await run(requests, pathFor, label);
    const seconds = (performance.now() - t0) / 1000;
    const client = process.cpuUsage(cpu0.client);
    const perRequest = (s) => ((s * 1000) / requests).toFixed(2);
    const each = services.map((s, i) => `${s.name} ${perRequest(cpuSeconds(s.child.pid) - cpu0.services[i])} ms`).join(', ');
    const cpu = `CPU per request: ${each}, postgres ${perRequest(postgresCpu() - cpu0.postgres)} ms, client ${perRequest((client.user + client.system) / 1e6)} ms; machine ${busyPercent(cpu0.machine, machineCpu()).toFixed(0)} % busy`;
    latencies.sort((a, b) => a - b);
    const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(2);
    console.log(
      `${label.padEnd(34)} p50 ${pct(50).padStart(7)} ms   p99 ${pct(99).padStart(7)} ms   ${(requests / seconds).toFixed(0).padStart(5)} req/s   (${rows} ${unit} a page)`,
    );
    console.log(`${''.padEnd(34)} ${cpu}`);
  }

  return { run, measure, close: () => agent.close() };
}

/**
 * A benchmark's own tickets database (`db`, kept between runs) with the services' environment: the local
 * Redis db 5 and NATS, a secret of this run, and an admin token of a company.
 */
export async function ticketsBenchSetup(db) {
  const { randomUUID } = await import('node:crypto');
  const { default: pg } = await import('pg');
  const { signAccessToken } = await import(join(root, 'libs/auth/dist/index.js'));
  const { runMigrations } = await import(join(root, 'libs/database/dist/index.js'));
  const { ticketsDatabase } = await import(join(root, 'services/tickets/dist/database/data-source.js'));
  const base = process.env.BENCH_PG ?? 'postgres://postgres:postgres@127.0.0.1:5432';
  const url = `${base}/${db}`;
  const secret = `bench-secret-${randomUUID()}`;
  const env = {
    PATH: process.env.PATH,
    DATABASE_URL: url,
    REDIS_URL: 'redis://127.0.0.1:6379/5',
    NATS_URL: 'nats://127.0.0.1:4222',
    JWT_SECRET: secret,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };

  /** Creates the database when missing and runs tickets' migrations. */
  async function ensureDatabase() {
    const admin = new pg.Client({ connectionString: `${base}/postgres` });
    await admin.connect();
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db])).rowCount;
    if (!exists) await admin.query(`CREATE DATABASE ${db}`);
    await admin.end();
    await runMigrations(ticketsDatabase(url));
  }

  const adminToken = (companyId) => signAccessToken({ id: 1, companyId, profile: 'admin', super: false, sid: randomUUID() }, secret);
  return { url, env, ensureDatabase, adminToken };
}
