import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mediaStorageFrom } from '@wa/server-kit';
import { HttpClient, randomIp, TEST_DATABASE_URL, waitFor } from '@wa/testing';
import { Redis } from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
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
 * by this machine's: hosts, ports, the database, Redis, NATS and S3 addresses, and the pod network, which is
 * loopback here (tests send traffic to loopback only): every service listens there, so the gateway reaches the
 * services, and the test (the ingress) the gateway, from there, as pods reach pods. Loopback is also what an
 * unset TRUSTED_PROXIES trusts, so that the manifests set it is checked by deploy/test/manifests.spec.ts; this
 * test checks that, as set, the chain counts each client on its own.
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
/** s3rver (a real S3-compatible server over a directory; it ships no types) */
type S3rver = { run(): Promise<{ port: number }>; close(): Promise<void> };
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: Record<string, unknown>) => S3rver;
/** a 1×1 PNG */
const PNG_BYTES = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
/** The pod network's part in TRUSTED_PROXIES (the private ranges), played by loopback. */
const POD_NETWORK = 'uniquelocal';
/** A pod's address, here. */
const podAddress = '127.0.0.1';
const SUPER = { email: `root-${Date.now()}@example.com`, password: randomBytes(12).toString('base64url') };

const yamlDocs = (path: string): Obj[] => parseAllDocuments(readFileSync(join(root, path), 'utf8')).map((d) => d.toJS() as Obj);
const manifests = new Map(SERVICES.map((s) => [s, yamlDocs(`k8s/base/${s}.yaml`)]));
/** The service's workload: a Deployment, or whatsapp-sessions' StatefulSet. */
const deploymentOf = (s: string) => manifests.get(s)!.find((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet')!;

/** The service stage of deploy/Dockerfile: its ENV (with SERVICE set) and its CMD. */
function image(service: string): { env: Record<string, string>; cmd: string[] } {
  const dockerfile = readFileSync(join(root, 'deploy/Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const stage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of stage.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const m of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[m[1]] = m[2].replace('${SERVICE}', service);
  }
  const cmd = JSON.parse(
    stage
      .split('\n')
      .find((l) => l.startsWith('CMD '))!
      .slice(4),
  ) as string[];
  return { env, cmd };
}

let database: string;
let databaseUrl: string;
let nats: PrivateNats;
let s3: S3rver;
let s3Dir: string;
let s3Endpoint: string;
/** the role each service with tables runs as (DATABASE_URL_<SERVICE> of the Secret) */
const roles: Record<string, { user: string; url: string }> = {};
const urls: Record<string, string> = {};
let superToken: string;
const secrets: Record<string, string> = {};
const children: ChildProcess[] = [];
const outputs = new Map<string, string>();

/** What a container of `service` gets: its ConfigMap, the Secret keys it references, and the overrides. */
function containerEnv(service: string, container: Obj, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', ...image(service).env };
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef)
      Object.assign(env, manifests.get(service)!.find((o) => o.kind === 'ConfigMap' && o.metadata.name === from.configMapRef.name)!.data);
  }
  for (const e of container.env ?? []) {
    const key = e.valueFrom?.secretKeyRef?.key;
    // an optional key the test gives no value (Efí's, with the sandbox provider) stays unset, as in a cluster without it
    if (key && e.valueFrom.secretKeyRef.optional === true && secrets[key] === undefined) continue;
    if (key)
      env[e.name] =
        secrets[key] ??
        (() => {
          throw new Error(`no test value for the Secret key ${key}`);
        })();
    else if (e.value !== undefined) env[e.name] = String(e.value);
  }
  // the cluster's names, by this machine's
  if (env.TRUSTED_PROXIES)
    env.TRUSTED_PROXIES = env.TRUSTED_PROXIES.split(',')
      .map((p) => (p.trim() === POD_NETWORK ? 'loopback' : p))
      .join(',');
  if (env.MEDIA_S3_ENDPOINT) env.MEDIA_S3_ENDPOINT = s3Endpoint;
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
  const env = containerEnv(service, main, { HOST: podAddress, PORT: String(port), ...extra });
  const { cmd } = image(service);
  const child = spawn(cmd[0], cmd.slice(1), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://${podAddress}:${port}`;
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
  // the S3-compatible media store, with the bucket the ConfigMaps name
  const bucket = manifests.get('tickets')!.find((o) => o.kind === 'ConfigMap')!.data.MEDIA_S3_BUCKET as string;
  s3Dir = mkdtempSync(join(tmpdir(), 'entry-s3-'));
  // (it knows one key id, S3RVER; a production service wants a secret key of 32+ bytes, as AWS' are: s3rver
  // is told to take any signature)
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    allowMismatchedSignatures: true,
    directory: s3Dir,
    configureBuckets: [{ name: bucket ?? 'conversa-media', configs: [] }],
  });
  s3Endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
  for (const service of Object.keys(SCHEMAS)) {
    const user = `${database}_${service.replace(/-/g, '_')}`;
    const url = new URL(databaseUrl);
    url.username = user;
    url.password = randomBytes(24).toString('hex');
    roles[service] = { user, url: url.toString() };
  }
  Object.assign(secrets, {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    CONNECTION_TOKEN_KEY: randomBytes(48).toString('base64url'),
    TICKETS_SECRETS_KEY: randomBytes(48).toString('base64url'),
    AUTH_SECRETS_KEY: randomBytes(48).toString('base64url'),
    BILLING_WEBHOOK_SECRET: randomBytes(48).toString('base64url'),
    // no mail leaves the test: nothing listens there (a reset would answer 503)
    SMTP_URL: 'smtp://127.0.0.1:9',
    ...Object.fromEntries(
      Object.entries(roles).map(([service, role]) => [`DATABASE_URL_${service.toUpperCase().replace(/-/g, '_')}`, role.url]),
    ),
    MEDIA_S3_ACCESS_KEY_ID: 'S3RVER',
    MEDIA_S3_SECRET_ACCESS_KEY: randomBytes(30).toString('base64'),
  });
  for (const [user, password] of Object.entries(nats.passwords))
    secrets[`NATS_PASSWORD_${user.toUpperCase().replace(/-/g, '_')}`] = password;
}, 60_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
  await nats?.stop();
  await s3?.close().catch(() => undefined);
  if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
  await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
  // roles belong to the server, not to the database: theirs were only in it
  for (const { user } of Object.values(roles)) await admin(`DROP ROLE IF EXISTS "${user}"`).catch(() => undefined);
});

