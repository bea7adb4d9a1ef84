import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TEST_DATABASE_URL, testEnv, uniqueSuffix } from '@wa/testing';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startAuth, type AuthUnderTest } from './harness.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../../dist');

/** Runs one of the image's commands as the Job would: a plain process, its environment, its exit code. */
function run(script: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(dist, script)], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

// a database of its own: the command acts on an install without any super user
const dbName = `wa_test_first_super_${uniqueSuffix().replace(/\W/g, '_').toLowerCase()}`;
const dbUrl = (() => {
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
let auth: AuthUnderTest | undefined;

beforeAll(async () => {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
});

afterAll(async () => {
  await auth?.close();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
});

describe('the first super user of a production install', () => {
  const email = 'owner@provider.example';
  const temporary = 'temporary-pass-0001';
  const prodEnv = () => testEnv({ NODE_ENV: 'production', DATABASE_URL: dbUrl, SUPER_USER_EMAIL: email, SUPER_USER_PASSWORD: temporary });

  it('the demo seed refuses to run in production', async () => {
    const res = await run('seed.js', prodEnv());
    expect(res.code).toBe(78);
    expect(res.out).toContain('seed-super-user');
  });

  it('is made by the one-off command from the environment, once; and must set a new password at first sign-in', async () => {
    expect((await run('migrate.js', prodEnv())).code).toBe(0);
    const missing = await run('seed-super-user.js', testEnv({ NODE_ENV: 'production', DATABASE_URL: dbUrl }));
    expect(missing.code).toBe(78);
    expect(missing.out).toContain('SUPER_USER_EMAIL');
    const placeholder = await run('seed-super-user.js', { ...prodEnv(), SUPER_USER_PASSWORD: 'change-me-please-now' });
    expect(placeholder.code).toBe(78);

    const first = await run('seed-super-user.js', prodEnv());
    expect({ code: first.code, out: first.out }).toEqual({ code: 0, out: expect.stringContaining(`super user ${email} created`) });
    const again = await run('seed-super-user.js', { ...prodEnv(), SUPER_USER_EMAIL: 'someone@else.example' });
    expect(again.code).toBe(0);
    expect(again.out).toContain('exists already');

    auth = await startAuth({ DATABASE_URL: dbUrl });
    const http = auth.client();
    const plain = await http.post('/auth/login', { body: { email, password: temporary } });
    expect(plain.status).toBe(403);
    expect(plain.body.error).toBe('ERR_PASSWORD_CHANGE_REQUIRED');
    const wrong = await http.post('/auth/login', { body: { email, password: 'not-the-password', newPassword: 'mine-now-123' } });
    expect(wrong.status).toBe(401);
    const same = await http.post('/auth/login', { body: { email, password: temporary, newPassword: temporary } });
    expect(same.status).toBe(400);
    // their own password follows the rule every chosen password follows (spec 02 §5)
    const weak = await http.post('/auth/login', { body: { email, password: temporary, newPassword: 'mine-now-123' } });
    expect({ status: weak.status, error: weak.body.error, message: weak.body.message }).toEqual({
      status: 400,
      error: 'ERR_VALIDATION',
      message: 'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
    });
    const set = await http.post('/auth/login', { body: { email, password: temporary, newPassword: 'Mine-now-123' } });
    expect(set.status).toBe(200);
    expect(set.body.user).toMatchObject({ email, super: true, profile: 'admin' });
    expect((await http.get('/auth/me', { token: set.body.token })).status).toBe(200);
    // the temporary password is gone; the new one signs in without further ado
    expect((await auth.client().post('/auth/login', { body: { email, password: temporary } })).status).toBe(401);
    const own = await auth.client().post('/auth/login', { body: { email, password: 'Mine-now-123' } });
    expect(own.status).toBe(200);
    // the provider's company holds the platform's sign-up switch, open
    const [row] = await auth.db.query(
      `SELECT s.value FROM auth.settings s JOIN auth.users u ON u."companyId" = s."companyId" WHERE u.email = $1 AND s.key = 'userCreation'`,
      [email],
    );
    expect(row?.value).toBe('enabled');
    expect((await http.get('/settings', { token: own.body.token })).body).toEqual(
      expect.arrayContaining([{ key: 'userCreation', value: 'enabled' }]),
    );
  });
});
