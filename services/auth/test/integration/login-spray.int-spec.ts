import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HttpClient, randomIp, uniqueEmail } from '@wa/testing';
import { login, newCompany, startAuth, type AuthUnderTest } from './harness.js';

// an auth of its own, with a low per-address limit (its own file: passport keeps one strategy per process)
let limited: AuthUnderTest;

beforeAll(async () => {
  limited = await startAuth({ LOGIN_MAX_FAILS_PER_IP: '5' });
});

afterAll(async () => {
  await limited?.close();
});

describe('sign-in limits per address', () => {
  it('stops a spray across many accounts from one address, and keeps letting in who signed in there before', async () => {
    const c = await newCompany(limited.db);
    const office = new HttpClient(limited.baseUrl, { 'x-forwarded-for': randomIp() });
    // the admin signs in from the office: the address knows the account
    await login(office, c.admin.email, c.admin.password);
    const victims = Array.from({ length: 8 }, () => uniqueEmail('victim'));
    const spray = [];
    for (const email of victims) spray.push((await office.post('/auth/login', { body: { email, password: 'guess123' } })).status);
    expect(spray.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(spray.slice(5)).toEqual([429, 429, 429]);
    // another account from that address: refused; the known one: in
    expect((await office.post('/auth/login', { body: { email: uniqueEmail('new'), password: 'whatever' } })).status).toBe(429);
    await login(office, c.admin.email, c.admin.password);
    // the limit is per address: elsewhere, sign-in goes on
    expect((await limited.client().post('/auth/login', { body: { email: victims[0], password: 'guess123' } })).status).toBe(401);
  });
});
