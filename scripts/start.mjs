#!/usr/bin/env node
// `npm start`: the whole product on this machine.
// dependencies → infrastructure → build → migrations → demo seed → every service → URLs and demo login.
// Ctrl-C stops every service cleanly (SIGTERM, then SIGKILL after 25 s).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDependencies, localEnv, root, run, say, SERVICES } from './lib/run.mjs';

const P = 'start';
const started = Date.now();
ensureDependencies(P);

const { ensureInfra } = await import('./infra.mjs');
try {
  await ensureInfra({ quiet: true });
} catch (err) {
  if (!err.infraReported) say(P, err.message);
  process.exit(1);
}

const env = { NODE_ENV: 'development', ...localEnv() };
say(P, 'building…');
if ((await run(join(root, 'node_modules/.bin/nx'), ['run-many', '-t', 'build', '--projects=tag:scope:service', '--outputStyle=dynamic-legacy'], { env })) !== 0) {
  say(P, 'build failed');
  process.exit(1);
}
const { migrateAll } = await import('./migrate.mjs');
if ((await migrateAll(env)) > 0) process.exit(1);
// demo data: the company and its admin, a queue, a sandbox connection; each seed passes on what the next needs
for (const svc of ['auth', 'tickets', 'whatsapp-sessions']) {
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

for (const svc of SERVICES) {
  const log = createWriteStream(join(logDir, `${svc.name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [join(root, 'services', svc.name, 'dist/main.js')], {
    cwd: root,
    env: { ...env, PORT: String(svc.port) },
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

async function healthy(port) {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) })).status === 200;
  } catch {
    return false;
  }
}

const deadline = Date.now() + 60_000;
const pending = new Set(SERVICES.map((s) => s.name));
while (pending.size > 0 && Date.now() < deadline && !stopping) {
  for (const svc of SERVICES) if (pending.has(svc.name) && (await healthy(svc.port))) pending.delete(svc.name);
  if (pending.size > 0) await new Promise((r) => setTimeout(r, 300));
}
if (pending.size > 0) say(P, `not healthy after 60 s: ${[...pending].join(', ')} (logs in .run/logs/)`);

const email = env.SEED_ADMIN_EMAIL ?? 'admin@admin.com';
const password = env.SEED_ADMIN_PASSWORD ?? '123456';
process.stdout.write(`
  Conversa is running (${((Date.now() - started) / 1000).toFixed(1)} s)

  API           http://localhost:8080
  API docs      http://localhost:8080/docs
  Live socket   ws://localhost:8080/socket.io
  Web app       not part of this build yet (the console arrives with the web issue)
  Demo login    ${email} / ${password}
  Sandbox       connection ${env.SEED_CONNECTION_ID ?? '?'} (a stand-in phone, not WhatsApp): inject a customer's message with
                POST http://localhost:8080/whatsappsession/${env.SEED_CONNECTION_ID ?? '<id>'}/sandbox/inbound {"from","name","body"}

  Logs: .run/logs/<service>.log   Stop: Ctrl-C
`);

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
