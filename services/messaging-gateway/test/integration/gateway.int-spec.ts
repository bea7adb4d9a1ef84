import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signAccessToken, TokenRevocation } from '@wa/auth';
import { loadConfig } from '@wa/server-kit';
import {
  describeServiceBasics,
  HttpClient,
  listen,
  randomIp,
  TEST_JWT_SECRET,
  TEST_REDIS_URL,
  testEnv,
  type RunningApp,
} from '@wa/testing';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { Agent, createServer, request, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { GatewayEnv } from '../../src/config/env.js';
import { createGatewayApp } from '../../src/gateway-app.js';

const CLOSED = 'http://127.0.0.1:1';
const WEB = 'http://localhost:3000';

/** A real HTTP peer standing in for the auth service: it echoes what reached it. */
function startUpstream(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let size = 0;
    req.on('data', (chunk: Buffer) => (size += chunk.length));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          requestId: req.headers['x-request-id'],
          authorization: req.headers.authorization ?? null,
          forwardedFor: req.headers['x-forwarded-for'] ?? null,
          size,
        }),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server })),
  );
}

async function startGateway(overrides: Record<string, string> = {}): Promise<RunningApp> {
  const env = loadConfig(
    GatewayEnv,
    testEnv({
      AUTH_URL: CLOSED,
      TICKETS_URL: CLOSED,
      WHATSAPP_SESSIONS_URL: CLOSED,
      CAMPAIGNS_URL: CLOSED,
      BILLING_URL: CLOSED,
      REALTIME_URL: CLOSED,
      WEB_ORIGIN: WEB,
      ...overrides,
    }),
  );
  return listen(await createGatewayApp(env));
}

function tokenFor(claims: Partial<{ id: number; companyId: number; sid: string }> = {}): string {
  return signAccessToken({ id: 1, companyId: 1, profile: 'admin', super: false, sid: randomUUID(), ...claims }, TEST_JWT_SECRET);
}

let upstream: { url: string; server: Server };
let gateway: RunningApp;
let http: HttpClient;
let redis: Redis;

beforeAll(async () => {
  upstream = await startUpstream();
  gateway = await startGateway({ AUTH_URL: upstream.url, UPLOAD_BODY_LIMIT: '25mb' });
  http = new HttpClient(gateway.baseUrl, { 'x-forwarded-for': randomIp() });
  redis = new Redis(TEST_REDIS_URL);
});

afterAll(async () => {
  await gateway?.close();
  upstream?.server.closeAllConnections();
  upstream?.server.close();
  redis?.disconnect();
});

