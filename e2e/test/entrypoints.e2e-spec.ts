import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HttpClient, randomIp, TEST_DATABASE_URL, waitFor } from '@wa/testing';
import { Redis } from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataSource } from 'typeorm';
import { parseAllDocuments } from 'yaml';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { billingDatabase } from '../../services/billing/src/database/data-source.js';
import { campaignsDatabase } from '../../services/campaigns/src/database/data-source.js';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { whatsappDatabase } from '../../services/whatsapp-sessions/src/database/data-source.js';
import { startShippedNats, type PrivateNats } from './nats-server.js';
import { freePort } from './processes.js';

/**
 * The container deploys as shipped, without Docker: on a fresh database, each service's k8s init container
 * command (its migrations), the first-super-user Job's command, then the image's CMD of every service, each
 * as a plain process from the repository root (the images' /app), with the environment its manifests give it
 * (ConfigMap, Dockerfile ENV, NODE_ENV=production) and real secrets. Only what names the cluster is replaced
 * by this machine's: hosts, ports, the database, Redis and NATS addresses.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
type Obj = Record<string, any>;

const SERVICES = ['auth', 'tickets', 'whatsapp-sessions', 'campaigns', 'billing', 'realtime-gateway', 'messaging-gateway'];
const SCHEMAS: Record<string, string> = {
  auth: authDatabase('x').schema,
  tickets: ticketsDatabase('x').schema,
  'whatsapp-sessions': whatsappDatabase('x').schema,
  campaigns: campaignsDatabase('x').schema,
  billing: billingDatabase('x').schema,
};
const UPSTREAMS: Record<string, string> = {
  AUTH_URL: 'auth',
  TICKETS_URL: 'tickets',
  WHATSAPP_SESSIONS_URL: 'whatsapp-sessions',
  CAMPAIGNS_URL: 'campaigns',
  BILLING_URL: 'billing',
  REALTIME_URL: 'realtime-gateway',
};
const REDIS_URL = 'redis://127.0.0.1:6379/7';
const SUPER = { email: `root-${Date.now()}@example.com`, password: randomBytes(12).toString('base64url') };

const yamlDocs = (path: string): Obj[] => parseAllDocuments(readFileSync(join(root, path), 'utf8')).map((d) => d.toJS() as Obj);
const manifests = new Map(SERVICES.map((s) => [s, yamlDocs(`k8s/base/${s}.yaml`)]));
const deploymentOf = (s: string) => manifests.get(s)!.find((o) => o.kind === 'Deployment')!;

/** The service stage of deploy/Dockerfile: its ENV (with SERVICE set) and its CMD. */
function image(service: string): { env: Record<string, string>; cmd: string[] } {
  const dockerfile = readFileSync(join(root, 'deploy/Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const stage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of stage.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const m of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[m[1]] = m[2].replace('${SERVICE}', service);
  }
  const cmd = JSON.parse(stage.split('\n').find((l) => l.startsWith('CMD '))!.slice(4)) as string[];
  return { env, cmd };
}

let database: string;
let databaseUrl: string;
let nats: PrivateNats;
const secrets: Record<string, string> = {};
const children: ChildProcess[] = [];
const outputs = new Map<string, string>();

/** What a container of `service` gets: its ConfigMap, the Secret keys it references, and the overrides. */
function containerEnv(service: string, container: Obj, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', ...image(service).env };
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, manifests.get(service)!.find((o) => o.kind === 'ConfigMap' && o.metadata.name === from.configMapRef.name)!.data);
  }
  for (const e of container.env ?? []) {
    const key = e.valueFrom?.secretKeyRef?.key;
    if (key) env[e.name] = secrets[key] ?? (() => { throw new Error(`no test value for the Secret key ${key}`); })();
    else if (e.value !== undefined) env[e.name] = String(e.value);
  }
  return { ...env, NATS_URL: nats.url, ...extra };
}

/** Runs a command as the container would (cwd = the image's /app), to its end. */
function run(name: string, command: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    child.on('exit', (code) => {
      outputs.set(name, output);
      resolve({ code, output });
    });
  });
}

/** Starts the image's CMD and waits for /health/ready. */
async function start(service: string, extra: Record<string, string> = {}): Promise<string> {
  const port = await freePort();
  const [main] = deploymentOf(service).spec.template.spec.containers;
  const env = containerEnv(service, main, { HOST: '127.0.0.1', PORT: String(port), ...extra });
  const { cmd } = image(service);
  const child = spawn(cmd[0], cmd.slice(1), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (exited) throw new Error(`${service} exited:\n${output}`);
      return (await fetch(`${url}/health/ready`).catch(() => undefined))?.status === 200;
    },
    { timeoutMs: 45_000, intervalMs: 200 },
  ).catch((err) => {
    throw new Error(`${service} did not become ready: ${String(err)}\n${output}`);
  });
  outputs.set(service, output);
  return url;
}

