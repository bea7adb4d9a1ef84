import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HttpClient, uniqueEmail } from '@wa/testing';
import { randomInt } from 'node:crypto';
import { startAuth, type AuthUnderTest } from './harness.js';

// an auth of its own with low per-address limits (its own file: passport keeps one strategy per process)
let auth: AuthUnderTest;

beforeAll(async () => {
  auth = await startAuth({ LOGIN_MAX_FAILS_PER_IP: '3', SIGNUP_MAX_PER_IP: '2', RESET_MAX_PER_IP: '2' });
});

afterAll(async () => {
  await auth?.close();
});

/** A client at `address`, as the gateway (a trusted proxy: loopback) hands it on in X-Forwarded-For. */
const from = (address: string) => new HttpClient(auth.baseUrl, { 'x-forwarded-for': address });
const hex = () => randomInt(1, 0xffff).toString(16);
/** Two addresses of one /64 (one subscriber's block) and one of the /64 beside it. */
function ipv6Block(): { first: string; second: string; third: string; neighbour: string } {
  const [a, b] = [hex(), randomInt(1, 0xfffe)];
  const prefix = `2001:db8:${a}:${b.toString(16)}`;
  return {
    first: `${prefix}::1`,
    second: `${prefix}:ffff:ffff:ffff:fffe`,
    third: `${prefix}:1:2:3:4`,
    neighbour: `2001:db8:${a}:${(b + 1).toString(16)}::1`,
  };
}

describe('per-address limits count an IPv6 client by its /64, an IPv4 one by its address', () => {
  it('sign-in: failures from one /64 share one count; another /64 is not held back', async () => {
    const net = ipv6Block();
    const fail = (address: string) => from(address).post('/auth/login', { body: { email: uniqueEmail('nobody'), password: 'guess123' } });
    expect([(await fail(net.first)).status, (await fail(net.second)).status, (await fail(net.third)).status]).toEqual([401, 401, 401]);
    // a fourth address of the same /64 is past the limit
    const limited = await fail(`${net.first.slice(0, -1)}9`);
    expect({ status: limited.status, error: limited.body.error }).toEqual({ status: 429, error: 'ERR_TOO_MANY_ATTEMPTS' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await fail(net.neighbour)).status).toBe(401);
  });

  it('sign-in: an IPv4-mapped IPv6 address is the IPv4 client it is; the IPv4 address beside it is another', async () => {
    const [a, b] = [randomInt(0, 256), randomInt(0, 256)];
    const v4 = `10.${a}.${b}.7`;
    const fail = (address: string) => from(address).post('/auth/login', { body: { email: uniqueEmail('nobody'), password: 'guess123' } });
    expect([(await fail(v4)).status, (await fail(`::ffff:${v4}`)).status, (await fail(v4)).status]).toEqual([401, 401, 401]);
    expect((await fail(`::ffff:${v4}`)).status).toBe(429);
    expect((await fail(`10.${a}.${b}.8`)).status).toBe(401);
  });

  it('sign-up: one count for the /64', async () => {
    const net = ipv6Block();
    // refused for its plan, still counted (the count comes before the checks)
    const signup = (address: string) =>
      from(address).post('/auth/signup', { body: { name: 'Loja', email: uniqueEmail('loja'), password: 'segredo1', planId: 999_999_999 } });
    expect([(await signup(net.first)).status, (await signup(net.second)).status]).toEqual([400, 400]);
    expect((await signup(net.third)).status).toBe(429);
    expect((await signup(net.neighbour)).status).toBe(400);
  });

  it('password reset: one count for the /64', async () => {
    const net = ipv6Block();
    const ask = (address: string) => from(address).post(`/forgetpassword/${encodeURIComponent(uniqueEmail('ninguem'))}`);
    expect([(await ask(net.first)).status, (await ask(net.second)).status]).toEqual([404, 404]);
    expect((await ask(net.third)).status).toBe(429);
    expect((await ask(net.neighbour)).status).toBe(404);
  });
});
