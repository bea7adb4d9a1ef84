import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { brDate, todayIn } from '@wa/domain';
import { HttpClient, randomIp, uniqueEmail } from '@wa/testing';
import { createCompanyWithAdmin, ensureFullPlan, isoDateFromNow } from '../../src/database/companies.js';
import { CompanyEntity } from '../../src/database/entities/index.js';
import { adminOfNewCompany as adminOfCompany, login, newAgent, startAuth, type AuthUnderTest } from './harness.js';

let auth: AuthUnderTest;

beforeAll(async () => {
  auth = await startAuth();
});

afterAll(async () => {
  await auth?.close();
});

const adminOfNewCompany = () => adminOfCompany(auth);

/** A super user (the provider's staff) inside an existing company, as the first-super-user job makes one. */
async function superUserIn(companyId: number) {
  const email = uniqueEmail('super');
  const password = 'super-secret-1';
  await auth.db.transaction(async (tx) => {
    const plan = await ensureFullPlan(tx);
    const { admin } = await createCompanyWithAdmin(tx, {
      name: 'Staff',
      dueDate: isoDateFromNow(365),
      planId: plan.id,
      admin: { name: 'Super', email, password, super: true },
    });
    // moved into the company under test: an admin of that company must still not touch them
    await tx.query('UPDATE auth.users SET "companyId" = $1 WHERE id = $2', [companyId, admin.id]);
  });
  const http = auth.client();
  const s = await login(http, email, password);
  return { id: s.user.id as number, email, password, http, token: s.token };
}

