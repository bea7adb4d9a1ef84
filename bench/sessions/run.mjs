#!/usr/bin/env node
// Sessions on several replicas (issue 43): placement from cold, spread, memory, and the failover of a SIGKILLed replica.
//
//   npm run bench:sessions [-- SESSIONS [REPLICAS [ROUNDS [MAX]]]]
//        (or BENCH_SESSIONS 1000, BENCH_REPLICAS 3, BENCH_ROUNDS 4, BENCH_MAX_PER_REPLICA 600: SESSION_MAX_PER_PROCESS)
//
// REPLICAS whatsapp-sessions processes as built (node services/whatsapp-sessions/dist/main.js, NODE_ENV=production,
// the shipped timers: heartbeat 2 s, a replica dead after 10 s without one, claims every 2 s) named
// whatsapp-sessions-0 … on a fresh database, a private nats-server (the shipped nats.conf) and redis-server; then
//   cold:     SESSIONS sandbox connections appear at once: time until every one is CONNECTED, the spread over the
//             replicas (lease holders), each replica's RSS and the RSS a session costs (over the replicas' idle RSS);
//   failover: the busiest replica is SIGKILLed while, in ROUNDS rounds, each connection's customer writes a message
//             (POST …/sandbox/inbound to a live replica, as a Service routes it; with its own WhatsApp id) and each
//             connection is asked to send a reply (wa.outbound.send, as tickets publishes it): time until every
//             session is CONNECTED on a live replica, and the messages lost or doubled — customer messages counted
//             on JetStream's WA stream, replies in the sandbox's outbox (what left for WhatsApp), by id.
// See README.md beside this file.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { connect, headers as natsHeaders } from 'nats';
import pg from 'pg';
import { Redis } from 'ioredis';
import { benchRun, fmt, freePort, jsonRequest, recreateDatabase, sleep } from '../lib/product.mjs';
import { declareOthersStreams } from '../lib/sessions.mjs';

const arg = (i, name, dflt) => Number(process.argv[2 + i] ?? process.env[name] ?? dflt);
const SESSIONS = arg(0, 'BENCH_SESSIONS', 1000);
const REPLICAS = arg(1, 'BENCH_REPLICAS', 3);
const ROUNDS = arg(2, 'BENCH_ROUNDS', 4);
/**
 * Sessions a replica may hold (SESSION_MAX_PER_PROCESS): the survivors must hold a dead replica's sessions too, so
 * more than SESSIONS / (REPLICAS − 1); the shipped 400 is Baileys' (a sandbox session costs less than half).
 */
const MAX_PER_REPLICA = arg(3, 'BENCH_MAX_PER_REPLICA', 600);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432';
const COMPANY = 1;
for (const [k, v] of Object.entries({ SESSIONS, REPLICAS, ROUNDS, MAX_PER_REPLICA }))
  if (!Number.isInteger(v) || v < 1) throw new Error(`bad ${k}: ${v}`);
if (REPLICAS < 2) throw new Error('a failover needs at least 2 replicas');
if (MAX_PER_REPLICA * (REPLICAS - 1) < SESSIONS)
  throw new Error(`${REPLICAS - 1} replicas of ${MAX_PER_REPLICA} cannot hold ${SESSIONS} sessions`);

const log = (s) => process.stderr.write(`bench:sessions: ${s}\n`);
const out = (s) => process.stdout.write(`${s}\n`);
const bench = benchRun('sessions', log);
const MB = 1024 * 1024;
const names = Array.from({ length: REPLICAS }, (_, i) => `whatsapp-sessions-${i}`);
const rssOf = (pid) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;

