import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signAccessToken, verifyApiIdentity } from '@wa/auth';
import type { ApiTokenOwner, CompanyApiAccess, PlanFlags } from '@wa/contracts';
import { loadConfig } from '@wa/server-kit';
import { HttpClient, listen, randomIp, TEST_JWT_SECRET, testEnv, type RunningApp } from '@wa/testing';
import { randomInt, randomUUID } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import { GatewayEnv } from '../../src/config/env.js';
import { createGatewayApp } from '../../src/gateway-app.js';

const CLOSED = 'http://127.0.0.1:1';
const NO_KANBAN: PlanFlags = {
  useCampaigns: true,
  useKanban: false,
  useOpenAi: true,
  useIntegrations: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
};

/**
 * One real HTTP peer for the services behind the gateway: whatsapp-sessions' token lookup (one good token),
 * auth's company access (active, external API, no kanban) and tickets, which counts what reached it and
 * whether each body arrived whole.
 */
interface Peer {
  url: string;
  server: Server;
  good: string;
  owner: ApiTokenOwner;
  /** requests that reached tickets: path and whether their body ended */
  seen: Array<{ method: string; url: string; ended: boolean; size: number; authorization?: string }>;
}

function startPeer(): Promise<Peer> {
  const owner: ApiTokenOwner = {
    companyId: 800_000 + randomInt(1, 99_999_999),
    connectionId: randomInt(1, 2_000_000_000),
  } as ApiTokenOwner;
  const peer = { good: `good-${randomUUID()}-${randomUUID()}`, owner, seen: [] } as unknown as Peer;
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/internal/api-tokens/resolve') {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        const good = (JSON.parse(text) as { token: string }).token === peer.good;
        res.writeHead(good ? 200 : 401, { 'content-type': 'application/json' });
        res.end(JSON.stringify(good ? owner : { error: 'ERR_UNAUTHENTICATED' }));
      });
      return;
    }
    const access = /^\/internal\/companies\/(\d+)\/api-access$/.exec(url);
    if (access) {
      const body: CompanyApiAccess = { companyId: Number(access[1]), active: true, useExternalApi: true, plan: NO_KANBAN };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
      return;
    }
    const entry = { method: req.method ?? '', url, ended: false, size: 0, authorization: req.headers.authorization };
    peer.seen.push(entry);
    req.on('data', (c: Buffer) => (entry.size += c.length));
    req.on('end', () => {
      entry.ended = true;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, url }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(Object.assign(peer, { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })),
    ),
  );
}

async function startGateway(peer: Peer, overrides: Record<string, string> = {}): Promise<RunningApp> {
  const env = loadConfig(
    GatewayEnv,
    testEnv({
      AUTH_URL: peer.url,
      TICKETS_URL: peer.url,
      WHATSAPP_SESSIONS_URL: peer.url,
      CAMPAIGNS_URL: CLOSED,
      BILLING_URL: CLOSED,
      REALTIME_URL: CLOSED,
      PLAN_CACHE_MS: '0',
      ...overrides,
    }),
  );
  return listen(await createGatewayApp(env));
}

let peer: Peer;
let gateway: RunningApp;
let replica: RunningApp;

beforeAll(async () => {
  peer = await startPeer();
  // one send a minute, one queued ahead: the third send in a row is refused
  const paced = { API_SENDS_PER_MINUTE: '1', API_QUEUE_MAX: '1', UPLOAD_BODY_LIMIT: '1mb' };
  gateway = await startGateway(peer, paced);
  replica = await startGateway(peer, paced);
});

afterAll(async () => {
  await gateway?.close();
  await replica?.close();
  peer?.server.closeAllConnections();
  peer?.server.close();
});

const sends = () => peer.seen.filter((s) => /^\/api(\/v1)?\/messages\/send/.test(s.url.toLowerCase().replace(/\/+/g, '/')));