describe('super users', () => {
  it('are changed or deleted by super users only, not by an admin of their company', async () => {
    const a = await adminOfNewCompany();
    const staff = await superUserIn(a.companyId);
    const change = await a.http.put(`/users/${staff.id}`, { token: a.token, body: { email: uniqueEmail('taken'), password: 'hijacked1' } });
    expect(change.status).toBe(403);
    expect(change.body.error).toBe('ERR_NO_PERMISSION');
    const remove = await a.http.delete(`/users/${staff.id}`, { token: a.token });
    expect(remove.status).toBe(403);
    // nothing changed: the super user still signs in with their own email and password
    const again = await login(staff.http, staff.email, staff.password);
    // a super user may change another super user (and themselves)
    const other = await superUserIn(a.companyId);
    const renamed = await staff.http.put(`/users/${other.id}`, { token: again.token, body: { name: 'Staff Two' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Staff Two');
  });
});

describe('a change of profile applies at once', () => {
  it("refuses a demoted admin's next admin call; a refreshed token carries the new profile", async () => {
    const a = await adminOfNewCompany();
    const second = await newAgent(a.http, a.token, { profile: 'admin' });
    const http = auth.client();
    const s = await login(http, second.email, second.password);
    expect(
      (await http.post('/users', { token: s.token, body: { name: 'Made By Admin', email: uniqueEmail(), password: 'secret1' } })).status,
    ).toBe(201);

    expect((await a.http.put(`/users/${second.id}`, { token: a.token, body: { profile: 'user' } })).status).toBe(200);
    const stale = await http.post('/users', {
      token: s.token,
      body: { name: 'Made After Demotion', email: uniqueEmail(), password: 'secret1' },
    });
    // 403 `stale`: the app refreshes once and retries (a 401 would sign the user out)
    expect(stale.status).toBe(403);
    expect(stale.body).toMatchObject({ error: 'ERR_SESSION_EXPIRED', reason: 'stale' });
    const refreshed = await http.post('/auth/refresh_token', { cookie: `jrt=${s.refresh}` });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.profile).toBe('user');
    const asAgent = await http.post('/users', {
      token: refreshed.body.token,
      body: { name: 'Made As Agent', email: uniqueEmail(), password: 'secret1' },
    });
    expect(asAgent.status).toBe(403);
    // a change that leaves the profile alone keeps the tokens
    expect((await a.http.put(`/users/${second.id}`, { token: a.token, body: { name: 'Renamed Agent' } })).status).toBe(200);
    expect((await http.get('/auth/me', { token: refreshed.body.token })).status).toBe(200);
  });
});

describe('passwords', () => {
  it("changing one's own needs the current one, and keeps the session that changed it", async () => {
    const a = await adminOfNewCompany();
    const agent = await newAgent(a.http, a.token);
    const http = auth.client();
    const current = await login(http, agent.email, agent.password);
    const noOld = await http.put(`/users/${agent.id}`, { token: current.token, body: { password: 'newpass1' } });
    expect(noOld.status).toBe(400);
    expect(noOld.body.details).toEqual([{ field: 'oldPassword', messages: ['Senha atual incorreta'] }]);
    // the message names the field, as every one-field ERR_VALIDATION's does
    expect(noOld.body.message).toBe('oldPassword: Senha atual incorreta');
    const wrongOld = await http.put(`/users/${agent.id}`, { token: current.token, body: { password: 'newpass1', oldPassword: 'not-it' } });
    expect(wrongOld.status).toBe(400);
    expect((await auth.client().post('/auth/login', { body: { email: agent.email, password: 'newpass1' } })).status).toBe(401);

    const changed = await http.put(`/users/${agent.id}`, {
      token: current.token,
      body: { password: 'newpass1', oldPassword: agent.password },
    });
    expect(changed.status).toBe(200);
    // this session goes on (one sign-in per account: there is no other to end here)
    expect((await http.get('/auth/me', { token: current.token })).status).toBe(200);
    expect((await http.post('/auth/refresh_token', { cookie: `jrt=${current.refresh}` })).status).toBe(200);
    expect((await auth.client().post('/auth/login', { body: { email: agent.email, password: agent.password } })).status).toBe(401);
    await login(auth.client(), agent.email, 'newpass1');
  });

  it("an admin setting another user's password ends that user's sessions", async () => {
    const a = await adminOfNewCompany();
    const agent = await newAgent(a.http, a.token);
    const http = auth.client();
    const s = await login(http, agent.email, agent.password);
    expect((await a.http.put(`/users/${agent.id}`, { token: a.token, body: { password: 'reset-by-admin' } })).status).toBe(200);
    expect((await http.get('/auth/me', { token: s.token })).status).toBe(401);
    expect((await http.post('/auth/refresh_token', { cookie: `jrt=${s.refresh}` })).status).toBe(401);
    await login(auth.client(), agent.email, 'reset-by-admin');
  });
});

describe('subscription', () => {
  it('a refresh re-checks the due date: past it, no new access token', async () => {
    const a = await adminOfNewCompany();
    const agent = await newAgent(a.http, a.token);
    const http = auth.client();
    const s = await login(http, agent.email, agent.password);
    await auth.db.getRepository(CompanyEntity).update({ id: a.companyId }, { dueDate: isoDateFromNow(-2) });
    const refreshed = await http.post('/auth/refresh_token', { cookie: `jrt=${s.refresh}` });
    expect(refreshed.status).toBe(401);
    expect(refreshed.body.error).toBe('ERR_SUBSCRIPTION_EXPIRED');
  });

  it("reads the due date on the company's own calendar: its timezone setting (São Paulo's unless an admin sets another)", async () => {
    const a = await adminOfNewCompany();
    const zoneOf = async () =>
      (await a.http.get('/settings', { token: a.token })).body.find((s: { key: string }) => s.key === 'timezone')?.value;
    expect(await zoneOf()).toBe('America/Sao_Paulo');
    const unknown = await a.http.put('/settings/timezone', { token: a.token, body: { value: 'Mars/Olympus' } });
    expect({ status: unknown.status, error: unknown.body.error }).toEqual({ status: 400, error: 'ERR_INVALID_TIMEZONE' });
    expect(await zoneOf()).toBe('America/Sao_Paulo');

    const agent = await newAgent(a.http, a.token);
    // due today at UTC-12, its last day there; at UTC+14 that day is already over
    await auth.db.getRepository(CompanyEntity).update({ id: a.companyId }, { dueDate: todayIn('Etc/GMT+12') });
    expect((await a.http.put('/settings/timezone', { token: a.token, body: { value: 'Etc/GMT+12' } })).status).toBe(200);
    await login(auth.client(), agent.email, agent.password);
    expect((await a.http.put('/settings/timezone', { token: a.token, body: { value: 'Pacific/Kiritimati' } })).status).toBe(200);
    const refused = await auth.client().post('/auth/login', { body: { email: agent.email, password: agent.password } });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 401, error: 'ERR_SUBSCRIPTION_EXPIRED' });
    expect(refused.body.message).toContain(brDate(todayIn('Etc/GMT+12')));
  });
});

