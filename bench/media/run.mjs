#!/usr/bin/env node
// Media benchmark: files both ways through the real services.
//
//   npm run bench:media [-- N [MB [CONCURRENCY]]]      (or BENCH_N, BENCH_MB, BENCH_CONCURRENCY)
//
// Starts the product as processes (bench/lib/product.mjs: fresh `wa_bench_media` database, private NATS
// with the shipped nats.conf and Redis, NODE_ENV=production, a media directory of its own), signs in through
// the gateway, makes a sandbox connection and connects the admin's socket. Then
//   received: N photos of MB MB each, as a phone sends them (multipart POST …/sandbox/inbound through the
//             gateway, CONCURRENCY at a time): call → the message's appMessage `create` on the socket;
//   sent:     N photos of MB MB sent by the agent in one conversation (multipart POST /messages/{ticketId}
//             through the gateway): call → 201 (stored, its send in the outbox) and call → ack 1 on the
//             socket (the sandbox phone received the bytes);
// and prints p50 / p99 of each, and the peak memory (VmHWM) of tickets and whatsapp-sessions after start
// and after each phase: files travel as streams, so the peak must not grow with MB × N.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
} from '../lib/product.mjs';
import { pngFile } from '../../libs/testing/dist/media-fixtures.js';

const arg = (i, name, dflt) => Number(process.argv[2 + i] ?? process.env[name] ?? dflt);
const N = arg(0, 'BENCH_N', 200);
const MB = arg(1, 'BENCH_MB', 1);
const CONCURRENCY = arg(2, 'BENCH_CONCURRENCY', 4);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432';

const now = () => performance.now();
const log = (s) => process.stderr.write(`bench:media: ${s}\n`);
const out = (s) => process.stdout.write(`${s}\n`);
const bench = benchRun('media', log);
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const request = (base, method, path, opts) => jsonRequest(agent, base, method, path, opts);

/** Peak and current resident memory of a process (MiB). */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { peak: kib('VmHWM') / 1024, now: kib('VmRSS') / 1024 };
}

/** `n` jobs, `concurrency` at a time. */
async function pool(n, concurrency, job) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        await job(i);
      }
    }),
  );
}