describe('gateway: the public API has no side doors around its pace', () => {
  it('answers 404 to every variant of a public API path, which never reaches tickets, so the queue cap holds', async () => {
    const http = new HttpClient(gateway.baseUrl, { 'x-forwarded-for': randomIp() });
    const send = (path: string) => http.post(path, { token: peer.good, body: { number: '5511999990000', body: 'oi' } });
    expect((await send('/api/messages/send')).status).toBe(200);
    expect((await send('/api/messages/send')).status).toBe(200);
    const full = await send('/api/messages/send');
    expect({ status: full.status, error: full.body.error }).toEqual({ status: 429, error: 'ERR_TOO_MANY_ATTEMPTS' });
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    // the versioned path is the same API: the same connection's pace, already full
    const v1 = await send('/api/v1/messages/send');
    expect({ status: v1.status, error: v1.body.error }).toEqual({ status: 429, error: 'ERR_TOO_MANY_ATTEMPTS' });
    for (const variant of [
      '/api/v1/messages/send/',
      '/api/V1/messages/send',
      '/api/v1//messages/send',
      '/api/messages/send/',
      '/api/messages/SEND',
      '/api//messages/send',
      '/API/messages/send',
      '/api/messages//send',
      '/api/messages/send//',
      '/Api/Messages/Send/',
    ]) {
      const res = await send(variant);
      expect({ variant, status: res.status, error: res.body.error }).toEqual({ variant, status: 404, error: 'ERR_NOT_FOUND' });
    }
    expect(sends()).toHaveLength(2);
    // the status of a message: its exact path only
    expect((await http.get('/api/messages/12', { token: peer.good })).status).toBe(200);
    expect((await http.get('/api/messages/12/', { token: peer.good })).status).toBe(404);
    expect((await http.get('/api/messages/other', { token: peer.good })).status).toBe(404);
  });
});

describe('gateway: the public instance API (issue 45 §3)', () => {
  it("admits a connection's token on the instance's exact paths and forwards the signed identity of its connection, never the token", async () => {
    const http = new HttpClient(gateway.baseUrl, { 'x-forwarded-for': randomIp() });
    const calls: Array<[string, string]> = [
      ['GET', '/api/v1/instance'],
      ['GET', '/api/v1/instance/qrcode'],
      ['POST', '/api/v1/instance/pairing-code'],
      ['POST', '/api/v1/instance/restart'],
      ['POST', '/api/v1/instance/logout'],
    ];
    const call = (method: string, path: string, token?: string) =>
      method === 'GET' ? http.get(path, { token }) : http.post(path, { token, body: { number: '5511999990000' } });
    for (const [method, path] of calls) {
      const none = await call(method, path);
      expect({ path, status: none.status, error: none.body.error }).toEqual({ path, status: 401, error: 'ERR_UNAUTHENTICATED' });
    }
    const before = peer.seen.length;
    for (const [method, path] of calls) expect([path, (await call(method, path, peer.good)).status]).toEqual([path, 200]);
    const reached = peer.seen.slice(before);
    expect(reached.map((s) => [s.method, s.url])).toEqual(calls);
    for (const s of reached) {
      expect(s.authorization).not.toContain(peer.good);
      expect(verifyApiIdentity(s.authorization?.replace(/^Bearer /, ''), TEST_JWT_SECRET)).toEqual(peer.owner);
    }
    // off its exact paths: 404 from the gateway, nothing reaches whatsapp-sessions
    for (const [method, path] of [
      ['GET', '/api/v1/instance/'],
      ['GET', '/api/v1/INSTANCE'],
      ['POST', '/api/v1/instance/qrcode'],
      ['GET', '/api/v1/instance/logout'],
      ['POST', '/api/v1/instance/connect'],
    ] as const) {
      const res = await call(method, path, peer.good);
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 404, error: 'ERR_NOT_FOUND' });
    }
    expect(peer.seen.length).toBe(before + calls.length);
  });
});