describe('gateway: routing', () => {
  it('streams a spec path to its owning service with the token, the request id and the client address', async () => {
    const token = tokenFor();
    const res = await http.get('/users/?searchParam=ana', { token, headers: { 'x-request-id': 'gw-req-1' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      method: 'GET',
      url: '/users/?searchParam=ana',
      requestId: 'gw-req-1',
      authorization: `Bearer ${token}`,
    });
    expect(res.body.forwardedFor).toMatch(/^10\./);
    expect(res.headers.get('x-request-id')).toBe('gw-req-1');
    const generated = await http.get('/settings/', { token });
    expect(generated.body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(generated.headers.get('x-request-id')).toBe(generated.body.requestId);
  });

  it('serves many requests over one kept-alive connection without piling up listeners on it', async () => {
    // the gateway's end of the client's connection: a listener added per request (and the request it holds)
    // stays until the connection closes, and Node warns of a leak from the 11th
    const sockets: Socket[] = [];
    const server = gateway.app.getHttpServer() as Server;
    const onConnection = (socket: Socket) => sockets.push(socket);
    server.on('connection', onConnection);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const listeners: number[] = [];
    try {
      for (let i = 0; i < 15; i++) {
        const status = await new Promise<number>((resolve, reject) => {
          const req = request(`${gateway.baseUrl}/settings/`, { agent, headers: { authorization: `Bearer ${tokenFor()}` } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end();
        });
        expect(status).toBe(200);
        listeners.push(sockets[0]?.listenerCount('timeout') ?? -1);
      }
    } finally {
      agent.destroy();
      server.off('connection', onConnection);
    }
    expect(sockets).toHaveLength(1);
    expect(Math.max(...listeners)).toBeLessThanOrEqual(listeners[0]);
  });

  it('answers an unknown path with 404 and a JSON body', async () => {
    const res = await http.get('/definitely/not/here', { token: tokenFor() });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'ERR_NOT_FOUND', statusCode: 404 });
    expect((await http.get('/queues', { token: tokenFor() })).status).toBe(404);
  });

  it('checks the token for every non-public path before proxying', async () => {
    const missing = await http.get('/users/');
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe('ERR_SESSION_EXPIRED');
    const forged = await http.get('/users/', {
      token: signAccessToken({ id: 1, companyId: 1, profile: 'admin', super: true, sid: 'x' }, 'another-secret-another-secret'),
    });
    expect(forged.status).toBe(403);
    const expired = await http.get('/users/', {
      token: signAccessToken({ id: 1, companyId: 1, profile: 'admin', super: false, sid: 'x' }, TEST_JWT_SECRET, -10),
    });
    expect(expired.status).toBe(403);
    expect(expired.body.reason).toBe('expired');
    // a revoked session (logout, newer login, deleted user) is refused at the gateway already
    const sid = randomUUID();
    await new TokenRevocation(redis).revokeSessions([sid]);
    expect((await http.get('/users/', { token: tokenFor({ sid }) })).status).toBe(401);
    // public paths pass without a token
    expect((await http.post('/auth/login', { body: { email: 'a@b.c', password: 'x' } })).status).toBe(200);
    expect((await http.get('/version')).status).toBe(200);
  });

  it('refuses an oversized body with 413 and a JSON body before it reaches the service', async () => {
    const big = await http.post('/users', { token: tokenFor(), rawBody: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('ERR_PAYLOAD_TOO_LARGE');
    const fine = await http.post('/users', { token: tokenFor(), rawBody: JSON.stringify({ name: 'x'.repeat(1000) }) });
    expect(fine.body.size).toBeGreaterThan(1000);
    // a file upload (multipart) may be larger, up to UPLOAD_BODY_LIMIT (25mb here)
    const form = () => new FormData();
    const sheet = form();
    sheet.append('file', new Blob([Buffer.alloc(3 * 1024 * 1024, 'a')]), 'contatos.csv');
    const upload = await http.post('/users', { token: tokenFor(), form: sheet });
    expect(upload.body.size).toBeGreaterThan(3 * 1024 * 1024);
    const huge = form();
    huge.append('file', new Blob([Buffer.alloc(26 * 1024 * 1024, 'a')]), 'huge.csv');
    const refused = await http.post('/users', { token: tokenFor(), form: huge });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 413, error: 'ERR_PAYLOAD_TOO_LARGE' });
  });

  it('answers a CORS preflight from the web origin with credentials, and not for other origins', async () => {
    const ok = await http.request('OPTIONS', '/auth/login', {
      headers: { origin: WEB, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(WEB);
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await http.request('OPTIONS', '/auth/login', {
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers 503 with a JSON body naming the owning service when it is down', async () => {
    const res = await http.get('/tickets', { token: tokenFor() });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: 'ERR_SERVICE_UNAVAILABLE', service: 'tickets' });
    const sessions = await http.post('/whatsappsession/1', { token: tokenFor() });
    expect(sessions.status).toBe(503);
    expect(sessions.body.service).toBe('whatsapp-sessions');
  });

  it('serves the API documentation at /docs and says which services did not answer', async () => {
    // straight to the gateway (an operator), not through the ingress
    const direct = new HttpClient(gateway.baseUrl);
    const page = await direct.get('/docs');
    expect(page.status).toBe(200);
    expect(String(page.body)).toMatch(/swagger/i);
    const doc = await direct.get('/docs/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(doc.body.info.description).toMatch(/tickets/);
  });
});

describe('gateway: operator endpoints', () => {
  it('keeps /metrics and /docs from requests that came through a proxy (the ingress adds X-Forwarded-For)', async () => {
    const direct = new HttpClient(gateway.baseUrl);
    expect((await direct.get('/metrics')).status).toBe(200);
    expect((await direct.get('/docs/openapi.json')).status).toBe(200);
    for (const path of ['/metrics', '/docs', '/docs/', '/docs/openapi.json']) {
      const res = await http.get(path); // this client's requests carry X-Forwarded-For, as the ingress' do
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 404, error: 'ERR_NOT_FOUND' });
    }
    // everything else goes through as before
    expect((await http.get('/health')).status).toBe(200);
  });

  it("labels a proxied call's metrics with the route it matched (the table's prefix), not the raw path", async () => {
    const direct = new HttpClient(gateway.baseUrl);
    const count = async (route: string, status: string) => {
      const text = String((await direct.get('/metrics')).body);
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('http_request_duration_seconds_count{') &&
            l.includes(`route="${route}"`) &&
            l.includes('method="GET"') &&
            l.includes(`status="${status}"`),
        );
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const before = await count('/users/*', '200');
    const token = tokenFor();
    for (const id of [11, 12, 13]) expect((await http.get(`/users/${id}`, { token })).status).toBe(200);
    expect(await count('/users/*', '200')).toBe(before + 3);
    // no series per user id: the raw paths never become labels
    expect(String((await direct.get('/metrics')).body)).not.toMatch(/route="\/users\/1[123]"/);
    // a path no route matches stays "unmatched"
    const unmatched = await count('unmatched', '404');
    expect((await http.get('/nowhere-at-all')).status).toBe(404);
    expect(await count('unmatched', '404')).toBe(unmatched + 1);
  });
});

describe('gateway: health', () => {
  it('answers 503 naming the connection that is down', async () => {
    const broken = await startGateway({ REDIS_URL: 'redis://127.0.0.1:1/0' });
    try {
      const res = await new HttpClient(broken.baseUrl).get('/health');
      expect(res.status).toBe(503);
      expect(res.body.details.redis.status).toBe('down');
      expect(res.body.details.nats.status).toBe('up');
    } finally {
      await broken.close();
    }
  });
});

describeServiceBasics({
  name: 'messaging-gateway',
  checks: ['redis', 'nats'],
  protectedPath: '/users/',
  start: () => startGateway(),
});
