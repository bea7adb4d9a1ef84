import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, runMigrations } from '@wa/database';
import { HttpClient, randomIp, TEST_DATABASE_URL, uniqueEmail } from '@wa/testing';
import { createCompanyWithAdmin, ensureFullPlan, isoDateFromNow } from '../../services/auth/src/database/companies.js';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { startProcess, startProcesses, stopProcesses, type ServiceProcess } from './processes.js';

let auth: ServiceProcess;
let gateway: ServiceProcess;
let http: HttpClient;
const admin = { email: uniqueEmail('e2e-admin'), password: 'secret123' };

beforeAll(async () => {
  await runMigrations(authDatabase(TEST_DATABASE_URL));
  const ds = createDataSource(authDatabase(TEST_DATABASE_URL, 1));
  await ds.initialize();
  await ds.transaction(async (tx) => {
    const plan = await ensureFullPlan(tx);
    await createCompanyWithAdmin(tx, {
      name: 'E2E Co',
      dueDate: isoDateFromNow(30),
      planId: plan.id,
      admin: { name: 'E2E Admin', ...admin },
    });
  });
  await ds.destroy();
  ({ auth, 'messaging-gateway': gateway } = await startProcesses({
    auth: {},
    'messaging-gateway': (urls) => ({ AUTH_URL: urls.auth, TICKETS_URL: 'http://127.0.0.1:1' }),
  }));
  http = new HttpClient(gateway.url, { 'x-forwarded-for': randomIp() });
});

afterAll(async () => {
  await stopProcesses([gateway, auth], 'SIGKILL');
});

describe('the platform through the gateway', () => {
  it('signs in and reaches the auth service, the request id following the request', async () => {
    const login = await http.post('/auth/login', { body: admin, headers: { 'x-request-id': 'e2e-login-1' } });
    expect(login.status).toBe(200);
    expect(login.body.user.company.name).toBe('E2E Co');
    const users = await http.get('/users/', { token: login.body.token });
    expect(users.status).toBe(200);
    expect(users.body.users.map((u: { email: string }) => u.email)).toEqual([admin.email]);
    // one JSON log line per request in each process, carrying the same request id
    const line = (out: string) =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .find((l) => l.msg === 'request' && l.requestId === 'e2e-login-1');
    expect(line(gateway.output())).toMatchObject({ method: 'POST', path: '/auth/login', status: 200 });
    expect(line(auth.output())).toMatchObject({ method: 'POST', path: '/auth/login', status: 200 });
    expect(typeof line(auth.output()).durationMs).toBe('number');
  });

  it('answers malformed JSON, wrong types and missing fields with 4xx JSON bodies, never 500', async () => {
    const { token } = (await http.post('/auth/login', { body: admin })).body;
    const malformed = await http.post('/users', { token, rawBody: '{"name": "x",' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('ERR_MALFORMED_JSON');
    const wrongTypes = await http.post('/users', { token, body: { name: ['a'], email: 5, password: true, queueIds: 'all' } });
    expect(wrongTypes.status).toBe(400);
    expect(wrongTypes.body.error).toBe('ERR_VALIDATION');
    const missing = await http.post('/auth/login', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'password']);
    const notJsonObject = await http.post('/auth/login', { rawBody: '"just a string"' });
    expect(notJsonObject.status).toBeGreaterThanOrEqual(400);
    expect(notJsonObject.status).toBeLessThan(500);
    const badId = await http.get('/users/abc', { token });
    expect(badId.status).toBe(400);
  });

  it('lists the auth routes in the OpenAPI document at /docs (straight to the gateway, as an operator)', async () => {
    const doc = await new HttpClient(gateway.url).get('/docs/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/auth/login',
        '/auth/refresh_token',
        '/auth/logout',
        '/auth/me',
        '/users',
        '/users/{id}',
        '/users/list',
        '/settings',
        '/settings/{key}',
        '/version',
      ]),
    );
  });

  it('on SIGTERM finishes the request in flight, closes its connections and exits', async () => {
    const own = await startProcess('auth');
    const inFlight = new HttpClient(own.url, { 'x-forwarded-for': randomIp() }).post('/auth/login', { body: admin });
    await new Promise((r) => setTimeout(r, 30));
    const exited = own.stop('SIGTERM');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    const { code, signal } = await exited;
    expect(code === 0 || signal === 'SIGTERM').toBe(true);
    expect(own.output()).toContain('stopped: connections closed');
    await expect(fetch(`${own.url}/health`)).rejects.toThrow();
  });
});
