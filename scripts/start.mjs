#!/usr/bin/env node
// `npm start`: the whole product on this machine.
// dependencies → infrastructure → build → migrations → demo seed → every service → URLs and demo login.
// Ctrl-C stops every service cleanly (SIGTERM, then SIGKILL after 25 s).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { prepare, GATEWAY_PORT, localEnv, MAIL_PORT, MAIL_SMTP_PORT, root, run, say, serviceUrls, SERVICES, WEB_PORT } from './lib/run.mjs';
import { serviceNodeOptions } from './lib/service-runtime.mjs';

const P = 'start';
const started = Date.now();
if (!(await prepare(P))) {
  process.exit(1);
}
// voice notes are transcoded by ffmpeg (tickets): installed when missing
const { ensureFfmpeg } = await import('./lib/ffmpeg.mjs');
ensureFfmpeg(P);

// campaign sends at least 1 s apart on one connection here (production's floor is 5 s)
const env = { NODE_ENV: 'development', CAMPAIGN_MIN_GAP_MS: '1000', ...serviceUrls(), ...localEnv() };
say(P, 'building…');
const hasWeb = existsSync(join(root, 'web/project.json'));
const projects = hasWeb ? 'tag:scope:service,web' : 'tag:scope:service';
if (
  (await run(join(root, 'node_modules/.bin/nx'), ['run-many', '-t', 'build', `--projects=${projects}`, '--outputStyle=dynamic-legacy'], {
    env,
  })) !== 0
) {
  say(P, 'build failed');
  process.exit(1);
}
const { migrateAll } = await import('./migrate.mjs');
if ((await migrateAll(env)) > 0) process.exit(1);
// demo data: the company and its admin, a queue, a sandbox connection; each seed passes on what the next needs
for (const svc of ['billing', 'auth', 'tickets', 'whatsapp-sessions']) {
  const script = join(root, 'services', svc, 'dist/seed.js');
  if (!existsSync(script)) continue;
  const res = spawnSync(process.execPath, [script], { cwd: root, env, encoding: 'utf8' });
  process.stderr.write(res.stderr ?? '');
  for (const line of (res.stdout ?? '').split('\n')) {
    const m = /^(SEED_[A-Z_]+)=(\S+)$/.exec(line);
    if (m) env[m[1]] = m[2];
    else if (line) say(P, line);
  }
  if (res.status !== 0) process.exit(1);
}

const logDir = join(root, '.run/logs');
mkdirSync(logDir, { recursive: true });
const children = new Map();
let stopping = false;

// SESSIONS_REPLICAS=N: N whatsapp-sessions processes (`whatsapp-sessions-0` … on ports 3103, 3113, …), sharing the
// sessions as Kubernetes' replicas do; the gateway sends each call to the next in turn
const sessionsReplicas = Number(process.env.SESSIONS_REPLICAS ?? 1);
if (!Number.isInteger(sessionsReplicas) || sessionsReplicas < 1 || sessionsReplicas > 9) {
  say(P, `SESSIONS_REPLICAS must be a whole number from 1 to 9 (got ${process.env.SESSIONS_REPLICAS})`);
  process.exit(1);
}
const replicasOf = (s) =>
  s.name !== 'whatsapp-sessions'
    ? [s]
    : Array.from({ length: sessionsReplicas }, (_, i) => ({
        ...s,
        name: sessionsReplicas === 1 ? s.name : `${s.name}-${i}`,
        port: s.port + 10 * i,
        env: { SESSION_OWNER_ID: `${s.name}-${i}` },
      }));
const serviceProcesses = SERVICES.flatMap(replicasOf);
env.WHATSAPP_SESSIONS_URL = serviceProcesses
  .filter((s) => s.urlVar === 'WHATSAPP_SESSIONS_URL')
  .map((s) => `http://127.0.0.1:${s.port}`)
  .join(',');
