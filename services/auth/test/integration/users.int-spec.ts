import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomInt } from 'node:crypto';
import { UserDirectory } from '@wa/auth';
import { EventBus } from '@wa/event-bus';
import { uniqueEmail, waitFor } from '@wa/testing';
import {
  adminOfNewCompany as adminOfCompany,
  login,
  newAgent,
  newCompany,
  publishRef,
  refsOf,
  startAuth,
  type AuthUnderTest,
} from './harness.js';

let auth: AuthUnderTest;

beforeAll(async () => {
  auth = await startAuth();
});

afterAll(async () => {
  await auth?.close();
});

const adminOfNewCompany = () => adminOfCompany(auth);

const fieldMessages = (body: { details?: Array<{ field: string; messages: string[] }> }, field: string) =>
  body.details?.find((d) => d.field === field)?.messages ?? [];

describe('users: validation', () => {
  it('answers each field with the form messages', async () => {
    const a = await adminOfNewCompany();
    const short = await a.http.post('/users', { token: a.token, body: { name: 'A', email: 'not-an-email', password: '123' } });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('ERR_VALIDATION');
    expect(fieldMessages(short.body, 'name')).toContain('Too Short!');
    expect(fieldMessages(short.body, 'email')).toContain('Invalid email');
    expect(fieldMessages(short.body, 'password')).toContain('Too Short!');

    const long = await a.http.post('/users', {
      token: a.token,
      body: { name: 'x'.repeat(51), email: uniqueEmail(), password: 'y'.repeat(51) },
    });
    expect(fieldMessages(long.body, 'name')).toContain('Too Long!');
    expect(fieldMessages(long.body, 'password')).toContain('Too Long!');

    const missing = await a.http.post('/users', { token: a.token, body: {} });
    expect(missing.status).toBe(400);
    for (const field of ['name', 'email', 'password']) expect(fieldMessages(missing.body, field)).toContain('Required');

    const wrongTypes = await a.http.post('/users', {
      token: a.token,
      body: { name: 42, email: uniqueEmail(), password: 'secret1', queueIds: 'x' },
    });
    expect(wrongTypes.status).toBe(400);
    expect(fieldMessages(wrongTypes.body, 'queueIds').length).toBeGreaterThan(0);
  });

  it('refuses an email already in use, whatever its case', async () => {
    const a = await adminOfNewCompany();
    const dup = await a.http.post('/users', {
      token: a.token,
      body: { name: 'Dup', email: a.admin.email.toUpperCase(), password: 'secret1' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
  });
});

describe('users: permissions', () => {
  it('lets only admins create, change others and delete', async () => {
    const a = await adminOfNewCompany();
    const agent = await newAgent(a.http, a.token);
    const agentToken = (await login(auth.client(), agent.email, agent.password)).token;
    const create = await a.http.post('/users', { token: agentToken, body: { name: 'Other', email: uniqueEmail(), password: 'secret1' } });
    expect(create.status).toBe(403);
    expect(create.body.error).toBe('ERR_NO_PERMISSION');
    const put = await a.http.put(`/users/${a.adminId}`, { token: agentToken, body: { name: 'Hacked' } });
    expect(put.status).toBe(403);
    const del = await a.http.delete(`/users/${a.adminId}`, { token: agentToken });
    expect(del.status).toBe(403);
    expect((await a.http.get(`/users/${a.adminId}`, { token: a.token })).body.name).toBe('Admin Test');
  });

  it('lets an agent change their own name and password but never their profile', async () => {
    const a = await adminOfNewCompany();
    const [q7, q8] = await refsOf(auth, a.companyId, 'queue', 2);
    const agent = await newAgent(a.http, a.token, { queueIds: [q7] });
    const agentToken = (await login(auth.client(), agent.email, agent.password)).token;
    const raise = await a.http.put(`/users/${agent.id}`, { token: agentToken, body: { name: 'Agent Smith', profile: 'admin' } });
    expect(raise.status).toBe(403);
    expect(raise.body.error).toBe('ERR_NO_PERMISSION');
    const queues = await a.http.put(`/users/${agent.id}`, { token: agentToken, body: { queueIds: [q7, q8] } });
    expect(queues.status).toBe(403);
    expect((await a.http.get(`/users/${agent.id}`, { token: a.token })).body.profile).toBe('user');

    // the edit form sends unchanged fields along: that is fine
    const own = await a.http.put(`/users/${agent.id}`, {
      token: agentToken,
      body: {
        name: 'Agent Renamed',
        password: 'newpass1',
        oldPassword: agent.password,
        profile: 'user',
        email: agent.email,
        queueIds: [q7],
      },
    });
    expect(own.status).toBe(200);
    expect(own.body.name).toBe('Agent Renamed');
    expect((await auth.client().post('/auth/login', { body: { email: agent.email, password: agent.password } })).status).toBe(401);
    expect((await auth.client().post('/auth/login', { body: { email: agent.email, password: 'newpass1' } })).status).toBe(200);
  });

  it('lets an admin change profile and queues, visible in the user', async () => {
    const a = await adminOfNewCompany();
    const agent = await newAgent(a.http, a.token);
    const [q3, q4] = await refsOf(auth, a.companyId, 'queue', 2);
    const res = await a.http.put(`/users/${agent.id}`, {
      token: a.token,
      body: { profile: 'admin', queueIds: [q3, q4], allTicket: 'enabled' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ profile: 'admin', queueIds: [q3, q4], allTicket: 'enabled' });
  });

  it("refuses another company's (or an unknown) queue or connection with 400, and writes nothing", async () => {
    const a = await adminOfNewCompany();
    const b = await newCompany(auth.db);
    const [own] = await refsOf(auth, a.companyId, 'queue');
    const [foreignQueue] = await refsOf(auth, b.companyId, 'queue');
    const [foreignConnection] = await refsOf(auth, b.companyId, 'connection');
    const [ownConnection] = await refsOf(auth, a.companyId, 'connection');
    const agent = await newAgent(a.http, a.token, { queueIds: [own] });
    for (const body of [{ queueIds: [own, foreignQueue] }, { queueIds: [1_999_999_999] }, { whatsappId: foreignConnection }]) {
      const res = await a.http.put(`/users/${agent.id}`, { token: a.token, body });
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error: 'ERR_VALIDATION' });
    }
    const created = await a.http.post('/users', {
      token: a.token,
      body: { name: 'Intruso', email: uniqueEmail(), password: 'secret1', queueIds: [foreignQueue] },
    });
    expect(created.status).toBe(400);
    expect(created.body.details[0]).toEqual({ field: 'queueIds', messages: ['Fila não encontrada'] });
    // nothing written: the agent as before, no new user
    expect((await a.http.get(`/users/${agent.id}`, { token: a.token })).body).toMatchObject({ queueIds: [own], whatsappId: null });
    expect((await a.http.get('/users', { token: a.token })).body.users.map((u: { name: string }) => u.name)).not.toContain('Intruso');
    // the company's own are accepted
    const ok = await a.http.put(`/users/${agent.id}`, { token: a.token, body: { whatsappId: ownConnection } });
    expect(ok.status).toBe(200);
  });

  it('accepts a queue made a moment ago whose event reaches auth while the user is being created', async () => {
    const a = await adminOfNewCompany();
    const queue = randomInt(1_000_000_000, 2_000_000_000);
    const creating = a.http.post('/users', {
      token: a.token,
      body: { name: 'Agente da fila nova', email: uniqueEmail(), password: 'secret1', queueIds: [queue] },
    });
    await new Promise((r) => setTimeout(r, 500));
    await publishRef(auth, a.companyId, 'queue', queue);
    const created = await creating;
    expect({ status: created.status, queueIds: created.body.queueIds }).toEqual({ status: 201, queueIds: [queue] });
  });
});

describe('users: lists and paging', () => {
  it('pages with count and hasMore, and searches by name', async () => {
    const a = await adminOfNewCompany();
    for (let i = 0; i < 21; i++) await newAgent(a.http, a.token, { name: `Pager ${String(i).padStart(2, '0')}` });
    const p1 = await a.http.get('/users/?pageNumber=1', { token: a.token });
    expect(p1.status).toBe(200);
    expect(p1.body.count).toBe(22);
    expect(p1.body.users).toHaveLength(20);
    expect(p1.body.hasMore).toBe(true);
    const p2 = await a.http.get('/users/?pageNumber=2', { token: a.token });
    expect(p2.body.users).toHaveLength(2);
    expect(p2.body.hasMore).toBe(false);
    const search = await a.http.get('/users/?searchParam=pager%2007', { token: a.token });
    expect(search.body.users.map((u: { name: string }) => u.name)).toEqual(['Pager 07']);
    const names = await a.http.get('/users/list', { token: a.token });
    expect(names.body).toHaveLength(22);
    expect(Object.keys(names.body[0]).sort()).toEqual(['id', 'name']);
    expect((await a.http.get('/users/?pageNumber=0', { token: a.token })).status).toBe(400);
  });
});

describe('users: tenant isolation', () => {
  it("a user of company B cannot read, change or delete company A's users nor see them in lists", async () => {
    const a = await adminOfNewCompany();
    const b = await adminOfNewCompany();
    const agentA = await newAgent(a.http, a.token, { name: 'Only In A' });
    for (const path of [`/users/${agentA.id}`, `/users/${a.adminId}`]) {
      const read = await b.http.get(path, { token: b.token });
      expect(read.status).toBe(404);
      expect(read.body.error).toBe('ERR_NO_USER_FOUND');
    }
    const change = await b.http.put(`/users/${agentA.id}`, { token: b.token, body: { name: 'Taken Over', profile: 'admin' } });
    expect(change.status).toBe(404);
    const del = await b.http.delete(`/users/${agentA.id}`, { token: b.token });
    expect(del.status).toBe(404);
    const listB = await b.http.get('/users/?searchParam=Only%20In%20A', { token: b.token });
    expect(listB.body.users).toEqual([]);
    const allB = await b.http.get('/users/', { token: b.token });
    expect(allB.body.users.every((u: { companyId: number }) => u.companyId === b.companyId)).toBe(true);
    const namesB = await b.http.get('/users/list', { token: b.token });
    expect(namesB.body.map((u: { id: number }) => u.id)).not.toContain(agentA.id);
    // and A's user is untouched
    const still = await a.http.get(`/users/${agentA.id}`, { token: a.token });
    expect(still.body).toMatchObject({ name: 'Only In A', profile: 'user' });
  });
});

describe('users: directory for other services', () => {
  it("publishes a user's profile and queues, updates them as soon as the outbox relays them and removes deleted users", async () => {
    const directory = auth.app.get(UserDirectory);
    expect(directory).toBeInstanceOf(UserDirectory);
    expect(auth.app.get(EventBus)).toBeDefined();
    // the directory is written by the outbox relay right after each commit: a moment later, not before the answer
    const relayed = (check: () => Promise<boolean>) => waitFor(check, { timeoutMs: 5000, intervalMs: 20 });
    const a = await adminOfNewCompany();
    const [q11, q12] = await refsOf(auth, a.companyId, 'queue', 2);
    const agent = await newAgent(a.http, a.token, { queueIds: [q11] });
    await relayed(async () => (await directory.get(a.companyId, agent.id))?.queueIds.length === 1);
    expect(await directory.get(a.companyId, agent.id)).toMatchObject({ id: agent.id, profile: 'user', queueIds: [q11] });
    expect((await a.http.put(`/users/${agent.id}`, { token: a.token, body: { queueIds: [q11, q12] } })).status).toBe(200);
    await relayed(async () => (await directory.get(a.companyId, agent.id))?.queueIds.length === 2);
    expect((await directory.get(a.companyId, agent.id))?.queueIds).toEqual([q11, q12]);
    expect((await a.http.delete(`/users/${agent.id}`, { token: a.token })).status).toBeLessThan(300);
    await relayed(async () => (await directory.get(a.companyId, agent.id)) === null);
    // the seeded admin enters the directory at sign-in
    expect(await directory.get(a.companyId, a.adminId)).toMatchObject({ id: a.adminId, profile: 'admin' });
  });
});
