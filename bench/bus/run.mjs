#!/usr/bin/env node
// Event-bus benchmark: JetStream publish -> durable consume -> PostgreSQL commit -> ack.
//
//   npm run bench:bus [-- N]        (N also from BENCH_N; default 100000)
//
// Needs the built library (npx tsc -p libs/event-bus/tsconfig.json), NATS with JetStream
// (NATS_URL, default nats://127.0.0.1:4222) and PostgreSQL (BENCH_PG_URL, default
// postgres://postgres:postgres@127.0.0.1:5432/wa_test; the database is created if missing,
// schema `bench` is dropped and recreated).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { EventBus } from '../../libs/event-bus/dist/index.js';

const N = Number(process.argv[2] ?? process.env.BENCH_N ?? 100_000);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa_test';
const PUBLISH_WINDOW = Number(process.env.BENCH_WINDOW ?? 512); // publishes in flight
const CONCURRENCY = 8; // lanes
const BATCH = 100; // max events per transaction
const POOL = 8;
const STEADY_RATE = Number(process.env.BENCH_RATE ?? 500); // events/s in phase 2
const STEADY_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONTACTS = 2000; // conversations

if (!Number.isInteger(N) || N < 1) throw new Error(`bad N: ${process.argv[2] ?? process.env.BENCH_N}`);