const processes = [
  ...serviceProcesses.map((s) => ({
    ...s,
    service: true,
    script: join(root, 'services', s.urlVar === 'WHATSAPP_SESSIONS_URL' ? 'whatsapp-sessions' : s.name, 'dist/main.js'),
  })),
  ...(hasWeb ? [{ name: 'web', port: WEB_PORT, script: join(root, 'scripts/web-server.mjs') }] : []),
  // password-reset mail lands here (auth's SMTP_URL default is its SMTP port, 1025)
  { name: 'mail', port: MAIL_PORT, script: join(root, 'scripts/mail-catcher.mjs'), env: { MAIL_SMTP_PORT: String(MAIL_SMTP_PORT) } },
];
for (const svc of processes) {
  const log = createWriteStream(join(logDir, `${svc.name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [svc.script], {
    cwd: root,
    env: {
      ...env,
      ...(svc.env ?? {}),
      ...(svc.service ? { NODE_OPTIONS: serviceNodeOptions(undefined, svc.name) } : {}),
      PORT: String(svc.port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream.pipe(log, { end: false });
    // warnings and errors also reach the terminal
    stream.on('data', (chunk) => {
      for (const line of String(chunk).split('\n')) {
        if (!line) continue;
        let level = 30;
        try {
          level = JSON.parse(line).level ?? 30;
        } catch {
          level = 50;
        }
        if (level >= 40) process.stderr.write(`[${svc.name}] ${line}\n`);
      }
    });
  }
  child.on('exit', (code, signal) => {
    children.delete(svc.name);
    if (!stopping) say(P, `${svc.name} stopped unexpectedly (${signal ?? `exit ${code}`}); its log: .run/logs/${svc.name}.log`);
    if (stopping && children.size === 0) process.exit(0);
  });
  children.set(svc.name, child);
}

// Ctrl-C from the start on: a signal while the services come up stops them too (not only the script, leaving them
// running without it)
function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  say(P, `stopping ${children.size} services…`);
  for (const child of children.values()) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  }, 25_000).unref();
  if (children.size === 0) process.exit(0);
}
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));

/** A service's /health: ok, or why not (what it says is down, its status, or that it does not answer). */
async function health(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) });
    if (res.status === 200) return { ok: true };
    const body = await res.json().catch(() => null);
    const down = Object.entries(body?.details ?? body?.error ?? {})
      .filter(([, v]) => v && typeof v === 'object' && v.status && v.status !== 'up')
      .map(([k]) => k);
    return { ok: false, why: down.length ? `${down.join(', ')} down` : `HTTP ${res.status}` };
  } catch {
    return { ok: false, why: 'no answer' };
  }
}

const deadline = Date.now() + 60_000;
/** the services not healthy yet, with why (their last answer) */
const unhealthy = new Map(processes.map((s) => [s.name, 'no answer']));
while (unhealthy.size > 0 && Date.now() < deadline && !stopping) {
  for (const svc of processes) {
    if (!unhealthy.has(svc.name)) continue;
    const h = await health(svc.port);
    if (h.ok) unhealthy.delete(svc.name);
    else unhealthy.set(svc.name, children.has(svc.name) ? h.why : 'stopped');
  }
  if (unhealthy.size > 0) await new Promise((r) => setTimeout(r, 300));
}
const failedText = [...unhealthy].map(([name, why]) => `${name} (${why})`).join(', ');
if (unhealthy.size > 0 && !stopping) say(P, `not healthy after 60 s: ${failedText} (logs in .run/logs/)`);

const email = env.SEED_ADMIN_EMAIL ?? 'admin@admin.com';
const password = env.SEED_ADMIN_PASSWORD ?? '123456';
if (!stopping)
  process.stdout.write(`
  ${
    unhealthy.size === 0
      ? `Conversa is running (${((Date.now() - started) / 1000).toFixed(1)} s)`
      : `Conversa started, but ${unhealthy.size === 1 ? 'a service failed its' : `${unhealthy.size} services failed their`} health check: ${failedText}\n  (their logs: .run/logs/<service>.log; the rest answers)`
  }

  API           http://localhost:${GATEWAY_PORT}
  API docs      http://localhost:${GATEWAY_PORT}/docs
  Live socket   ws://localhost:${GATEWAY_PORT}/socket.io
  Web app       ${hasWeb ? `http://localhost:${WEB_PORT}` : 'not part of this build yet'}
  Demo login    ${email} / ${password}
  Local email   http://localhost:${MAIL_PORT} (password-reset codes; SMTP on 127.0.0.1:${MAIL_SMTP_PORT}, nothing leaves the machine)
  Sandbox       connection ${env.SEED_CONNECTION_ID ?? '?'} (a stand-in phone, not WhatsApp): inject a customer's message with
                POST http://localhost:${GATEWAY_PORT}/whatsappsession/${env.SEED_CONNECTION_ID ?? '<id>'}/sandbox/inbound {"from","name","body"}

  Sessions      ${sessionsReplicas} whatsapp-sessions replica${sessionsReplicas === 1 ? '' : 's'} (SESSIONS_REPLICAS=N npm start for more)
  Logs: .run/logs/<service>.log   Stop: Ctrl-C
`);