describe('gateway: plan gate compares paths whatever their case or slashes', () => {
  it('refuses every spelling of the kanban board to a plan without kanban', async () => {
    const http = new HttpClient(gateway.baseUrl, { 'x-forwarded-for': randomIp() });
    const token = signAccessToken(
      { id: randomInt(1_000_000_000, 2_000_000_000), companyId: peer.owner.companyId, profile: 'admin', super: false, sid: randomUUID() },
      TEST_JWT_SECRET,
    );
    for (const path of ['/tags/kanban', '/tags/KANBAN', '/Tags/Kanban', '/tags/kanban/', '/tags//kanban', '/TICKET/KANBAN']) {
      const res = await http.get(path, { token });
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 403, error: 'ERR_NO_PERMISSION' });
    }
    expect(peer.seen.some((s) => /kanban/i.test(s.url))).toBe(false);
    // the tags themselves are every plan's
    expect((await http.get('/TAGS', { token })).status).toBe(200);
  });
});

describe('gateway: wrong API tokens are throttled per address, across replicas', () => {
  it('answers 429 with Retry-After once an address tried 30 wrong tokens in a minute; other addresses and known tokens go on', async () => {
    const address = randomIp();
    const a = new HttpClient(gateway.baseUrl, { 'x-forwarded-for': address });
    const aOnReplica = new HttpClient(replica.baseUrl, { 'x-forwarded-for': address });
    const b = new HttpClient(gateway.baseUrl, { 'x-forwarded-for': randomIp() });
    const status = (client: HttpClient, token: string) => client.get('/api/messages/7', { token });
    // the client's own good token, known to this replica before the guessing starts
    expect((await status(a, peer.good)).status).toBe(200);
    // 15 wrong tokens on each replica: the count is one, in Redis
    for (let i = 0; i < 15; i++) expect((await status(a, `wrong-${randomUUID()}`)).status).toBe(401);
    for (let i = 0; i < 15; i++) expect((await status(aOnReplica, `wrong-${randomUUID()}`)).status).toBe(401);
    for (const client of [a, aOnReplica]) {
      const refused = await status(client, `wrong-${randomUUID()}`);
      expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 429, error: 'ERR_TOO_MANY_ATTEMPTS' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
    // a good token is not looked up for this address on the replica that does not know it yet: no oracle
    expect((await status(aOnReplica, peer.good)).status).toBe(429);
    // where it is known, it goes on; another address is not held up
    expect((await status(a, peer.good)).status).toBe(200);
    expect((await status(b, `wrong-${randomUUID()}`)).status).toBe(401);
  });
});

describe('gateway: uploads are counted as they stream', () => {
  it('cuts a chunked body with 413 as soon as it passes the limit; tickets never gets the whole body', async () => {
    const token = signAccessToken(
      { id: randomInt(1_000_000_000, 2_000_000_000), companyId: peer.owner.companyId, profile: 'admin', super: false, sid: randomUUID() },
      TEST_JWT_SECRET,
    );
    const path = `/messages/${randomInt(1, 1_000_000)}`;
    const chunk = Buffer.alloc(256 * 1024, 'a');
    const answer = await new Promise<{ status: number; body: any; whileSending: boolean }>((resolve, reject) => {
      let sending = true;
      const req = request(
        `${gateway.baseUrl}${path}`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'multipart/form-data; boundary=x',
            'transfer-encoding': 'chunked',
            'x-forwarded-for': randomIp(),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}'), whileSending: sending }));
        },
      );
      req.on('error', (err) => (sending ? undefined : reject(err)));
      // 2 MB (the limit is 1 MB), then the body is held open: the answer must come without its end
      let sent = 0;
      const pump = () => {
        while (sent < 8) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        setTimeout(() => {
          sending = false;
          req.end();
        }, 5000).unref();
      };
      pump();
    });
    expect({ status: answer.status, error: answer.body.error, limit: answer.body.limit }).toEqual({
      status: 413,
      error: 'ERR_PAYLOAD_TOO_LARGE',
      limit: '1mb',
    });
    expect(answer.whileSending).toBe(true);
    const reached = peer.seen.filter((s) => s.url === path);
    expect(reached.every((s) => !s.ended && s.size <= 1024 * 1024 + chunk.length)).toBe(true);
  });
});
