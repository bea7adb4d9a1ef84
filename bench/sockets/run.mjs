#!/usr/bin/env node
// Socket benchmark: one realtime-gateway replica, many authenticated sockets, ticket events at a steady rate.
//
//   npm run bench:sockets [-- SOCKETS [COMPANIES [RATE [SECONDS]]]]
//        (or BENCH_SOCKETS, BENCH_COMPANIES, BENCH_RATE, BENCH_SECONDS; BENCH_WORKERS client processes)
//
// Starts only realtime-gateway (node services/realtime-gateway/dist/main.js; Redis db 4 and a private
// JetStream server, no database), connects SOCKETS admin sockets spread over COMPANIES companies from
// BENCH_WORKERS client processes (tokens minted with signAccessToken; the users exist nowhere, so the
// gateway takes the token's profile), reads the replica's memory, then publishes RATE `ticket.updated`
// events per second for SECONDS s on JetStream (as tickets does), round-robin over the companies, and
// measures publish → delivery at every socket of the event's company. See README.md beside this file.
import { fork, spawn } from 'node:child_process';
import { serviceNodeOptions } from '../../scripts/lib/service-runtime.mjs';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { freePort } from '../../scripts/lib/free-port.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const arg = (i, name, dflt) => Number(process.argv[2 + i] ?? process.env[name] ?? dflt);
const SOCKETS = arg(0, 'BENCH_SOCKETS', 10_000);
const COMPANIES = arg(1, 'BENCH_COMPANIES', 100);
const RATE = arg(2, 'BENCH_RATE', 100);
const SECONDS = arg(3, 'BENCH_SECONDS', 20);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 4);
const BATCH = Number(process.env.BENCH_BATCH ?? 200); // sockets connecting at once, over all workers
const WARM_SECONDS = 2;
/** publish → delivery p99 target (issue 44) */
const TARGET_MS = 25;
/**
 * Empty: a private redis-server for the run (its db 4). Another process on the shared server's db 4 would share
 * keys with the services (session leases `wa:session:lease:<connectionId>`, ticket places…), and would be hurt by a flush.
 */
const REDIS_URL_GIVEN = process.env.BENCH_REDIS_URL ?? '';
/** Empty: a private nats-server (JetStream, temp store), so no other process shares the durables or the user directory. */
const NATS_URL_GIVEN = process.env.BENCH_NATS_URL ?? '';
const JWT_SECRET = `bench-sockets-${randomBytes(12).toString('hex')}`;
const FD_LIMIT = 65535;

for (const [k, v] of Object.entries({ SOCKETS, COMPANIES, RATE, SECONDS, WORKERS, BATCH })) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`bad ${k}: ${v}`);
}
if (SOCKETS % COMPANIES !== 0) throw new Error(`SOCKETS (${SOCKETS}) must be a multiple of COMPANIES (${COMPANIES})`);
const PER_COMPANY = SOCKETS / COMPANIES;

const clockMs = () => Number(process.hrtime.bigint()) / 1e6; // CLOCK_MONOTONIC, shared by every process of the machine
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (x, d = 0) => Number(x).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const log = (s) => process.stderr.write(`bench:sockets: ${s}\n`);
const out = (s) => process.stdout.write(`${s}\n`);
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
/** VmRSS / VmHWM of a process, in MB */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}
/** `--trace-gc` lines: `… 12345 ms: Scavenge 80.1 (90.2) -> 70.3 (92.2) MB, 3.1 / 0.0 ms …` */
function gcSummary(text) {
  const r = { scavenges: 0, scavengeMax: 0, markCompacts: 0, markCompactMax: 0, markCompactTotal: 0 };
  for (const m of text.matchAll(/ms: (Scavenge|Mark-Compact|Minor Mark-Compact|Mark-sweep)[^,]*MB, ([\d.]+) \/ [\d.]+ ms/g)) {
    const ms = Number(m[2]);
    if (m[1] === 'Scavenge' || m[1] === 'Minor Mark-Compact') {
      r.scavenges++;
      r.scavengeMax = Math.max(r.scavengeMax, ms);
    } else {
      r.markCompacts++;
      r.markCompactMax = Math.max(r.markCompactMax, ms);
      r.markCompactTotal += ms;
    }
  }
  return r;
}

function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

// ------------------------------------------------------------------ processes

