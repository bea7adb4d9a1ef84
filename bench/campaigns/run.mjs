#!/usr/bin/env node
// Campaigns benchmark (issue 40): a 100,000-row .xlsx imported into a contact list, a campaign started on it, and one
// connection paced at a floor of 10 ms for 10,000 sends, through the real services and the sandbox phone.
//
//   npm run bench:campaigns [-- ROWS [SENDS]]     (or BENCH_ROWS, default 100000; BENCH_SENDS, default 10000)
//
//   BENCH_FLOOR_MS   the platform floor given to campaigns as CAMPAIGN_MIN_GAP_MS (10); the company's intervals are 0
//   BENCH_PG_URL     the PostgreSQL server (postgres://postgres:postgres@127.0.0.1:5432)
//
// Starts the product as processes (bench/lib/product.mjs: fresh `wa_bench_campaigns` database, private NATS with the
// shipped nats.conf and Redis, NODE_ENV=production) and campaigns beside it. Then
//   import:  writes a ROWS-row .xlsx (nome, numero, email; 13-digit numbers) with ExcelJS, POSTs it to
//            /contact-lists/<id>/upload and waits until every row is stored; prints the time to the 202, the rows/s
//            stored and the campaigns process's peak resident memory (VmHWM) and its resident memory after;
//   start:   creates a campaign on the list with scheduledAt now; prints how long until its audience is frozen (a
//            shipping row per item) and until its first send is on the phone (target ≤ 10 s);
//   pacing:  waits for SENDS sends of it on the phone, then cancels it; prints sends/s, how far each send came
//            after its planned slot (the gap between two sends on the phone minus the floor: p50/p99/max), the resident
//            memory of campaigns sampled through the run (first/middle/last), and any number sent twice.
// Exits 1 when a number got the campaign twice.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import ExcelJS from 'exceljs';
import {
  benchRun,
  createCompany,
  ensureBuilt,
  fmt,
  freePort,
  jsonRequest,
  percentile,
  recreateDatabase,
  sandboxCompany,
  sleep,
} from '../lib/product.mjs';

const arg = (i, name, dflt) => Number(process.argv[2 + i] ?? process.env[name] ?? dflt);
const ROWS = arg(0, 'BENCH_ROWS', 100_000);
const SENDS = arg(1, 'BENCH_SENDS', 10_000);
const FLOOR_MS = Number(process.env.BENCH_FLOOR_MS ?? 10);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432';

const log = (s) => process.stderr.write(`bench:campaigns: ${s}\n`);
const out = (s) => process.stdout.write(`${s}\n`);
const bench = benchRun('campaigns', log);
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const request = (base, method, path, opts) => jsonRequest(agent, base, method, path, opts);

/** Resident and peak resident memory of a process (MB). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function xlsxOf(rows) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Contatos');
  sheet.addRow(['nome', 'numero', 'email']);
  for (let i = 0; i < rows; i++) sheet.addRow([`Cliente ${i}`, `55119${String(80_000_000 + i).padStart(8, '0')}`, `c${i}@bench.local`]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A multipart POST of one file (field `file`). */
function upload(base, path, token, buffer, name) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
  );
  const body = Buffer.concat([head, buffer, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': body.length,
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** p50 and p99 (as bucket bounds, ms) of campaign_send_lateness_seconds on the service's /metrics. */
async function pacerLateness(base) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const buckets = [...text.matchAll(/^campaign_send_lateness_seconds_bucket\{le="([^"]+)"[^}]*\} (\d+)/gm)].map((m) => ({
    le: m[1] === '+Inf' ? Infinity : Number(m[1]) * 1000,
    n: Number(m[2]),
  }));
  const count = buckets.at(-1)?.n ?? 0;
  const at = (p) => buckets.find((b) => b.n >= (p / 100) * count)?.le ?? NaN;
  return { count, p50: at(50), p99: at(99) };
}