describe("the images' commands, as the manifests run them, on a fresh database", () => {
  it("migrates each service's own schema with its init container's command (twice: the second changes nothing)", async () => {
    for (const service of SERVICES) {
      const init = deploymentOf(service).spec.template.spec.initContainers ?? [];
      if (!SCHEMAS[service]) {
        expect(init).toEqual([]);
        continue;
      }
      for (const round of [1, 2]) {
        const result = await run(`migrate-${service}-${round}`, init[0].command, containerEnv(service, init[0]));
        expect({ service, round, code: result.code, output: result.code === 0 ? '' : result.output }).toEqual({
          service,
          round,
          code: 0,
          output: '',
        });
      }
      const done = await admin<{ name: string }>(`SELECT name FROM "${SCHEMAS[service]}".migrations`, [], databaseUrl);
      expect(done.length).toBeGreaterThan(0);
    }
  }, 120_000);

  it("makes the first super user with the Job's command, once", async () => {
    const [job] = yamlDocs('k8s/jobs/first-super-user.yaml');
    const [c] = job.spec.template.spec.containers;
    const env = { ...containerEnv('auth', c), SUPER_USER_EMAIL: SUPER.email, SUPER_USER_PASSWORD: SUPER.password };
    const first = await run('first-super-user', c.command, env);
    expect({ code: first.code, output: first.output }).toEqual({ code: 0, output: expect.stringContaining('created') });
    const again = await run('first-super-user-again', c.command, env);
    expect({ code: again.code, output: again.output }).toEqual({ code: 0, output: expect.stringContaining('nothing to do') });
  }, 60_000);

  it("starts every service with its image's CMD in production mode, and the super user signs in through the gateway after setting a password", async () => {
    const backends = SERVICES.filter((s) => s !== 'messaging-gateway');
    const started = await Promise.all(backends.map((s) => start(s)));
    backends.forEach((s, i) => (urls[s] = started[i]));
    urls['messaging-gateway'] = await start(
      'messaging-gateway',
      Object.fromEntries(Object.entries(UPSTREAMS).map(([key, s]) => [key, urls[s]])),
    );
    const http = new HttpClient(urls['messaging-gateway'], { 'x-forwarded-for': randomIp() });

    const refused = await http.post('/auth/login', { body: SUPER });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 403, error: 'ERR_PASSWORD_CHANGE_REQUIRED' });
    const own = `${randomBytes(9).toString('base64url')}!Aa1`;
    const login = await http.post('/auth/login', { body: { ...SUPER, newPassword: own } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ email: SUPER.email, profile: 'admin', super: true });
    const token = login.body.token as string;
    superToken = token;
    // every service's tables are there: each answers through the gateway
    for (const path of ['/users', '/queue', '/whatsapp', '/tickets', '/settings']) {
      const res = await http.get(path, { token });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    expect((await http.post('/auth/login', { body: SUPER })).status).toBe(401);
    expect(nats.log()).not.toMatch(/Violation/);
  }, 120_000);

  it("runs each service with tables as a role of its own (made by its migration), which cannot read another service's schema", async () => {
    for (const [service, role] of Object.entries(roles)) {
      // its own schema: yes
      const own = await admin<{ n: number }>(`SELECT count(*)::int AS n FROM "${SCHEMAS[service]}".migrations`, [], role.url);
      expect(own[0].n).toBeGreaterThan(0);
      // its migrations' record: read-only
      await expect(admin(`DELETE FROM "${SCHEMAS[service]}".migrations`, [], role.url)).rejects.toThrow(/permission denied/);
      // no table definitions
      await expect(admin(`CREATE TABLE "${SCHEMAS[service]}".intruder (id int)`, [], role.url)).rejects.toThrow(/permission denied/);
      for (const [other, schema] of Object.entries(SCHEMAS)) {
        if (other === service) continue;
        const read = await admin(`SELECT count(*) FROM "${schema}".migrations`, [], role.url).then(
          () => 'read',
          (err: Error) => err.message,
        );
        expect({ service, other, read }).toEqual({ service, other, read: expect.stringMatching(/permission denied for schema/) });
      }
    }
    // the processes started above run as these roles
    const seen = await admin<{ usename: string }>('SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = $1', [database]);
    for (const { user } of Object.values(roles)) expect(seen.map((s) => s.usename)).toContain(user);
  }, 60_000);

  it('counts sign-in failures per client address through the gateway, as the ingress passes it (X-Forwarded-For), not per gateway', async () => {
    const gateway = urls['messaging-gateway'];
    const from = (address: string) => new HttpClient(gateway, { 'x-forwarded-for': address });
    const first = from('203.0.113.7');
    const second = from('198.51.100.23');
    // a new email each time: only the address' limit can answer 429
    const fail = (client: HttpClient) =>
      client.post('/auth/login', {
        body: { email: `nobody-${randomBytes(6).toString('hex')}@example.com`, password: 'wrong-password-1A!' },
      });
    let status = 0;
    for (let i = 0; i < 200 && status !== 429; i++) status = (await fail(first)).status;
    expect(status).toBe(429);
    // another client: its own bucket, untouched
    const other = await fail(second);
    expect({ status: other.status, error: other.body.error }).toEqual({ status: 401, error: expect.any(String) });
    expect((await fail(first)).status).toBe(429);
  }, 120_000);

  it('keeps media in the S3 bucket the manifests name: a file auth stores is in the bucket, and tickets and whatsapp-sessions, with their settings, read it', async () => {
    const http = new HttpClient(urls['messaging-gateway'], { 'x-forwarded-for': randomIp() });
    const created = await http.post('/announcements', {
      token: superToken,
      body: { title: 'Aviso', text: 'Com imagem', priority: 1, status: true },
    });
    expect(created.status).toBeLessThan(300);
    const bytes = PNG_BYTES;
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'image/png' }), 'aviso.png');
    const uploaded = await http.post(`/announcements/${created.body.id}/media-upload`, { token: superToken, form });
    expect({ status: uploaded.status, body: uploaded.body }).toEqual({
      status: 200,
      body: expect.objectContaining({ mediaPath: expect.any(String) }),
    });
    const key = uploaded.body.mediaPath as string;
    // in the bucket itself
    const settings = (service: string) => containerEnv(service, deploymentOf(service).spec.template.spec.containers[0]);
    const tickets = settings('tickets');
    const client = new S3Client({
      region: tickets.MEDIA_S3_REGION,
      endpoint: s3Endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: tickets.MEDIA_S3_ACCESS_KEY_ID, secretAccessKey: tickets.MEDIA_S3_SECRET_ACCESS_KEY },
    });
    const object = await client.send(new GetObjectCommand({ Bucket: tickets.MEDIA_S3_BUCKET, Key: `media/${key}` }));
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(bytes)).toBe(true);
    client.destroy();
    // what tickets and whatsapp-sessions read with their own settings (a pod of each, anywhere)
    for (const service of ['tickets', 'whatsapp-sessions']) {
      const stored = await mediaStorageFrom(settings(service) as never).get(key);
      const chunks: Buffer[] = [];
      for await (const chunk of (stored?.stream ?? []) as Readable) chunks.push(chunk as Buffer);
      expect({ service, same: Buffer.concat(chunks).equals(bytes) }).toEqual({ service, same: true });
    }
    // and the gateway serves it
    const served = await fetch(`${urls['messaging-gateway']}/announcements/${created.body.id}/media`, {
      headers: { authorization: `Bearer ${superToken}` },
    });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  }, 60_000);
});