const logDir = mkdtempSync(join(tmpdir(), 'wa-bench-sockets-'));
const children = [];

/** `sh -c 'ulimit -n …; exec cmd'`: the process keeps the shell's pid and gets the raised descriptor limit. */
function spawnLogged(name, cmd, args, env) {
  const file = join(logDir, `${name}.log`);
  const stream = createWriteStream(file);
  const quoted = [cmd, ...args].map((a) => `'${String(a).replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('sh', ['-c', `ulimit -n ${FD_LIMIT} 2>/dev/null || ulimit -n hard 2>/dev/null; exec ${quoted}`], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

async function listening(port) {
  return new Promise((resolve) => {
    const s = createServer().listen(port, '127.0.0.1');
    s.once('listening', () => s.close(() => resolve(false)));
    s.once('error', () => resolve(true));
  });
}

async function startRedis() {
  if (REDIS_URL_GIVEN) return REDIS_URL_GIVEN;
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

async function startNats() {
  if (NATS_URL_GIVEN) return NATS_URL_GIVEN;
  const port = await freePort();
  const store = join(logDir, 'jetstream');
  mkdirSync(store);
  const p = spawnLogged('nats-server', 'nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], {
    PATH: process.env.PATH,
  });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (p.exited) throw new Error(`nats-server exited: ${readFileSync(p.file, 'utf8')}`);
    if (await listening(port)) return `nats://127.0.0.1:${port}`;
    await sleep(100);
  }
  throw new Error('nats-server did not start');
}