async function admin<T>(sql: string, params: unknown[] = [], url = TEST_DATABASE_URL): Promise<T[]> {
  const ds = new DataSource({ type: 'postgres', url });
  await ds.initialize();
  try {
    return (await ds.query(sql, params)) as T[];
  } finally {
    await ds.destroy();
  }
}

beforeAll(async () => {
  database = `conversa_entry_${Date.now()}`;
  await admin(`CREATE DATABASE "${database}"`);
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `/${database}`;
  databaseUrl = u.toString();
  nats = await startShippedNats();
  const redis = new Redis(REDIS_URL);
  await redis.flushdb();
  await redis.quit();
  Object.assign(secrets, {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    CONNECTION_TOKEN_KEY: randomBytes(48).toString('base64url'),
    TICKETS_SECRETS_KEY: randomBytes(48).toString('base64url'),
    AUTH_SECRETS_KEY: randomBytes(48).toString('base64url'),
    // no mail leaves the test: nothing listens there (a reset would answer 503)
    SMTP_URL: 'smtp://127.0.0.1:9',
  });
  for (const [user, password] of Object.entries(nats.passwords)) secrets[`NATS_PASSWORD_${user.toUpperCase().replace(/-/g, '_')}`] = password;
}, 60_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
  await nats?.stop();
  await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
});

describe('the images\' commands, as the manifests run them, on a fresh database', () => {
  it("migrates each service's own schema with its init container's command (twice: the second changes nothing)", async () => {
    for (const service of SERVICES) {
      const init = deploymentOf(service).spec.template.spec.initContainers ?? [];
      if (!SCHEMAS[service]) {
        expect(init).toEqual([]);
        continue;
      }
      for (const round of [1, 2]) {
        const result = await run(`migrate-${service}-${round}`, init[0].command, containerEnv(service, init[0]));
        expect({ service, round, code: result.code, output: result.code === 0 ? '' : result.output }).toEqual({ service, round, code: 0, output: '' });
      }
      const done = await admin<{ name: string }>(`SELECT name FROM "${SCHEMAS[service]}".migrations`, [], databaseUrl);
      expect(done.length).toBeGreaterThan(0);
    }
  }, 120_000);

  it('makes the first super user with the Job\'s command, once', async () => {
    const [job] = yamlDocs('k8s/jobs/first-super-user.yaml');
    const [c] = job.spec.template.spec.containers;
    const env = { ...containerEnv('auth', c), SUPER_USER_EMAIL: SUPER.email, SUPER_USER_PASSWORD: SUPER.password };
    const first = await run('first-super-user', c.command, env);
    expect({ code: first.code, output: first.output }).toEqual({ code: 0, output: expect.stringContaining('created') });
    const again = await run('first-super-user-again', c.command, env);
    expect({ code: again.code, output: again.output }).toEqual({ code: 0, output: expect.stringContaining('nothing to do') });
  }, 60_000);

  it("starts every service with its image's CMD in production mode, and the super user signs in through the gateway after setting a password", async () => {
    const urls: Record<string, string> = {};
    const backends = SERVICES.filter((s) => s !== 'messaging-gateway');
    const started = await Promise.all(backends.map((s) => start(s)));
    backends.forEach((s, i) => (urls[s] = started[i]));
    const gateway = await start('messaging-gateway', Object.fromEntries(Object.entries(UPSTREAMS).map(([key, s]) => [key, urls[s]])));
    const http = new HttpClient(gateway, { 'x-forwarded-for': randomIp() });

    const refused = await http.post('/auth/login', { body: SUPER });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 403, error: 'ERR_PASSWORD_CHANGE_REQUIRED' });
    const own = `${randomBytes(9).toString('base64url')}!Aa1`;
    const login = await http.post('/auth/login', { body: { ...SUPER, newPassword: own } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ email: SUPER.email, profile: 'admin', super: true });
    const token = login.body.token as string;
    // every service's tables are there: each answers through the gateway
    for (const path of ['/users', '/queue', '/whatsapp', '/tickets', '/settings']) {
      const res = await http.get(path, { token });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    expect((await http.post('/auth/login', { body: SUPER })).status).toBe(401);
    expect(nats.log()).not.toMatch(/Violation/);
  }, 120_000);
});