describe('sign-in limits', () => {
  it('30 parallel wrong passwords for one email: at most the limit reach the password check', async () => {
    const a = await adminOfNewCompany();
    const agent = await newAgent(a.http, a.token);
    // each from its own address: only the per-email limit applies
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        new HttpClient(auth.baseUrl, { 'x-forwarded-for': randomIp() }).post('/auth/login', {
          body: { email: agent.email, password: 'wrong-password' },
        }),
      ),
    );
    const checked = answers.filter((r) => r.status === 401).length;
    const limited = answers.filter((r) => r.status === 429).length;
    expect(checked).toBeLessThanOrEqual(auth.env.LOGIN_MAX_FAILS_PER_EMAIL);
    expect(checked + limited).toBe(30);
    expect(answers.find((r) => r.status === 429)?.body.error).toBe('ERR_TOO_MANY_ATTEMPTS');
  });
});

describe('a burst of bad passwords does not lock the owner out', () => {
  it('past the per-email limit, an address that signed in to the account before still signs in with the right password; any other address waits', async () => {
    const a = await adminOfNewCompany();
    const agent = await newAgent(a.http, a.token);
    const office = new HttpClient(auth.baseUrl, { 'x-forwarded-for': randomIp() });
    await login(office, agent.email, agent.password);
    // a guesser from many addresses spends the account's count and then some
    const burst = [];
    for (let i = 0; i < auth.env.LOGIN_MAX_FAILS_PER_EMAIL + 2; i++) {
      burst.push(
        (
          await new HttpClient(auth.baseUrl, { 'x-forwarded-for': randomIp() }).post('/auth/login', {
            body: { email: agent.email, password: 'wrong-password' },
          })
        ).status,
      );
    }
    expect(burst.slice(-2)).toEqual([429, 429]);
    // the right password from a new address: still locked (the guesser could be there)
    const elsewhere = await auth.client().post('/auth/login', { body: { email: agent.email, password: agent.password } });
    expect({ status: elsewhere.status, error: elsewhere.body.error }).toEqual({ status: 429, error: 'ERR_TOO_MANY_ATTEMPTS' });
    // the owner, from where they signed in before: in
    const owner = await office.post('/auth/login', { body: { email: agent.email, password: agent.password } });
    expect(owner.status).toBe(200);
    // and their sign-in gave the guessers no fresh tries
    expect((await auth.client().post('/auth/login', { body: { email: agent.email, password: 'wrong-password' } })).status).toBe(429);
    // the known address has a count of its own: guessing from it is limited as well
    const fromOffice = [];
    for (let i = 0; i < auth.env.LOGIN_MAX_FAILS_PER_EMAIL + 1; i++)
      fromOffice.push((await office.post('/auth/login', { body: { email: agent.email, password: 'wrong-password' } })).status);
    expect(fromOffice).toEqual([...Array<number>(auth.env.LOGIN_MAX_FAILS_PER_EMAIL).fill(401), 429]);
  });
});

describe('bounds', () => {
  it('answers a huge pageNumber or id with 400, never 500', async () => {
    const a = await adminOfNewCompany();
    for (const path of ['/users?pageNumber=1e12', '/users?pageNumber=10001', '/users?pageNumber=-1', '/users/99999999999']) {
      const res = await a.http.get(path, { token: a.token });
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    expect((await a.http.get('/users?pageNumber=10000', { token: a.token })).status).toBe(200);
  });

  it('runs every statement under a statement_timeout', async () => {
    const [{ statement_timeout }] = await auth.db.query('SHOW statement_timeout');
    expect(statement_timeout).toBe('30s');
  });
});