async function startRealtime(natsUrl, redisUrl) {
  const port = await freePort();
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(logDir, 'prof')}`] : [];
  // --trace-gc: one line per collection in the replica's log, summarised for the publishing phase
  const p = spawnLogged(
    'realtime-gateway',
    process.execPath,
    [...profile, '--trace-gc', join(root, 'services/realtime-gateway/dist/main.js')],
    {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      // its node runs as it does in k8s, docker compose and npm start
      NODE_OPTIONS: serviceNodeOptions('', 'realtime-gateway'),
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      JWT_SECRET,
      REDIS_URL: redisUrl,
      NATS_URL: natsUrl,
      // production needs NATS credentials; this bench's own nats-server has no users, and ignores them
      NATS_USER: 'realtime-gateway',
      NATS_PASSWORD: `n${randomBytes(24).toString('hex')}`,
      TICKETS_URL: 'http://127.0.0.1:9', // only asked on joinChatBox, which this benchmark does not send
      REALTIME_DURABLE: `bench-sockets-${randomBytes(3).toString('hex')}`,
    },
  );
  p.url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (p.exited) throw new Error(`realtime-gateway exited during start (${p.exit}); log:\n${readFileSync(p.file, 'utf8').slice(-4000)}`);
    const res = await fetch(`${p.url}/health`, { signal: AbortSignal.timeout(1000) }).catch(() => undefined);
    if (res?.status === 200) return p;
    await sleep(150);
  }
  throw new Error(`realtime-gateway not healthy after 60 s; log: ${p.file}`);
}

const workers = [];

function startWorker(i) {
  const w = fork(join(here, 'clients.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
  const state = { i, w, connected: 0, failed: 0, done: null, report: null, waiters: new Map() };
  w.on('message', (msg) => {
    if (msg.type === 'progress') Object.assign(state, { connected: msg.connected, failed: msg.failed });
    state.waiters.get(msg.type)?.(msg);
    state.waiters.delete(msg.type);
  });
  w.on('exit', (code) => {
    state.exited = code ?? 'signal';
    for (const resolve of state.waiters.values()) resolve({ type: 'exit', code });
  });
  workers.push(state);
  return state;
}

const answer = (state, type) => new Promise((resolve) => state.waiters.set(type, resolve));

async function stopAll() {
  for (const s of workers) if (s.exited === undefined) s.w.send({ type: 'close' }, () => undefined);
  await sleep(500);
  for (const s of workers) if (s.exited === undefined) s.w.kill('SIGTERM');
  const infra = (c) => c.name === 'nats-server' || c.name === 'redis-server';
  for (const group of [children.filter((c) => !infra(c)), children.filter(infra)]) {
    const live = group.filter((c) => !c.exited);
    for (const c of live) c.child.kill('SIGTERM');
    const deadline = Date.now() + 25_000;
    while (live.some((c) => !c.exited) && Date.now() < deadline) await sleep(100);
    for (const c of live) if (!c.exited) c.child.kill('SIGKILL');
  }
}

// ------------------------------------------------------------------ events

const contactOf = (companyId, ticketId) => ({
  id: ticketId,
  name: `Cliente ${ticketId}`,
  number: `55119${String(ticketId).padStart(8, '0')}`,
  profilePicUrl: '',
});

/** A TicketDto-shaped ticket, as tickets publishes it; benchSentAt/benchWarm ride along untouched. */
function ticketOf(companyId, ticketId, seq, warm) {
  const at = new Date().toISOString();
  return {
    id: ticketId,
    uuid: randomUUID(),
    companyId,
    status: 'pending',
    userId: null,
    user: null,
    queueId: 1,
    queue: { id: 1, name: 'Atendimento', color: '#123456' },
    whatsappId: 1,
    whatsapp: { id: 1, name: 'Sandbox' },
    contactId: ticketId,
    contact: contactOf(companyId, ticketId),
    tags: [],
    lastMessage: `mensagem ${seq}`,
    unreadMessages: 1 + (seq % 5),
    isGroup: false,
    chatbot: false,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    createdAt: at,
    updatedAt: at,
    benchSentAt: clockMs(),
    benchSeq: seq,
    benchWarm: warm,
  };
}

// ------------------------------------------------------------------ main

async function main() {
  const needed = ['services/realtime-gateway/dist/main.js', 'libs/auth/dist/index.js', 'libs/event-bus/dist/index.js'];
  if (!needed.every((f) => existsSync(join(root, f))))
    throw new Error('build first: npx nx run-many -t build --projects=tag:scope:service');
  const { signAccessToken } = await import('../../libs/auth/dist/index.js');
  const { EventBus } = await import('../../libs/event-bus/dist/index.js');
  const load0 = loadavg();
  log(`logs in ${logDir}`);

  const natsUrl = await startNats();
  const redisUrl = await startRedis();
  const realtime = await startRealtime(natsUrl, redisUrl);
  const pid = realtime.child.pid;
  const fdLimit = /Max open files\s+(\d+)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1];
  const memIdle = memoryOf(pid);
  log(`realtime-gateway up (pid ${pid}, fd limit ${fdLimit}, RSS ${fmt(memIdle.rss, 1)} MB)`);

  // tokens: company c (1…COMPANIES) has PER_COMPANY admins; socket j of a company goes to worker j % WORKERS
  const shares = Array.from({ length: WORKERS }, () => []);
  for (let c = 1; c <= COMPANIES; c++) {
    for (let j = 0; j < PER_COMPANY; j++) {
      const id = c * 100_000 + j + 1;
      const token = signAccessToken({ id, companyId: c, profile: 'admin', super: false, sid: randomUUID() }, JWT_SECRET);
      shares[(c * PER_COMPANY + j) % WORKERS].push({ token, companyId: c });
    }
  }
  // interleave companies inside each share, so every batch touches many companies
  for (const s of shares) {
    for (let i = s.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [s[i], s[j]] = [s[j], s[i]];
    }
  }

  for (let i = 0; i < WORKERS; i++) startWorker(i);
  const c0 = clockMs();
  const cpuConnect0 = cpuSeconds(pid);
  const connectedMsgs = workers.map((s) => answer(s, 'connected'));
  for (const s of workers)
    s.w.send({ type: 'connect', url: realtime.url, batch: Math.max(1, Math.round(BATCH / WORKERS)), sockets: shares[s.i] });
  const ticker = setInterval(() => {
    const n = workers.reduce((a, s) => a + s.connected, 0);
    const f = workers.reduce((a, s) => a + s.failed, 0);
    log(`connected ${fmt(n)} / ${fmt(SOCKETS)}${f ? `, ${f} failed` : ''}`);
  }, 2000);
  const results = await Promise.all(connectedMsgs);
  clearInterval(ticker);
  const connectSecs = (clockMs() - c0) / 1000;
  const cpuConnect = cpuSeconds(pid) - cpuConnect0;
  const connected = results.reduce((a, r) => a + (r.connected ?? 0), 0);
  const failed = results.reduce((a, r) => a + (r.failed ?? 0), 0);
  const errors = {};
  for (const r of results) for (const [k, v] of Object.entries(r.errors ?? {})) errors[k] = (errors[k] ?? 0) + v;
  await sleep(3000); // let the handshakes' garbage go
  const memConnected = memoryOf(pid);

  // events: RATE/s, round-robin over the companies, on JetStream as tickets publishes them
  const bus = await EventBus.connect({
    servers: natsUrl,
    name: 'bench-sockets-publisher',
    logger: {
      info() {},
      warn: (o, m) => log(`bus warn ${m} ${JSON.stringify(o)}`),
      error: (o, m) => log(`bus error ${m} ${JSON.stringify(o)}`),
    },
  });
  const publishErrors = [];
  let seq = 0;
  async function publishAt(rate, seconds, warm) {
    const total = rate * seconds;
    const t0 = clockMs();
    let sent = 0;
    const pending = [];
    while (sent < total) {
      const due = Math.min(total, Math.floor(((clockMs() - t0) / 1000) * rate) + 1);
      while (sent < due) {
        const k = seq++;
        sent++;
        const companyId = 1 + (k % COMPANIES);
        const ticketId = companyId * 1000 + (Math.floor(k / COMPANIES) % 20) + 1; // 20 conversations per company
        const ticket = ticketOf(companyId, ticketId, k, warm);
        pending.push(
          bus
            .publish(`ticket.updated.${companyId}.${ticketId}`, { companyId, ticket }, { msgId: `bench-ticket-updated:${ticketId}:${k}` })
            .catch((err) => publishErrors.push(err.message)),
        );
      }
      await sleep(1);
    }
    await Promise.all(pending);
    return { total, secs: (clockMs() - t0) / 1000 };
  }
  log(`warm-up: ${WARM_SECONDS} s at ${RATE}/s`);
  await publishAt(RATE, WARM_SECONDS, true);
  await sleep(1000);
  const cpuPub0 = cpuSeconds(pid);
  const gcFrom = readFileSync(realtime.file, 'utf8').length;
  log(`publishing ${RATE}/s for ${SECONDS} s`);
  const seq0 = seq;
  const pub = await publishAt(RATE, SECONDS, false);
  await sleep(3000); // stragglers
  const cpuPub = cpuSeconds(pid) - cpuPub0;
  const memEnd = memoryOf(pid);
  const gc = gcSummary(readFileSync(realtime.file, 'utf8').slice(gcFrom));

  const reports = await Promise.all(
    workers.map((s) => {
      const p = answer(s, 'report');
      s.w.send({ type: 'report' });
      return p;
    }),
  );
  const all = [];
  let foreign = 0;
  let disconnects = 0;
  let clientGcMax = 0;
  let clientGcOver20 = 0;
  const firstOf = new Map(); // event → its earliest and latest delivery
  const lastOf = new Map();
  for (const r of reports) {
    const lat = r.latencies ?? [];
    const sq = r.seqs ?? [];
    for (let i = 0; i < lat.length; i++) {
      all.push(lat[i]);
      const k = sq[i];
      if (!(firstOf.get(k) <= lat[i])) firstOf.set(k, lat[i]);
      if (!(lastOf.get(k) >= lat[i])) lastOf.set(k, lat[i]);
    }
    foreign += r.foreign ?? 0;
    disconnects += r.disconnects ?? 0;
    clientGcMax = Math.max(clientGcMax, r.gcMaxMs ?? 0);
    clientGcOver20 += r.gcOver20 ?? 0;
  }
  all.sort((a, b) => a - b);
  const firsts = [...firstOf.values()].sort((a, b) => a - b);
  const late = lateEpisodes(firstOf, seq0, RATE, TARGET_MS);
  const spreads = [...firstOf.keys()].map((k) => lastOf.get(k) - firstOf.get(k)).sort((a, b) => a - b);
  const expected = pub.total * PER_COMPANY;
  await bus.close();

  out(
    `socket benchmark: ${fmt(SOCKETS)} sockets (${COMPANIES} companies × ${PER_COMPANY} admins) on one realtime-gateway, ${WORKERS} client processes, NATS ${NATS_URL_GIVEN || 'private nats-server'}, Redis ${REDIS_URL_GIVEN || 'private redis-server'}`,
  );
  out(`load average before / after       : ${load0} / ${loadavg()}`);
  out(`replica fd limit                  : ${fdLimit}`);
  out(
    `connected                         : ${fmt(connected)} of ${fmt(SOCKETS)} in ${fmt(connectSecs, 1)} s (${fmt(connected / connectSecs)}/s, replica CPU ${fmt(cpuConnect, 1)} s)${failed ? `, failed ${failed}: ${JSON.stringify(errors)}` : ''}`,
  );
  out(`replica memory before sockets     : RSS ${fmt(memIdle.rss, 1)} MB`);
  out(`replica memory, all connected     : RSS ${fmt(memConnected.rss, 1)} MB (target <= 400 MB)`);
  out(`replica memory at the end         : RSS ${fmt(memEnd.rss, 1)} MB, peak (VmHWM) ${fmt(memEnd.hwm, 1)} MB`);
  out(
    `published                         : ${fmt(pub.total)} ticket.updated events at ${RATE}/s over ${fmt(pub.secs, 1)} s${publishErrors.length ? `, ${publishErrors.length} failed` : ''} (replica CPU ${fmt(cpuPub, 1)} s = ${fmt((100 * cpuPub) / pub.secs)}% of a core)`,
  );
  out(
    `delivered                         : ${fmt(all.length)} of ${fmt(expected)} expected (${fmt((100 * all.length) / expected, 2)}%), to another company: ${foreign}, disconnects: ${disconnects}`,
  );
  out(`publish -> delivery p50           : ${fmt(percentile(all, 50), 2)} ms`);
  out(`publish -> delivery p99           : ${fmt(percentile(all, 99), 2)} ms (target <= ${TARGET_MS})`);
  out(`publish -> delivery p90 / max     : ${fmt(percentile(all, 90), 2)} / ${fmt(all[all.length - 1], 2)} ms`);
  out(
    `per event, first socket reached  : p50 ${fmt(percentile(firsts, 50), 2)} / p99 ${fmt(percentile(firsts, 99), 2)} / max ${fmt(firsts[firsts.length - 1], 2)} ms (bus + replica up to its first write)`,
  );
  out(
    `events late at their first socket : ${late.events} of ${fmt(pub.total)} over ${TARGET_MS} ms, in ${late.episodes.length} episode(s)${late.episodes
      .slice(0, 5)
      .map((e) => `; at ${fmt(e.atS, 1)} s: ${e.events} events, up to ${fmt(e.maxMs)} ms`)
      .join('')}${late.episodes.length > 5 ? '; …' : ''}`,
  );
  out(
    `per event, first → last socket   : p50 ${fmt(percentile(spreads, 50), 2)} / p99 ${fmt(percentile(spreads, 99), 2)} / max ${fmt(spreads[spreads.length - 1], 2)} ms (writing to ${PER_COMPANY} sockets + the clients)`,
  );
  out(
    `replica GC while publishing       : ${gc.scavenges} scavenges (max ${fmt(gc.scavengeMax, 1)} ms), ${gc.markCompacts} mark-compacts (max ${fmt(gc.markCompactMax, 1)} ms, total ${fmt(gc.markCompactTotal, 0)} ms)`,
  );
  out(
    `client GC while publishing        : max pause ${fmt(clientGcMax, 1)} ms, ${clientGcOver20} pauses over 20 ms (all ${WORKERS} client processes)`,
  );
}

/**
 * The events whose first socket was reached later than `targetMs` after their publication, grouped into episodes
 * (late events less than a second of publishing apart): whether the tail is spread over the run or one stall whose
 * queue drains over the next events. `firstOf`: event seq → its earliest delivery (ms); seqs count from `seq0` at `rate`/s.
 */
function lateEpisodes(firstOf, seq0, rate, targetMs) {
  const late = [...firstOf].filter(([k, ms]) => k >= seq0 && ms > targetMs).sort((a, b) => a[0] - b[0]);
  const episodes = [];
  for (const [k, ms] of late) {
    const last = episodes[episodes.length - 1];
    if (last && k - last.lastSeq < rate) {
      last.events++;
      last.maxMs = Math.max(last.maxMs, ms);
      last.lastSeq = k;
    } else episodes.push({ atS: (k - seq0) / rate, events: 1, maxMs: ms, lastSeq: k });
  }
  return { events: late.length, episodes };
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