const now = () => performance.timeOrigin + performance.now(); // ms, sub-ms resolution
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (x, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const quiet = { info() {}, warn: (o, m) => console.warn('warn', m, o), error: (o, m) => console.error('error', m, o) };

async function ensureDatabase() {
  const url = new URL(PG_URL);
  const db = url.pathname.slice(1);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${db.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function main() {
  await ensureDatabase();
  const pool = new pg.Pool({ connectionString: PG_URL, max: POOL });
  await pool.query('DROP SCHEMA IF EXISTS bench CASCADE');
  await pool.query('CREATE SCHEMA bench');
  await pool.query(`CREATE TABLE bench.messages (
    msg_id        text PRIMARY KEY,
    company_id    int NOT NULL,
    connection_id int NOT NULL,
    contact       text NOT NULL,
    body          text NOT NULL,
    stream_seq    bigint NOT NULL,
    sent_at       double precision NOT NULL,
    stored_at     timestamptz NOT NULL DEFAULT now()
  )`);

  const sfx = randomBytes(3).toString('hex');
  const stream = { name: `BENCH_BUS_${sfx}`, subjects: [`benchbus${sfx}.>`] };
  const durable = `bench-store-${sfx}`;
  // publisher and consumer on their own connections, as two services would be
  const pub = await EventBus.connect({ servers: NATS_URL, name: 'bench-publisher', streams: [stream], logger: quiet });
  const sub = await EventBus.connect({ servers: NATS_URL, name: 'bench-consumer', streams: [stream], logger: quiet });

  let committed = 0;
  let lastCommit = 0;
  let batches = 0;
  let latencies = null; // phase 2 only
  const body = 'Olá! Gostaria de saber o horário de atendimento de vocês amanhã, por favor. Obrigado!';

  const handle = await sub.consume({
    stream: stream.name,
    durable,
    concurrency: CONCURRENCY,
    batchSize: BATCH,
    // conversation = company.connection.contact
    orderKey: (subject) => subject.slice(subject.indexOf('.inbound.') + 9),
    handler: async (batch) => {
      const ids = [],
        companies = [],
        connections = [],
        contacts = [],
        bodies = [],
        seqs = [],
        sent = [];
      for (const m of batch) {
        ids.push(m.msgId);
        companies.push(m.data.companyId);
        connections.push(m.data.connectionId);
        contacts.push(m.data.contact);
        bodies.push(m.data.body);
        seqs.push(m.streamSeq);
        sent.push(m.data.ts);
      }
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO bench.messages (msg_id, company_id, connection_id, contact, body, stream_seq, sent_at)
           SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], $6::bigint[], $7::float8[])
           ON CONFLICT (msg_id) DO NOTHING`,
          [ids, companies, connections, contacts, bodies, seqs, sent],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
      const t = now();
      if (latencies) for (const ts of sent) latencies.push(t - ts);
      committed += batch.length;
      batches++;
      lastCommit = t;
    },
  });

  const event = (i, phase) => {
    const contact = `55119${String(10_000_000 + (i % CONTACTS)).padStart(8, '0')}`;
    const companyId = 1 + (i % 7);
    const connectionId = 100 + (i % 3);
    const wamid = `wamid.${phase}${sfx}${i}`;
    return {
      subject: `benchbus${sfx}.wa.inbound.${companyId}.${connectionId}.${contact}`,
      msgId: `${connectionId}:${wamid}`,
      payload: { companyId, connectionId, contact, wamid, body, ts: now() },
    };
  };

  // ---- phase 1: throughput -------------------------------------------------------------
  console.log(
    `event-bus bench: N=${fmt(N)}, ${CONCURRENCY} lanes, batch <= ${BATCH}, pg pool ${POOL}, ${PUBLISH_WINDOW} publishes in flight`,
  );
  const t0 = now();
  let inflight = 0;
  let duplicates = 0;
  let wake = null;
  for (let i = 0; i < N; i++) {
    // refill the window in bursts (one socket write per burst, not one per publish)
    if (inflight >= PUBLISH_WINDOW) while (inflight > PUBLISH_WINDOW / 2) await new Promise((r) => (wake = r));
    const e = event(i, 'a');
    e.payload.ts = now();
    inflight++;
    pub.publish(e.subject, e.payload, { msgId: e.msgId }).then(
      (ack) => {
        if (ack.duplicate) duplicates++;
        inflight--;
        if (wake) {
          const w = wake;
          wake = null;
          w();
        }
      },
      (err) => {
        console.error('publish failed', err);
        process.exit(1);
      },
    );
  }
  while (inflight > 0) await new Promise((r) => (wake = r));
  const tPublished = now();
  while (committed < N) {
    if (now() - tPublished > 120_000) throw new Error(`only ${committed} of ${N} committed after 120 s`);
    await sleep(5);
  }
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM bench.messages');
  const pubSecs = (tPublished - t0) / 1000;
  const endToEndSecs = (lastCommit - t0) / 1000;
  console.log(`published : ${fmt(N)} in ${fmt(pubSecs, 2)} s = ${fmt(N / pubSecs)} events/s (duplicates ${duplicates})`);
  console.log(
    `handled   : ${fmt(committed)} in ${fmt(endToEndSecs, 2)} s (first publish -> last commit) = ${fmt(N / endToEndSecs)} events/s, ${fmt(batches)} transactions, avg ${fmt(committed / batches, 1)} events/tx`,
  );
  console.log(`rows      : ${fmt(rows[0].n)} stored, expected ${fmt(N)} -> ${rows[0].n === N ? 'OK' : 'MISMATCH'}`);

  // ---- phase 2: latency at a steady offered load --------------------------------------
  await sleep(500);
  latencies = [];
  const total = STEADY_RATE * STEADY_SECONDS;
  const committedBefore = committed;
  const s0 = now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((now() - s0) / 1000) * STEADY_RATE));
    while (sent < due) {
      const e = event(sent++, 'b');
      e.payload.ts = now();
      pub.publish(e.subject, e.payload, { msgId: e.msgId }).catch((err) => {
        console.error('publish failed', err);
        process.exit(1);
      });
    }
    await sleep(1);
  }
  while (committed - committedBefore < total) {
    if (now() - s0 > STEADY_SECONDS * 1000 + 30_000) throw new Error('phase 2 did not complete');
    await sleep(5);
  }
  const sorted = latencies.sort((a, b) => a - b);
  const { rows: rows2 } = await pool.query('SELECT count(*)::int AS n FROM bench.messages');
  console.log(
    `latency   : ${fmt(total)} events at ${STEADY_RATE}/s over ${fmt((now() - s0) / 1000, 1)} s, publish -> commit: ` +
      `p50 ${fmt(percentile(sorted, 50), 2)} ms, p90 ${fmt(percentile(sorted, 90), 2)} ms, p99 ${fmt(percentile(sorted, 99), 2)} ms, max ${fmt(sorted[sorted.length - 1], 2)} ms`,
  );
  console.log(`rows      : ${fmt(rows2[0].n)} stored, expected ${fmt(N + total)} -> ${rows2[0].n === N + total ? 'OK' : 'MISMATCH'}`);

  await handle.stop();
  const jsm = await sub.connection.jetstreamManager();
  const ci = await jsm.consumers.info(stream.name, durable);
  if (ci.num_ack_pending !== 0 || ci.num_pending !== 0)
    console.log(`warning: consumer still has ${ci.num_ack_pending} unacked, ${ci.num_pending} pending`);
  await jsm.streams.delete(stream.name);
  await sub.close();
  await pub.close();
  await pool.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