async function main() {
  const load0 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const dbUrl = await recreateDatabase(PG_URL, 'wa_bench_sessions');
  const natsUrl = await bench.startNats('');
  const redisUrl = await bench.startRedis('');
  await declareOthersStreams(natsUrl, bench.natsPasswords);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  const redis = new Redis(redisUrl);
  const nc = await connect({ servers: natsUrl, user: 'operator', pass: bench.natsPasswords.operator });
  const js = nc.jetstream();
  const jsm = await nc.jetstreamManager();
  const { signAccessToken } = await import('../../libs/auth/dist/index.js');
  const token = signAccessToken({ id: 1, companyId: COMPANY, profile: 'admin', super: false, sid: randomUUID() }, bench.jwtSecret);
  try {
    // the replicas, empty
    const replicas = [];
    for (const name of names) {
      replicas.push(
        await bench.startService(
          'whatsapp-sessions',
          await freePort(),
          {
            DATABASE_URL: dbUrl,
            NATS_URL: natsUrl,
            AUTH_URL: 'http://127.0.0.1:9', // asked only when a connection is created through the API: never here
            SESSION_OWNER_ID: name,
            SESSION_MAX_PER_PROCESS: String(MAX_PER_REPLICA),
          },
          redisUrl,
        ),
      );
    }
    await sleep(3000);
    const idleRss = replicas.map((r) => rssOf(r.child.pid));

    // cold: SESSIONS connections at once
    const t0 = Date.now();
    const { rows } = await db.query(
      `INSERT INTO whatsapp.connections ("companyId", name, channel, status)
       SELECT $1, 'bench ' || i, 'sandbox', 'OPENING' FROM generate_series(1, $2::int) AS i RETURNING id`,
      [COMPANY, SESSIONS],
    );
    const ids = rows.map((r) => r.id);
    const connected = async () =>
      (await db.query(`SELECT count(*)::int AS n FROM whatsapp.connections WHERE status = 'CONNECTED'`)).rows[0].n;
    await until(async () => (await connected()) === SESSIONS, 600);
    const coldS = (Date.now() - t0) / 1000;
    const holders = async () => redis.mget(...ids.map((id) => `wa:session:lease:${id}`));
    // settled: every session on the replica it prefers (those taken elsewhere after the grace handed back), so that
    // nothing moves but what the failover moves
    const { preferredReplica } = await import('../../services/whatsapp-sessions/dist/runtime/replicas.js');
    const targets = names.map((name) => ({ name, capacity: MAX_PER_REPLICA }));
    await until(async () => (await holders()).every((h, i) => h === preferredReplica(ids[i], targets)), 300);
    const settledS = (Date.now() - t0) / 1000;
    await sleep(3000);
    const spread = count(await holders());
    const rss = replicas.map((r) => rssOf(r.child.pid));
    log(
      `cold: all ${SESSIONS} CONNECTED in ${fmt(coldS, 1)} s, each on its preferred replica after ${fmt(settledS, 1)} s; ` +
        `spread ${names.map((n) => spread.get(n) ?? 0).join(' / ')}`,
    );

    // failover: traffic both ways while the busiest replica is SIGKILLed
    const victim = names.reduce((a, b) => ((spread.get(b) ?? 0) > (spread.get(a) ?? 0) ? b : a));
    const before = await holders();
    const moved = ids.filter((_, i) => before[i] === victim);
    const victimProc = replicas[names.indexOf(victim)];
    const survivors = replicas.filter((r) => r !== victimProc);
    const customers = new Map(ids.map((id) => [id, `5511${String(900_000_000 + id).slice(-9)}`]));
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    let turn = 0;
    const inbound = async (id, k) => {
      for (;;) {
        const base = survivors[turn++ % survivors.length].url;
        const res = await jsonRequest(agent, base, 'POST', `/whatsappsession/${id}/sandbox/inbound`, {
          token,
          body: { from: customers.get(id), body: `m${k}`, id: `BENCH${id}R${k}` },
        }).catch((err) => ({ status: 0, body: String(err) }));
        if (res.status === 202) return;
        await sleep(200);
      }
    };
    const replies = [];
    const reply = async (id, k) => {
      const waMessageId = `3EB0B${id}R${k}${randomBytes(3).toString('hex')}`.toUpperCase();
      replies.push(waMessageId);
      const send = {
        companyId: COMPANY,
        connectionId: id,
        waMessageId,
        to: customers.get(id),
        body: `resposta ${k}`,
        ticketId: 1,
        messageId: 1,
      };
      const h = natsHeaders();
      h.set('Nats-Msg-Id', `out:${waMessageId}`);
      await js.publish(`wa.outbound.send.${id}`, JSON.stringify(send), { headers: h });
    };
    const limit = async (items, n, fn) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: n }, async () => {
          while (next < items.length) await fn(items[next++]);
        }),
      );
    };
    let killedAt = 0;
    let failoverS = NaN;
    const watch = (async () => {
      while (!killedAt) await sleep(20);
      await until(
        async () => {
          const h = await holders();
          if (!moved.every((id) => h[ids.indexOf(id)] && h[ids.indexOf(id)] !== victim)) return false;
          const { rows: r } = await db.query(
            `SELECT count(*)::int AS n FROM whatsapp.connections WHERE id = ANY($1::int[]) AND status = 'CONNECTED' AND "updatedAt" > $2`,
            [moved, new Date(killedAt)],
          );
          return r[0].n === moved.length;
        },
        120,
        100,
      );
      failoverS = (Date.now() - killedAt) / 1000;
    })();
    for (let k = 1; k <= ROUNDS; k++) {
      if (k === 2) {
        victimProc.child.kill('SIGKILL');
        killedAt = Date.now();
        log(`failover: ${victim} (holding ${moved.length}) SIGKILLed`);
      }
      const r0 = Date.now();
      await limit(ids, 16, async (id) => {
        await inbound(id, k);
        await reply(id, k);
      });
      log(`round ${k}: ${SESSIONS} messages in and ${SESSIONS} replies asked in ${fmt((Date.now() - r0) / 1000, 1)} s`);
    }
    await watch;
    log(`failover: every session of ${victim} CONNECTED elsewhere ${fmt(failoverS, 1)} s after its SIGKILL`);

    // lost or doubled: customers' messages on the WA stream (one subject per connection and customer), replies in the outbox
    let lostIn = 0;
    let doubledIn = 0;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const info = await jsm.streams.info('WA', { subjects_filter: `wa.inbound.${COMPANY}.>` });
      const subjects = info.state.subjects ?? {};
      lostIn = 0;
      doubledIn = 0;
      for (const id of ids) {
        const n = subjects[`wa.inbound.${COMPANY}.${id}.${customers.get(id)}`] ?? 0;
        if (n < ROUNDS) lostIn += ROUNDS - n;
        if (n > ROUNDS) doubledIn += n - ROUNDS;
      }
      if (lostIn === 0 || Date.now() > deadline) break;
      await sleep(1000);
    }
    let lostOut = 0;
    let doubledOut = 0;
    let transmittedAgain = 0;
    for (;;) {
      const { rows: sent } = await db.query(
        `SELECT "waMessageId", count(*)::int AS n, sum(transmissions)::int AS t
           FROM whatsapp.sandbox_outbox WHERE "waMessageId" = ANY($1::varchar[]) AND kind = 'send' GROUP BY 1`,
        [replies],
      );
      lostOut = replies.length - sent.length;
      doubledOut = sent.reduce((d, r) => d + r.n - 1, 0);
      transmittedAgain = sent.reduce((d, r) => d + r.t - 1, 0);
      if (lostOut === 0 || Date.now() > deadline) break;
      await sleep(1000);
    }
    const after = count(await holders());

    out('');
    out(`# whatsapp-sessions on ${REPLICAS} replicas, ${fmt(SESSIONS)} sandbox sessions (load before: ${load0})`);
    out('');
    out(`| figure | value |`);
    out(`|---|---:|`);
    out(`| SESSION_MAX_PER_PROCESS | ${fmt(MAX_PER_REPLICA)} |`);
    out(`| all CONNECTED from cold | ${fmt(coldS, 1)} s |`);
    out(`| each on its preferred replica (the ones taken elsewhere after the grace handed back) | ${fmt(settledS, 1)} s |`);
    out(`| spread (sessions per replica) | ${names.map((n) => fmt(spread.get(n) ?? 0)).join(' / ')} |`);
    out(`| RSS per replica idle | ${idleRss.map((b) => `${fmt(b / MB)} MB`).join(' / ')} |`);
    out(`| RSS per replica with its sessions | ${rss.map((b) => `${fmt(b / MB)} MB`).join(' / ')} |`);
    out(`| RSS per session | ${fmt((rss.reduce((a, b) => a + b, 0) - idleRss.reduce((a, b) => a + b, 0)) / SESSIONS / 1024, 1)} kB |`);
    out(`| SIGKILLed replica held | ${fmt(moved.length)} sessions |`);
    out(`| its sessions all CONNECTED elsewhere after | ${fmt(failoverS, 1)} s (target ≤ 30 s) |`);
    out(`| spread after | ${names.map((n) => fmt(after.get(n) ?? 0)).join(' / ')} |`);
    out(`| customer messages written (${ROUNDS} rounds) | ${fmt(SESSIONS * ROUNDS)}: ${fmt(lostIn)} lost, ${fmt(doubledIn)} doubled |`);
    out(`| replies asked | ${fmt(replies.length)}: ${fmt(lostOut)} lost, ${fmt(doubledOut)} twice on the customer's phone |`);
    out(
      `| replies transmitted again (on the wire at the kill, not yet marked sent; WhatsApp delivers an id once) | ${fmt(transmittedAgain)} |`,
    );
    agent.destroy();
  } finally {
    await nc.close();
    redis.disconnect();
    await db.end();
  }
}

function count(values) {
  const m = new Map();
  for (const v of values) m.set(v ?? 'none', (m.get(v ?? 'none') ?? 0) + 1);
  return m;
}

/** Polls `done` every `everyMs` until it holds; fails after `timeoutS`. */
async function until(done, timeoutS, everyMs = 250) {
  const deadline = Date.now() + timeoutS * 1000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutS} s`);
    await sleep(everyMs);
  }
}

bench.run(main);
