import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from 'nats';
import { TEST_NATS_URL, uniqueEmail } from '@wa/testing';
import { login, newAgent, newCompany, startAuth, type AuthUnderTest } from './harness.js';

let auth: AuthUnderTest;
let nc: NatsConnection;

beforeAll(async () => {
  auth = await startAuth({ LOGIN_MAX_FAILS_PER_EMAIL: '3', LOGIN_MAX_FAILS_PER_IP: '6' });
  nc = await connect({ servers: TEST_NATS_URL });
});

afterAll(async () => {
  await nc?.drain();
  await auth?.close();
});

const refreshCookie = (value: string) => `jrt=${value}`;

describe('POST /auth/login', () => {
  it('answers token and user with company, plan flags and settings, and sets the refresh cookie on /auth', async () => {
    const c = await newCompany(auth.db);
    const res = await auth.client().post('/auth/login', { body: { email: c.admin.email, password: c.admin.password } });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.user).toMatchObject({ email: c.admin.email, profile: 'admin', companyId: c.companyId });
    expect(res.body.user.company.plan).toMatchObject({ useCampaigns: true, useKanban: true, useExternalApi: true });
    expect(res.body.user.company.settings).toEqual(expect.arrayContaining([{ key: 'sendGreetingAccepted', value: 'disabled' }]));
    expect(res.body.user.passwordHash).toBeUndefined();
    const cookie = res.cookies.jrt;
    expect(cookie.raw).toMatch(/HttpOnly/i);
    expect(cookie.raw).toMatch(/Path=\/auth/);
    // the token carries id, company, profile and super flag, for at most 15 minutes
    const claims = JSON.parse(Buffer.from(res.body.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ id: res.body.user.id, companyId: c.companyId, profile: 'admin', super: false });
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(15 * 60);
    const me = await auth.client().get('/auth/me', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(c.admin.email);
  });

  it('answers the same 401 ERR_INVALID_CREDENTIALS for a wrong password and an unknown email', async () => {
    const c = await newCompany(auth.db);
    const wrong = await auth.client().post('/auth/login', { body: { email: c.admin.email, password: 'nope-nope' } });
    const unknown = await auth.client().post('/auth/login', { body: { email: uniqueEmail('ghost'), password: 'nope-nope' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error).toBe('ERR_INVALID_CREDENTIALS');
    expect({ error: unknown.body.error, message: unknown.body.message }).toEqual({ error: wrong.body.error, message: wrong.body.message });
    expect(wrong.cookies.jrt).toBeUndefined();
  });

  it('refuses a company whose due date has passed with the exact text', async () => {
    const c = await newCompany(auth.db, { dueDate: '2024-03-05' });
    const res = await auth.client().post('/auth/login', { body: { email: c.admin.email, password: c.admin.password } });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Opss! Sua assinatura venceu 05/03/2024. Entre em contato com o Suporte para mais informações!');
  });

  it('limits failed logins per email with 429 and Retry-After, even with the right password', async () => {
    const c = await newCompany(auth.db);
    const http = auth.client();
    for (let i = 0; i < 3; i++) {
      expect((await http.post('/auth/login', { body: { email: c.admin.email, password: 'bad-pass' } })).status).toBe(401);
    }
    const blocked = await auth.client().post('/auth/login', { body: { email: c.admin.email, password: c.admin.password } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe('ERR_TOO_MANY_ATTEMPTS');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits failed logins per IP across emails', async () => {
    const http = auth.client();
    for (let i = 0; i < 6; i++) {
      expect((await http.post('/auth/login', { body: { email: uniqueEmail('spray'), password: 'bad-pass' } })).status).toBe(401);
    }
    const c = await newCompany(auth.db);
    const blocked = await http.post('/auth/login', { body: { email: c.admin.email, password: c.admin.password } });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBeTruthy();
    // another address is not blocked
    expect((await auth.client().post('/auth/login', { body: { email: c.admin.email, password: c.admin.password } })).status).toBe(200);
  });

  it('answers missing fields and malformed JSON with 4xx JSON, never 500', async () => {
    const missing = await auth.client().post('/auth/login', { body: { email: 'a@b.c' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('ERR_VALIDATION');
    const malformed = await auth.client().post('/auth/login', { rawBody: '{"email": "a@b.c",' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('ERR_MALFORMED_JSON');
  });
});

describe('refresh, reuse and logout', () => {
  it('rotates the refresh token: the new one works, the old one no longer does', async () => {
    const c = await newCompany(auth.db);
    const http = auth.client();
    const first = await login(http, c.admin.email, c.admin.password);
    const rotated = await http.post('/auth/refresh_token', { cookie: refreshCookie(first.refresh) });
    expect(rotated.status).toBe(200);
    expect(rotated.body.user.email).toBe(c.admin.email);
    expect(typeof rotated.body.token).toBe('string');
    const next = rotated.cookies.jrt.value;
    expect(next).not.toBe(first.refresh);
    const again = await http.post('/auth/refresh_token', { cookie: refreshCookie(first.refresh) });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('ERR_SESSION_EXPIRED');
  });

  it('ends the whole login when a rotated token is presented again (reuse detection)', async () => {
    const c = await newCompany(auth.db);
    const http = auth.client();
    const first = await login(http, c.admin.email, c.admin.password);
    const rotated = await http.post('/auth/refresh_token', { cookie: refreshCookie(first.refresh) });
    const current = rotated.cookies.jrt.value;
    const replay = await http.post('/auth/refresh_token', { cookie: refreshCookie(first.refresh) });
    expect(replay.status).toBe(401);
    // the legitimate holder's newest token is dead too, and so is the access token
    expect((await http.post('/auth/refresh_token', { cookie: refreshCookie(current) })).status).toBe(401);
    expect((await http.get('/auth/me', { token: rotated.body.token })).status).toBe(401);
  });

  it('refuses a refresh without cookie or with garbage', async () => {
    expect((await auth.client().post('/auth/refresh_token')).status).toBe(401);
    expect((await auth.client().post('/auth/refresh_token', { cookie: 'jrt=garbage' })).status).toBe(401);
  });

  it('logout revokes the refresh token and the access token', async () => {
    const c = await newCompany(auth.db);
    const http = auth.client();
    const s = await login(http, c.admin.email, c.admin.password);
    const out = await http.delete('/auth/logout', { token: s.token, cookie: refreshCookie(s.refresh) });
    expect(out.status).toBe(204);
    expect(out.cookies.jrt.raw).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect((await http.post('/auth/refresh_token', { cookie: refreshCookie(s.refresh) })).status).toBe(401);
    expect((await http.get('/auth/me', { token: s.token })).status).toBe(401);
  });

  it('a second login of the same account ends the first session and publishes the event', async () => {
    const c = await newCompany(auth.db);
    const received: unknown[] = [];
    const sub = nc.subscribe(`auth.session.replaced.${c.companyId}.*`, { callback: (_e, m) => received.push(m.json()) });
    const first = await login(auth.client(), c.admin.email, c.admin.password);
    expect((await auth.client().get('/auth/me', { token: first.token })).status).toBe(200);
    const second = await login(auth.client(), c.admin.email, c.admin.password);
    expect((await auth.client().post('/auth/refresh_token', { cookie: refreshCookie(first.refresh) })).status).toBe(401);
    expect((await auth.client().get('/auth/me', { token: first.token })).status).toBe(401);
    expect((await auth.client().get('/auth/me', { token: second.token })).status).toBe(200);
    await nc.flush();
    await new Promise((r) => setTimeout(r, 200));
    sub.unsubscribe();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ companyId: c.companyId, userId: c.adminId });
  });

  it("refuses a deleted user's token at once", async () => {
    const c = await newCompany(auth.db);
    const http = auth.client();
    const admin = await login(http, c.admin.email, c.admin.password);
    const agent = await newAgent(http, admin.token);
    const agentSession = await login(auth.client(), agent.email, agent.password);
    expect((await http.get('/auth/me', { token: agentSession.token })).status).toBe(200);
    expect((await http.delete(`/users/${agent.id}`, { token: admin.token })).status).toBe(200);
    const after = await http.get('/auth/me', { token: agentSession.token });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('ERR_SESSION_EXPIRED');
    expect((await http.post('/auth/refresh_token', { cookie: refreshCookie(agentSession.refresh) })).status).toBe(401);
  });

  it('tells a missing token (401) from a bad one (403, the app refreshes and retries)', async () => {
    expect((await auth.client().get('/auth/me')).status).toBe(401);
    const bad = await auth.client().get('/auth/me', { token: 'not.a.token' });
    expect(bad.status).toBe(403);
    expect(bad.body.error).toBe('ERR_SESSION_EXPIRED');
  });
});

describe('version and settings', () => {
  it('answers the version publicly', async () => {
    const res = await auth.client().get('/version');
    expect(res.status).toBe(200);
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('lists the company settings and lets only admins change them', async () => {
    const c = await newCompany(auth.db);
    const http = auth.client();
    const admin = await login(http, c.admin.email, c.admin.password);
    const list = await http.get('/settings/', { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual(expect.arrayContaining([{ key: 'userRating', value: 'disabled' }]));
    const put = await http.put('/settings/userRating', { token: admin.token, body: { value: 'enabled' } });
    expect(put.status).toBe(200);
    expect((await http.get('/settings/', { token: admin.token })).body).toEqual(
      expect.arrayContaining([{ key: 'userRating', value: 'enabled' }]),
    );
    expect((await http.put('/settings/noSuchKey', { token: admin.token, body: { value: 'x' } })).body.error).toBe('ERR_NO_SETTING_FOUND');
    const agent = await newAgent(http, admin.token);
    const agentSession = await login(auth.client(), agent.email, agent.password);
    const denied = await http.put('/settings/userRating', { token: agentSession.token, body: { value: 'disabled' } });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('ERR_NO_PERMISSION');
  });
});
