#!/usr/bin/env node
// Memory of one whatsapp-sessions replica holding many sessions (issue 43 §8).
//
//   npm run bench:sessions-memory [-- SIZES [KINDS]]        e.g. -- 200,1000 sandbox,baileys
//        (or BENCH_SESSIONS=200,1000 BENCH_KINDS=sandbox,baileys)
//
// For each kind and size: one whatsapp-sessions process as built (node services/whatsapp-sessions/dist/main.js,
// NODE_ENV=production, the image's NODE_OPTIONS) on a fresh database, a private nats-server and a fresh private
// redis-server; its memory idle, then with N connections of that kind, which it claims and starts on its own:
//   sandbox: N sandbox sessions, measured once all are CONNECTED;
//   baileys: N Baileys sessions, their WebSocket pointed (BAILEYS_WS_URL) at a local peer standing in for WhatsApp's
//            edge. The peer accepts the socket, reads Baileys' noise hello and answers nothing (no local peer can
//            complete the handshake: Baileys checks the server's certificate against WhatsApp's own key), so each
//            session is a fresh pairing (creds generated, no QR yet) whose socket waits for the server's hello until
//            Baileys' connect timeout (20 s), is closed, and is opened again after the reconnect back-off.
// Sampled every second from /proc/<pid>/status (VmRSS, VmHWM) and the replica's /metrics (heap used, external).
// See README.md beside this file.
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { WebSocketServer } from 'ws';
import { benchRun, fmt, freePort, root, sleep } from '../lib/product.mjs';
import { declareOthersStreams } from '../lib/sessions.mjs';

const list = (i, name, dflt) =>
  String(process.argv[2 + i] ?? process.env[name] ?? dflt)
    .split(',')
    .filter(Boolean);
const SIZES = list(0, 'BENCH_SESSIONS', '200,1000').map(Number);
const KINDS = list(1, 'BENCH_KINDS', 'sandbox,baileys');
/** after the last session started (sandbox: CONNECTED; baileys: its first socket open), before the window */
const SETTLE_S = Number(process.env.BENCH_SETTLE_SECONDS ?? 10);
/** the window the figures are read over (a Baileys socket's cycle: up to 20 s open, then the back-off) */
const WINDOW_S = Number(process.env.BENCH_WINDOW_SECONDS ?? 60);
const START_TIMEOUT_S = Number(process.env.BENCH_START_TIMEOUT_SECONDS ?? 600);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432';
const DB_NAME = 'wa_bench_sessions_memory';
const NATS_URL_GIVEN = process.env.BENCH_NATS_URL ?? '';

for (const n of SIZES) if (!Number.isInteger(n) || n < 1) throw new Error(`bad size: ${n}`);
for (const k of KINDS) if (!['sandbox', 'baileys'].includes(k)) throw new Error(`kinds are sandbox and baileys, not ${k}`);
for (const [k, v] of Object.entries({ SETTLE_S, WINDOW_S, START_TIMEOUT_S })) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`bad ${k}: ${v}`);
}

const log = (s) => process.stderr.write(`bench:sessions-memory: ${s}\n`);
const out = (s) => process.stdout.write(`${s}\n`);
const bench = benchRun('sessions-memory', log);
const MB = 1024 * 1024;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** VmRSS and VmHWM (the peak RSS so far) of a process, in bytes. */
function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** The replica's heap as its /metrics tells it (prom-client's default metrics), in bytes. */
async function heapOf(url) {
  const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
  const metric = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+]+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    heapUsed: metric('nodejs_heap_size_used_bytes'),
    heapTotal: metric('nodejs_heap_size_total_bytes'),
    external: metric('nodejs_external_memory_bytes'),
  };
}

