#!/usr/bin/env node
// Web console figures, measured in Debian's Chromium (playwright-core):
//   1. gzip size of the JS the login page loads (before any interaction), and after a sign-in;
//   2. gzip size of the whole app (every web/dist/assets/*.js);
//   3. time from a cold load of /tickets (signed in, cache disabled) to the ticket list being usable
//      (its first card, or the no-tickets text, in the DOM), from navigation start.
//
//   node bench/web/run.mjs                 starts the product as `npm start` does (PORT_OFFSET 21000, its own
//                                          database wa_bench_web, Redis db 5, NATS on 25222) and stops it after
//   BENCH_WEB_URL=http://localhost:3000 BENCH_API_URL=http://localhost:8080 node bench/web/run.mjs
//                                          measures a product that is already running
//   BENCH_RUNS (default 7) cold loads; BENCH_TICKETS (default 40) conversations seeded through the sandbox.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { root, startProduct } from '../../web/e2e/support/product.mjs';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TICKETS = Number(process.env.BENCH_TICKETS ?? 40);
const ADMIN = { email: 'admin@admin.com', password: '123456' };
const LOGIN_TARGET_KB = 180;
const LIST_TARGET_MS = 1000;

const kb = (bytes) => bytes / 1000;
const fmtKb = (bytes) => `${kb(bytes).toFixed(1)} KB (${(bytes / 1024).toFixed(1)} KiB)`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

let product = null;
let webUrl = process.env.BENCH_WEB_URL;
let apiUrl = process.env.BENCH_API_URL;
if (!webUrl || !apiUrl) {
  process.stderr.write('bench: starting the product (npm start, PORT_OFFSET=21000)…\n');
  product = await startProduct({
    portOffset: 21000,
    databaseUrl: 'postgres://postgres:postgres@127.0.0.1:5432/wa_bench_web',
    redisUrl: 'redis://127.0.0.1:6379/5',
    natsPort: 25222,
  });
  ({ webUrl, apiUrl } = product);
}