async function main() {
  ensureBuilt(log);
  const dbUrl = await recreateDatabase(PG_URL, 'wa_bench_campaigns');
  const admin = await createCompany(dbUrl);
  const natsUrl = await bench.startNats('');
  const redisUrl = await bench.startRedis('');
  const { gateway, auth, tickets } = await bench.startProduct({ dbUrl, natsUrl, redisUrl });
  const campaigns = await bench.startService(
    'campaigns',
    await freePort(),
    { DATABASE_URL: dbUrl, NATS_URL: natsUrl, AUTH_URL: auth.url, TICKETS_URL: tickets.url, CAMPAIGN_MIN_GAP_MS: String(FLOOR_MS) },
    redisUrl,
  );
  const db = new pg.Pool({ connectionString: dbUrl, max: 2 });
  const one = async (sql, params) => (await db.query(sql, params)).rows[0];
  const company = await sandboxCompany({ request, gatewayUrl: gateway.url, adminUser: admin, jwtSecret: bench.jwtSecret });
  const token = company.token();
  const api = (method, path, body) => request(campaigns.url, method, path, { token: company.token(), body });
  const connectionId = company.connectionId;
  for (let i = 0; ; i++) {
    const c = await one(`SELECT status FROM campaigns.connections WHERE id = $1`, [connectionId]);
    if (c?.status === 'CONNECTED') break;
    if (i > 200) throw new Error('campaigns never heard the connection is up');
    await sleep(100);
  }
  const settings = await api('POST', '/campaign-settings', {
    settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [] },
  });
  if (settings.status >= 300) throw new Error(`settings: ${settings.status} ${JSON.stringify(settings.body)}`);

  // ---- import -------------------------------------------------------------------------------------
  log(`writing a ${fmt(ROWS)}-row .xlsx…`);
  const file = await xlsxOf(ROWS);
  const list = await api('POST', '/contact-lists', { name: 'Bench' });
  if (list.status !== 201) throw new Error(`list: ${list.status}`);
  const listId = list.body.id;
  const before = memoryOf(campaigns.child.pid);
  const t0 = Date.now();
  const accepted = await upload(campaigns.url, `/contact-lists/${listId}/upload`, token, file, 'bench.xlsx');
  const answeredMs = Date.now() - t0;
  if (accepted.status !== 202) throw new Error(`upload: ${accepted.status} ${accepted.body}`);
  let stored = 0;
  while (stored < ROWS) {
    stored = Number((await one(`SELECT count(*)::int AS n FROM campaigns.contact_list_items WHERE "contactListId" = $1`, [listId])).n);
    if (Date.now() - t0 > 600_000) throw new Error(`import stuck at ${stored}`);
    if (stored < ROWS) await sleep(250);
  }
  const importMs = Date.now() - t0;
  const afterImport = memoryOf(campaigns.child.pid);
  out(`import of ${fmt(ROWS)} rows (${fmt(file.length / 1024 / 1024, 1)} MB .xlsx):`);
  out(`  202 after ${fmt(answeredMs)} ms; all stored after ${fmt(importMs / 1000, 1)} s: ${fmt(ROWS / (importMs / 1000))} rows/s`);
  out(`  campaigns memory: resident ${fmt(before.rss)} MB before, peak ${fmt(afterImport.peak)} MB, ${fmt(afterImport.rss)} MB after`);

  // ---- start --------------------------------------------------------------------------------------
  const s0 = Date.now();
  const created = await api('POST', '/campaigns', {
    name: 'Bench',
    message1: 'bench-campaign {nome}',
    whatsappId: connectionId,
    contactListId: listId,
    scheduledAt: new Date().toISOString(),
  });
  if (created.status !== 201) throw new Error(`campaign: ${created.status} ${JSON.stringify(created.body)}`);
  const campaignId = created.body.id;
  let frozenMs = null;
  let firstMs = null;
  while (firstMs === null) {
    if (frozenMs === null) {
      const n = Number((await one(`SELECT count(*)::int AS n FROM campaigns.shippings WHERE "campaignId" = $1`, [campaignId])).n);
      if (n >= ROWS) frozenMs = Date.now() - s0;
    }
    const sent = await one(`SELECT 1 AS x FROM whatsapp.sandbox_outbox WHERE "connectionId" = $1 AND body LIKE 'bench-campaign%' LIMIT 1`, [
      connectionId,
    ]);
    if (sent) firstMs = Date.now() - s0;
    if (Date.now() - s0 > 120_000) throw new Error('the campaign did not start');
    if (firstMs === null) await sleep(50);
  }
  frozenMs ??= Date.now() - s0;
  out(
    `start on ${fmt(ROWS)} contacts: audience frozen after ${fmt(frozenMs / 1000, 2)} s, first send on the phone after ${fmt(firstMs / 1000, 2)} s (target ≤ 10 s)`,
  );

  // ---- pacing -------------------------------------------------------------------------------------
  const p0 = Date.now();
  const rss = [];
  let onPhone = 0;
  while (onPhone < SENDS) {
    onPhone = Number(
      (
        await one(`SELECT count(*)::int AS n FROM whatsapp.sandbox_outbox WHERE "connectionId" = $1 AND body LIKE 'bench-campaign%'`, [
          connectionId,
        ])
      ).n,
    );
    rss.push(memoryOf(campaigns.child.pid).rss);
    if (Date.now() - p0 > 1_800_000) throw new Error(`pacing stuck at ${onPhone}`);
    if (onPhone < SENDS) await sleep(1000);
  }
  const paceMs = Date.now() - p0;
  await api('POST', `/campaigns/${campaignId}/cancel`);
  await sleep(2000);
  const times = (
    await db.query(
      `SELECT (extract(epoch FROM "sentAt") * 1000)::float8 AS at FROM whatsapp.sandbox_outbox
        WHERE "connectionId" = $1 AND body LIKE 'bench-campaign%' ORDER BY "sentAt"`,
      [connectionId],
    )
  ).rows.map((r) => Number(r.at));
  const late = times
    .slice(1)
    .map((t, i) => Math.max(0, t - times[i] - FLOOR_MS))
    .sort((a, b) => a - b);
  const twice = Number(
    (
      await one(
        `SELECT count(*)::int AS n FROM (SELECT "to" FROM whatsapp.sandbox_outbox WHERE "connectionId" = $1 AND body LIKE 'bench-campaign%'
          GROUP BY "to" HAVING count(*) > 1) d`,
        [connectionId],
      )
    ).n,
  );
  const below = times.slice(1).filter((t, i) => t - times[i] < FLOOR_MS - 2).length;
  out(
    `pacing at a floor of ${FLOOR_MS} ms: ${fmt(times.length)} sends in ${fmt(paceMs / 1000, 1)} s: ${fmt(SENDS / (paceMs / 1000), 1)} sends/s`,
  );
  out(
    `  after the planned slot (gap on the phone − floor): p50 ${fmt(percentile(late, 50), 1)} ms, p99 ${fmt(percentile(late, 99), 1)} ms, max ${fmt(late.at(-1) ?? 0)} ms; gaps under the floor: ${below}`,
  );
  const pacer = await pacerLateness(campaigns.url);
  out(
    `  handed to the lane after the planned slot (the pacer's own clock, /metrics): p50 ≤ ${pacer.p50} ms, p99 ≤ ${pacer.p99} ms (${fmt(pacer.count)} sends)`,
  );
  out(`  campaigns resident memory while pacing: ${fmt(rss[0])} → ${fmt(rss[Math.floor(rss.length / 2)])} → ${fmt(rss.at(-1))} MB`);
  out(`  numbers sent twice: ${twice}`);
  await db.end();
  if (twice > 0) throw new Error(`${twice} numbers got the campaign twice`);
}

await bench.run(main);