/** A fresh database with whatsapp-sessions' tables (the only service started). */
async function freshDatabase() {
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
  const res = spawnSync(process.execPath, [join(root, 'services/whatsapp-sessions/dist/migrate.js')], {
    cwd: root,
    env: { PATH: process.env.PATH, DATABASE_URL: url, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`migrations failed:\n${res.stdout}\n${res.stderr}`);
  return url;
}

/**
 * WhatsApp's edge as far as it can be played here: accepts Baileys' WebSocket, takes what it sends (the noise hello)
 * and answers nothing. Counts the sockets open now, and those accepted in all.
 */
async function localPeer() {
  const port = await freePort();
  const wss = new WebSocketServer({ host: '127.0.0.1', port, path: '/ws/chat' });
  const peer = { url: `ws://127.0.0.1:${port}/ws/chat`, open: 0, accepted: 0, bytes: 0, close: () => new Promise((r) => wss.close(r)) };
  wss.on('connection', (ws) => {
    peer.open++;
    peer.accepted++;
    ws.on('message', (data) => (peer.bytes += data.length));
    ws.on('close', () => peer.open--);
    ws.on('error', () => undefined);
  });
  await new Promise((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  return peer;
}

/** SIGTERM (the replica hands its sessions over and exits), SIGKILL after 30 s. */
async function stop(proc) {
  if (proc.exited) return;
  proc.child.kill('SIGTERM');
  const deadline = Date.now() + 30_000;
  while (!proc.exited && Date.now() < deadline) await sleep(100);
  if (!proc.exited) proc.child.kill('SIGKILL');
  while (!proc.exited) await sleep(50);
}

async function statusCounts(db) {
  const { rows } = await db.query(`SELECT status, count(*)::int AS n FROM whatsapp.connections GROUP BY status ORDER BY status`);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** One replica, idle then with `n` sessions of `kind`: its figures. */
async function measure({ kind, n, dbUrl, natsUrl, db, peer }) {
  await db.query(`TRUNCATE whatsapp.connections, whatsapp.session_state CASCADE`);
  const redisUrl = await bench.startRedis('');
  const port = await freePort();
  const svc = await bench.startService(
    'whatsapp-sessions',
    port,
    {
      DATABASE_URL: dbUrl,
      NATS_URL: natsUrl,
      AUTH_URL: 'http://127.0.0.1:9', // asked only when a connection is created through the API: never here
      SESSION_MAX_PER_PROCESS: String(n),
      SESSION_OWNER_ID: 'whatsapp-sessions-0',
      SESSION_CLAIM_INTERVAL_MS: '1000',
      BAILEYS_WS_URL: peer.url,
    },
    redisUrl,
  );
  const pid = svc.child.pid;
  await sleep(5000);
  const idleSamples = [];
  for (let i = 0; i < 5; i++) {
    idleSamples.push({ ...rssOf(pid), ...(await heapOf(svc.url)) });
    await sleep(1000);
  }
  const idle = { rss: median(idleSamples.map((s) => s.rss)), heapUsed: median(idleSamples.map((s) => s.heapUsed)) };

  const peerBefore = peer.accepted;
  const t0 = Date.now();
  await db.query(
    `INSERT INTO whatsapp.connections ("companyId", name, channel, status)
     SELECT 1 + (i % 50), 'bench ' || i, $1, 'OPENING' FROM generate_series(1, $2::int) AS i`,
    [kind, n],
  );
  // sandbox: every session CONNECTED; baileys: every session's socket opened once (accepted by the peer)
  const started = async () =>
    kind === 'sandbox'
      ? (await db.query(`SELECT count(*)::int AS n FROM whatsapp.connections WHERE status = 'CONNECTED'`)).rows[0].n
      : peer.accepted - peerBefore;
  let last = -1;
  let lastLog = 0;
  for (;;) {
    if (svc.exited) throw new Error(`whatsapp-sessions exited (${svc.exit}); log: ${svc.file}`);
    last = await started();
    if (last >= n) break;
    if (Date.now() - t0 > START_TIMEOUT_S * 1000) throw new Error(`${kind}: ${last} of ${n} started after ${START_TIMEOUT_S} s`);
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      log(`${kind} ${n}: ${last} started…`);
    }
    await sleep(250);
  }
  const startSeconds = (Date.now() - t0) / 1000;
  log(`${kind} ${n}: all started in ${fmt(startSeconds, 1)} s; settling ${SETTLE_S} s, then ${WINDOW_S} s of samples`);
  await sleep(SETTLE_S * 1000);
  const samples = [];
  for (let i = 0; i < WINDOW_S; i++) {
    samples.push({ ...rssOf(pid), ...(await heapOf(svc.url)), open: peer.open });
    await sleep(1000);
  }
  const statuses = await statusCounts(db);
  const hwm = rssOf(pid).hwm;
  await stop(svc);
  // the next measure's replica logs to the same name: this one's log is kept under its own
  const file = svc.file.replace(/\.log$/, `-${kind}-${n}.log`);
  renameSync(svc.file, file);
  svc.file = file;
  const rss = median(samples.map((s) => s.rss));
  const heapUsed = median(samples.map((s) => s.heapUsed));
  return {
    kind,
    n,
    startSeconds,
    idle,
    rss,
    rssMax: Math.max(...samples.map((s) => s.rss)),
    hwm,
    heapUsed,
    external: median(samples.map((s) => s.external)),
    perSessionRss: (rss - idle.rss) / n,
    perSessionHeap: (heapUsed - idle.heapUsed) / n,
    open: kind === 'baileys' ? { median: median(samples.map((s) => s.open)), max: Math.max(...samples.map((s) => s.open)) } : null,
    accepted: kind === 'baileys' ? peer.accepted - peerBefore : null,
    statuses,
  };
}

async function main() {
  const load0 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const dbUrl = await freshDatabase();
  const natsUrl = await bench.startNats(NATS_URL_GIVEN);
  await declareOthersStreams(natsUrl, bench.natsPasswords);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  const peer = await localPeer();
  const results = [];
  try {
    for (const kind of KINDS) {
      for (const n of SIZES) {
        const r = await measure({ kind, n, dbUrl, natsUrl, db, peer });
        results.push(r);
        log(
          `${kind} ${n}: RSS ${fmt(r.rss / MB)} MB (idle ${fmt(r.idle.rss / MB)}), heap ${fmt(r.heapUsed / MB)} MB, ` +
            `${fmt(r.perSessionRss / 1024)} kB RSS a session`,
        );
      }
    }
  } finally {
    await db.end();
    await peer.close();
  }

  out('');
  out(`# whatsapp-sessions memory (one replica; load before: ${load0}; window ${WINDOW_S} s after ${SETTLE_S} s)`);
  out('');
  out(
    '| kind | sessions | started in | RSS idle | RSS (median) | RSS max | peak RSS (VmHWM) | heap used | heap idle | RSS / session | heap / session | sockets open (median / max) | statuses |',
  );
  out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    out(
      `| ${r.kind} | ${fmt(r.n)} | ${fmt(r.startSeconds, 1)} s | ${fmt(r.idle.rss / MB)} MB | ${fmt(r.rss / MB)} MB | ${fmt(r.rssMax / MB)} MB | ` +
        `${fmt(r.hwm / MB)} MB | ${fmt(r.heapUsed / MB)} MB | ${fmt(r.idle.heapUsed / MB)} MB | ${fmt(r.perSessionRss / 1024, 1)} kB | ` +
        `${fmt(r.perSessionHeap / 1024, 1)} kB | ${r.open ? `${fmt(r.open.median)} / ${fmt(r.open.max)}` : '–'} | ` +
        `${Object.entries(r.statuses)
          .map(([s, c]) => `${s} ${c}`)
          .join(', ')} |`,
    );
  }
  // the cost of one more session: between two sizes of a kind, what the first sessions' one-off costs (modules, code
  // compiled, pools) do not weigh on
  for (const kind of KINDS) {
    const rs = results.filter((r) => r.kind === kind).sort((a, b) => a.n - b.n);
    for (let i = 1; i < rs.length; i++) {
      const [a, b] = [rs[i - 1], rs[i]];
      out(
        `${kind}: from ${fmt(a.n)} to ${fmt(b.n)} sessions, ${fmt((b.rss - a.rss) / (b.n - a.n) / 1024, 1)} kB RSS and ` +
          `${fmt((b.heapUsed - a.heapUsed) / (b.n - a.n) / 1024, 1)} kB heap a session more`,
      );
    }
  }
  out('');
  out(
    'RSS / session = (RSS median − RSS idle) / sessions; heap likewise. Baileys: sockets to the local peer, never past the noise hello (see README).',
  );
}

bench.run(main);