async function call(path, { token, method = 'GET', body } = {}) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Conversations to show: TICKETS customers write in; half of them are accepted (the open tab, the default one). */
async function seed(token) {
  const { tickets } = await call('/tickets?status=open&showAll=true', { token });
  if (tickets.length >= TICKETS / 2) return;
  const connections = await call('/whatsapp', { token });
  const sandbox = connections.find((c) => c.channel === 'sandbox') ?? connections[0];
  const base = Date.now() % 1e6;
  for (let i = 0; i < TICKETS; i++) {
    await call(`/whatsappsession/${sandbox.id}/sandbox/inbound`, {
      token,
      method: 'POST',
      body: { from: `5511${String(base * 100 + i).padStart(9, '0')}`, name: `Cliente bench ${i}`, body: `Mensagem de teste número ${i}` },
    });
  }
  let pending = [];
  for (let i = 0; i < 80 && pending.length < TICKETS; i++) {
    await sleep(250);
    pending = (await call('/tickets?status=pending&showAll=true', { token })).tickets;
  }
  for (const t of pending.slice(0, TICKETS / 2)) await call(`/tickets/${t.id}`, { token, method: 'PUT', body: { status: 'open' } });
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ARGS });
try {
  // 1. the login page
  const loginCtx = await browser.newContext();
  const loginPage = await loginCtx.newPage();
  const scripts = new Map();
  const pendingBodies = [];
  loginPage.on('response', (r) => {
    if (r.request().resourceType() !== 'script') return;
    pendingBodies.push(
      r.body().then(
        (b) => scripts.set(r.url(), { raw: b.length, gzip: gzipSync(b).length }),
        () => undefined,
      ),
    );
  });
  await loginPage.goto(`${webUrl}/login`, { waitUntil: 'networkidle' });
  await loginPage.getByTestId('login-submit').waitFor();
  await sleep(500);
  await Promise.all(pendingBodies);
  const loginScripts = [...scripts.values()];
  const loginGzip = loginScripts.reduce((s, x) => s + x.gzip, 0);
  const loginRaw = loginScripts.reduce((s, x) => s + x.raw, 0);

  // … and what signing in adds (the session code, the layout, the ticket manager)
  await loginPage.getByTestId('login-email').fill(ADMIN.email);
  await loginPage.getByTestId('login-password').fill(ADMIN.password);
  await loginPage.getByTestId('login-submit').click();
  await loginPage.waitForURL(`${webUrl}/tickets`);
  await loginPage.locator('[data-testid=tickets-list][data-ready=true]').waitFor();
  await sleep(500);
  await Promise.all(pendingBodies);
  const signedInGzip = [...scripts.values()].reduce((s, x) => s + x.gzip, 0);
  // what a signed-in browser keeps (the token, the user as last seen, the preferences)
  const signedInState = await loginCtx.storageState();
  const token = await loginPage.evaluate(() => localStorage.getItem('token'));
  await loginCtx.close();

  // 2. the whole app
  const assets = join(root, 'web/dist/assets');
  const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
  const appGzip = files.reduce((s, f) => s + gzipSync(readFileSync(join(assets, f))).length, 0);
  const appRaw = files.reduce((s, f) => s + readFileSync(join(assets, f)).length, 0);

  // 3. cold loads of /tickets
  await seed(token);
  const times = [];
  const phases = [];
  for (let i = 0; i < RUNS; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 800 }, storageState: signedInState });
    await ctx.addInitScript(() => {
      // the moment the list shows its first card or its empty text
      const seen = () =>
        document.querySelector(
          '[data-testid=tickets-list] [data-testid=ticket-card], [data-testid=tickets-list] [data-testid=tickets-empty]',
        );
      new MutationObserver((_m, obs) => {
        if (seen()) {
          window.__listUsableAt = performance.now();
          obs.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.goto(`${webUrl}/tickets`);
    await page.waitForFunction(() => typeof window.__listUsableAt === 'number', null, { timeout: 30_000 });
    const at = await page.evaluate(() => window.__listUsableAt);
    const cards = await page.getByTestId('ticket-card').count();
    // where the time went: the app's user-timing marks (conversa:*)
    const marks = await page.evaluate(() =>
      Object.fromEntries(
        performance
          .getEntriesByType('mark')
          .filter((m) => m.name.startsWith('conversa:'))
          .map((m) => [m.name.slice(9), Math.round(m.startTime)]),
      ),
    );
    // how much of it was fetching: the JS files asked for before the list was usable, and when the last of them came in
    const fetched = await page.evaluate((usableAt) => {
      const js = performance.getEntriesByType('resource').filter((r) => /\.m?js(\?|$)/.test(r.name) && r.startTime < usableAt);
      return { files: js.length, lastIn: Math.round(Math.max(0, ...js.map((r) => r.responseEnd))) };
    }, at);
    times.push(at);
    phases.push({ ...marks, 'js-files': fetched.files, 'js-last-in': fetched.lastIn });
    process.stderr.write(`bench: cold load ${i + 1}/${RUNS}: ${at.toFixed(0)} ms (${cards} cards) ${JSON.stringify(marks)}\n`);
    await ctx.close();
  }

  // the floor of this machine: a cold load of the login page (React, Chakra, the router, i18n; no data)
  const loginTimes = [];
  for (let i = 0; i < RUNS; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 800 } });
    await ctx.addInitScript(() => {
      new MutationObserver((_m, obs) => {
        if (document.querySelector('[data-testid=login-submit]')) {
          window.__formAt = performance.now();
          obs.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.goto(`${webUrl}/login`);
    await page.waitForFunction(() => typeof window.__formAt === 'number', null, { timeout: 30_000 });
    loginTimes.push(await page.evaluate(() => window.__formAt));
    await ctx.close();
  }

  const med = median(times);
  const phase = (name) => median(phases.map((p) => p[name]).filter((v) => typeof v === 'number'));
  const ok = (b) => (b ? 'ok' : 'OVER TARGET');
  process.stdout.write(`
Web console figures (Chromium ${browser.version()}, ${webUrl})

  login page JS (gzip, before interaction)   ${fmtKb(loginGzip)} in ${loginScripts.length} files (raw ${fmtKb(loginRaw)})   target ≤ ${LOGIN_TARGET_KB} KB: ${ok(kb(loginGzip) <= LOGIN_TARGET_KB)}
  JS after signing in to /tickets (gzip)     ${fmtKb(signedInGzip)}
  whole app JS (gzip, web/dist/assets/*.js)  ${fmtKb(appGzip)} in ${files.length} files (raw ${fmtKb(appRaw)})
  /tickets cold load → list usable           median ${med.toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms over ${RUNS} loads   target ≤ ${LIST_TARGET_MS} ms: ${ok(med <= LIST_TARGET_MS)}
      (for scale, the same cold load of /login to its form: median ${median(loginTimes).toFixed(0)} ms)
      (medians: theme built ${phase('theme')} ms, app code running ${phase('main')} ms, signed-in code ${phase('layout-code')} ms, list data ${phase('tickets-list')} ms)
      (medians: ${phase('js-files')} JS files fetched before the list was usable, the last one in at ${phase('js-last-in')} ms)
  load average while measuring: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${cpus().length} cores
`);
} finally {
  await browser.close();
  if (product) await product.stop();
}
