import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runMigrations } from '@wa/database';
import { HttpClient, randomIp, TEST_DATABASE_URL, TEST_REDIS_URL, uniqueEmail } from '@wa/testing';
import { Redis } from 'ioredis';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { startProcess, type ServiceProcess } from './processes.js';

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

beforeAll(async () => {
  await runMigrations(authDatabase(TEST_DATABASE_URL));
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  redis.disconnect();
  auth = await startProcess('auth', { REDIS_URL: redisUrl, LOGIN_MAX_FAILS_PER_IP: '3' });
  // an edge gateway believes no one's X-Forwarded-For; one behind a proxy believes that proxy (here: loopback)
  edge = await startProcess('messaging-gateway', { AUTH_URL: auth.url, TICKETS_URL: 'http://127.0.0.1:1', TRUSTED_PROXIES: 'none' });
  behindProxy = await startProcess('messaging-gateway', { AUTH_URL: auth.url, TICKETS_URL: 'http://127.0.0.1:1', TRUSTED_PROXIES: 'loopback' });
});

afterAll(async () => {
  await edge?.stop('SIGKILL');
  await behindProxy?.stop('SIGKILL');
  await auth?.stop('SIGKILL');
});

const wrongLogin = (gateway: ServiceProcess, forwardedFor: string) =>
  new HttpClient(gateway.url, { 'x-forwarded-for': forwardedFor }).post('/auth/login', { body: { email: uniqueEmail('spray'), password: 'guess-123' } });

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
