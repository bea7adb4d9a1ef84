import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signAccessToken } from '@wa/auth';
import { runMigrations } from '@wa/database';
import { HttpClient, randomIp, TEST_DATABASE_URL, TEST_JWT_SECRET, TEST_REDIS_URL, uniqueEmail } from '@wa/testing';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { io } from 'socket.io-client';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { startProcesses, stopProcesses, type ServiceProcess } from './processes.js';

// the limits of this file's auth live in a Redis database of their own: the gateway's address (loopback)
// is the client address here, and no other test may have spent its attempts
const redisUrl = (() => {
  const u = new URL(TEST_REDIS_URL);
  u.pathname = '/7';
  return u.toString();
})();
let auth: ServiceProcess;
let edge: ServiceProcess;
let behindProxy: ServiceProcess;
let realtime: ServiceProcess;

beforeAll(async () => {
  await runMigrations(authDatabase(TEST_DATABASE_URL));
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  redis.disconnect();
  // an edge gateway believes no one's X-Forwarded-For; one behind a proxy believes that proxy (here: loopback)
  ({ auth, realtime, edge, behindProxy } = await startProcesses({
    auth: { REDIS_URL: redisUrl, LOGIN_MAX_FAILS_PER_IP: '3' },
    realtime: { service: 'realtime-gateway', env: { TICKETS_URL: 'http://127.0.0.1:1', LOG_LEVEL: 'debug' } },
    edge: {
      service: 'messaging-gateway',
      env: (urls) => ({
        AUTH_URL: urls.auth,
        TICKETS_URL: 'http://127.0.0.1:1',
        REALTIME_URL: urls.realtime,
        TRUSTED_PROXIES: 'none',
        LOG_LEVEL: 'debug',
      }),
    },
    behindProxy: {
      service: 'messaging-gateway',
      env: (urls) => ({ AUTH_URL: urls.auth, TICKETS_URL: 'http://127.0.0.1:1', TRUSTED_PROXIES: 'loopback' }),
    },
  }));
});

afterAll(async () => {
  await stopProcesses([edge, behindProxy, realtime, auth], 'SIGKILL');
});

const wrongLogin = (gateway: ServiceProcess, forwardedFor: string) =>
  new HttpClient(gateway.url, { 'x-forwarded-for': forwardedFor }).post('/auth/login', {
    body: { email: uniqueEmail('spray'), password: 'guess-123' },
  });

describe('client addresses through the API host', () => {
  it('a spoofed X-Forwarded-For does not move the per-address sign-in limit', async () => {
    const statuses: number[] = [];
    // a new made-up address on every try: the gateway ignores them all, the limit counts the real one
    for (let i = 0; i < 5; i++) statuses.push((await wrongLogin(edge, randomIp())).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('believes the header from a trusted proxy (the address it vouches for is counted)', async () => {
    const office = randomIp();
    expect((await wrongLogin(behindProxy, office)).status).toBe(401);
    // another address behind the same proxy is not limited by the first one's failures
    expect((await wrongLogin(behindProxy, randomIp())).status).toBe(401);
  });
});

describe('tokens in logs', () => {
  it('a token sent in the query string of the socket handshake is never written to a log', async () => {
    const token = signAccessToken(
      { id: 1_999_999_101, companyId: 990_001, profile: 'user', super: false, sid: randomUUID() },
      TEST_JWT_SECRET,
    );
    // websocket is the one transport the server takes; the handshake's URL carries the token
    const socket = io(edge.url, { path: '/socket.io', transports: ['websocket'], query: { token }, reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    socket.close();
    await new Promise((r) => setTimeout(r, 300));
    const signature = token.split('.')[2] ?? token;
    // (both run at debug level: whatever they log of the handshake must not carry the token)
    for (const p of [edge, realtime])
      expect({ process: p.name, leaked: p.output().includes(signature) }).toEqual({ process: p.name, leaked: false });
  });
});