async function main() {
  ensureBuilt(log);
  const mediaDir = mkdtempSync(join(tmpdir(), 'wa-bench-media-files-'));
  const dbUrl = await recreateDatabase(PG_URL, 'wa_bench_media');
  const adminUser = await createCompany(dbUrl);
  const natsUrl = await bench.startNats('');
  const redisUrl = await bench.startRedis('');
  const { tickets, sessions, gateway } = await bench.startProduct({ dbUrl, natsUrl, redisUrl, env: { MEDIA_DIR: mediaDir } });
  const company = await sandboxCompany({ request, gatewayUrl: gateway.url, adminUser, jwtSecret: bench.jwtSecret });
  const { companyId, connectionId, socket } = company;
  const photo = pngFile({ size: 64, padTo: MB * 1024 * 1024 });
  const photoSha = createHash('sha256').update(photo).digest('hex');
  const watched = { tickets: tickets.child.pid, 'whatsapp-sessions': sessions.child.pid };
  const memoryRow = (label) =>
    `${label.padEnd(26)} ` +
    Object.entries(watched)
      .map(([name, pid]) => {
        const m = memory(pid);
        return `${name} peak ${fmt(m.peak, 1)} MiB (now ${fmt(m.now, 1)})`;
      })
      .join(', ');
  const memoryRows = [memoryRow('after start')];

  // what the admin's socket sees: created messages by body, acks by message id
  const created = new Map();
  const acked = new Map();
  socket.on(`company-${companyId}-appMessage`, (p) => {
    const at = now();
    if (p?.action === 'create' && p.message?.body) created.set(p.message.body, at);
    if (p?.message?.fromMe && p.message.ack >= 1 && !acked.has(p.message.id)) acked.set(p.message.id, at);
  });

  const post = async (path, form) => {
    const res = await fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${company.token()}` },
      body: form,
    });
    const body = await res.json();
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const form = (fields, field) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    f.append(field, new Blob([photo], { type: 'image/png' }), 'foto.png');
    return f;
  };
  const waitAll = async (what, done, timeoutMs = 120_000) => {
    const deadline = now() + timeoutMs;
    while (!done()) {
      if (now() > deadline) throw new Error(`timed out: ${what}`);
      await sleep(20);
    }
  };

  // ---- received ----------------------------------------------------------------------------------
  log(`received: ${N} photos of ${MB} MB, ${CONCURRENCY} at a time`);
  const run = randomBytes(3).toString('hex');
  const inStart = new Map();
  const tIn = now();
  await pool(N, CONCURRENCY, async (i) => {
    const caption = `in-${run}-${i}`;
    inStart.set(caption, now());
    await post(
      `/whatsappsession/${connectionId}/sandbox/inbound`,
      form({ from: `5511${900_000_000 + (i % 20)}`, name: `Cliente ${i % 20}`, body: caption }, 'media'),
    );
  });
  await waitAll('received photos on the socket', () => [...inStart.keys()].every((c) => created.has(c)));
  const inSecs = (now() - tIn) / 1000;
  const inLat = [...inStart].map(([c, t0]) => created.get(c) - t0).sort((a, b) => a - b);
  memoryRows.push(memoryRow(`after ${N} received`));

  // ---- sent --------------------------------------------------------------------------------------
  const customer = '5511988887777';
  await request(gateway.url, 'POST', `/whatsappsession/${connectionId}/sandbox/inbound`, {
    token: company.token(),
    body: { from: customer, name: 'Cliente envio', body: `oi ${run}` },
  });
  let ticket;
  for (let i = 0; !ticket && i < 100; i++) {
    const list = await request(gateway.url, 'GET', `/tickets?showAll=true&searchParam=${customer}`, { token: company.token() });
    ticket = list.body?.tickets?.[0];
    if (!ticket) await sleep(100);
  }
  if (!ticket) throw new Error('no ticket to send in');
  const accepted = await request(gateway.url, 'PUT', `/tickets/${ticket.id}`, { token: company.token(), body: { status: 'open' } });
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  log(`sent: ${N} photos of ${MB} MB, ${CONCURRENCY} at a time`);
  const outStart = new Map();
  const answered = [];
  const tOut = now();
  await pool(N, CONCURRENCY, async (i) => {
    const t0 = now();
    const message = await post(`/messages/${ticket.id}`, form({ body: `out-${run}-${i}` }, 'medias'));
    answered.push(now() - t0);
    outStart.set(message.id, t0);
  });
  await waitAll('acks of the sent photos', () => [...outStart.keys()].every((id) => acked.has(id)));
  const outSecs = (now() - tOut) / 1000;
  const ackLat = [...outStart].map(([id, t0]) => acked.get(id) - t0).sort((a, b) => a - b);
  answered.sort((a, b) => a - b);
  memoryRows.push(memoryRow(`after ${N} sent`));

  // the phone got every file whole
  let items = [];
  for (let page = 1; items.length < N; page++) {
    const res = await request(gateway.url, 'GET', `/whatsappsession/${connectionId}/sandbox/outbox?pageNumber=${page}`, {
      token: company.token(),
    });
    items = items.concat(res.body.items.filter((x) => x.media));
    if (!res.body.hasMore) break;
  }
  const whole = items.filter((x) => x.media.sha256 === photoSha).length;

  out(
    `media benchmark: ${N} photos of ${MB} MB (${fmt(photo.length)} bytes) each way, ${CONCURRENCY} calls in flight, through messaging-gateway`,
  );
  out(
    `received: call -> appMessage on the socket  p50 ${fmt(percentile(inLat, 50), 1)} ms   p99 ${fmt(percentile(inLat, 99), 1)} ms   (${fmt(N / inSecs, 1)} photos/s, ${fmt((N * MB) / inSecs, 1)} MB/s)`,
  );
  out(
    `sent:     call -> 201 (stored, in outbox)   p50 ${fmt(percentile(answered, 50), 1)} ms   p99 ${fmt(percentile(answered, 99), 1)} ms`,
  );
  out(
    `sent:     call -> ack 1 on the socket       p50 ${fmt(percentile(ackLat, 50), 1)} ms   p99 ${fmt(percentile(ackLat, 99), 1)} ms   (${fmt(N / outSecs, 1)} photos/s)`,
  );
  out(`files whole on the phone (SHA-256)       : ${whole} of ${N}`);
  for (const row of memoryRows) out(`memory ${row}`);
  socket.close();
  agent.destroy();
  rmSync(mediaDir, { recursive: true, force: true });
}

await bench.run(main);
