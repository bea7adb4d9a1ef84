import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { REDIS } from '@wa/server-kit';
import { HttpClient, randomIp, uniqueEmail, waitFor } from '@wa/testing';
import type { Redis } from 'ioredis';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { login, newCompany, startAuth, type AuthUnderTest } from './harness.js';

/** A real SMTP peer: what the product sends lands here, as it would at the company's mail server. */
interface Mail {
  to: string[];
  raw: string;
}
const inbox: Mail[] = [];
let smtp: SMTPServer;
let auth: AuthUnderTest;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (raw += d));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  auth = await startAuth({ SMTP_URL: `smtp://127.0.0.1:${port}`, RESET_MAX_PER_EMAIL: '3', RESET_MAX_PER_IP: '6' });
});

afterAll(async () => {
  await auth?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** The code of the newest mail to `email`. */
async function codeSentTo(email: string, after = 0): Promise<string> {
  return waitFor(async () => {
    const mails = inbox.filter((m) => m.to.includes(email));
    if (mails.length <= after) return undefined;
    // quoted-printable may wrap lines; the code is the digits after "senha é:"
    const text = (mails[mails.length - 1] as Mail).raw.replace(/=\r?\n/g, '');
    return /senha =C3=A9: (\d+)|senha é: (\d+)/.exec(text)?.slice(1).find(Boolean);
  });
}

const sentTo = (email: string) => inbox.filter((m) => m.to.includes(email)).length;

describe('password reset (spec 02 §5, §7, /forgetpsw)', () => {
  it('sends a code by email; the code with a good new password resets it once and ends every session', async () => {
    const c = await newCompany(auth.db);
    const http = auth.client();
    const session = await login(http, c.admin.email, c.admin.password);
    const ask = await http.post(`/forgetpassword/${encodeURIComponent(c.admin.email.toUpperCase())}`);
    expect(ask.status).toBe(200);
    expect(ask.body).toEqual({ message: 'Email enviado com sucesso!' });
    const code = await codeSentTo(c.admin.email);

    const weak = await http.post(`/resetpasswords/${c.admin.email}/${code}/fraca123`);
    expect({ status: weak.status, error: weak.body.error }).toEqual({ status: 400, error: 'ERR_VALIDATION' });
    expect(JSON.stringify(weak.body)).toContain(
      'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
    );
    const wrong = await http.post(`/resetpasswords/${c.admin.email}/${code === '00000000' ? '00000001' : '00000000'}/NovaSenha123`);
    expect({ status: wrong.status, error: wrong.body.error }).toEqual({ status: 400, error: 'ERR_INVALID_RESET_CODE' });

    const done = await http.post(`/resetpasswords/${c.admin.email}/${code}/NovaSenha123`);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: 'Senha redefinida com sucesso.' });
    // the sessions from before are over: the token and the refresh cookie are refused
    expect((await http.get('/auth/me', { token: session.token })).status).toBe(401);
    expect((await http.post('/auth/refresh_token', { cookie: `jrt=${session.refresh}` })).status).toBe(401);
    // the old password is gone, the new one works
    expect((await auth.client().post('/auth/login', { body: { email: c.admin.email, password: c.admin.password } })).status).toBe(401);
    await login(auth.client(), c.admin.email, 'NovaSenha123');
    // the code worked once
    const again = await http.post(`/resetpasswords/${c.admin.email}/${code}/OutraSenha456`);
    expect(again.body.error).toBe('ERR_INVALID_RESET_CODE');
  });

  it("answers 'Email não encontrado' (404) for an unknown address, refuses a malformed one, and limits asking per email and per address", async () => {
    const http = auth.client();
    const unknown = await http.post(`/forgetpassword/${uniqueEmail('ninguem')}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'ERR_EMAIL_NOT_FOUND', message: 'Email não encontrado' });
    const malformed = await http.post('/forgetpassword/nao-e-email');
    expect({ status: malformed.status, error: malformed.body.error }).toEqual({ status: 400, error: 'ERR_VALIDATION' });

    // per email: 3 codes in the window, from any address
    const c = await newCompany(auth.db);
    for (let i = 0; i < 3; i++) expect((await auth.client().post(`/forgetpassword/${c.admin.email}`)).status).toBe(200);
    const limited = await auth.client().post(`/forgetpassword/${c.admin.email}`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(sentTo(c.admin.email)).toBe(3);

    // per address: one address cannot go through a list of emails
    const spray = new HttpClient(auth.baseUrl, { 'x-forwarded-for': randomIp() });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await spray.post(`/forgetpassword/${uniqueEmail('lista')}`)).status);
    expect(statuses.slice(0, 6)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(statuses.slice(6)).toEqual([429, 429]);
  });

  it('a code expires, is replaced by a newer one, and dies after five wrong tries', async () => {
    const c = await newCompany(auth.db);
    const http = auth.client();
    await http.post(`/forgetpassword/${c.admin.email}`);
    const first = await codeSentTo(c.admin.email);
    await http.post(`/forgetpassword/${c.admin.email}`);
    const second = await codeSentTo(c.admin.email, 1);
    if (first !== second)
      expect((await http.post(`/resetpasswords/${c.admin.email}/${first}/NovaSenha123`)).body.error).toBe('ERR_INVALID_RESET_CODE');
    // five wrong tries: the right code no longer works
    const wrong = second === '11111111' ? '22222222' : '11111111';
    for (let i = 0; i < 5; i++) expect((await http.post(`/resetpasswords/${c.admin.email}/${wrong}/NovaSenha123`)).status).toBe(400);
    expect((await http.post(`/resetpasswords/${c.admin.email}/${second}/NovaSenha123`)).body.error).toBe('ERR_INVALID_RESET_CODE');

    // expired: past its time it is refused
    await http.post(`/forgetpassword/${c.admin.email}`);
    const third = await codeSentTo(c.admin.email, 2);
    await auth.db.query(
      `UPDATE auth.password_resets SET "expiresAt" = now() - interval '1 second' WHERE "userId" = $1 AND "usedAt" IS NULL`,
      [c.adminId],
    );
    expect((await http.post(`/resetpasswords/${c.admin.email}/${third}/NovaSenha123`)).body.error).toBe('ERR_INVALID_RESET_CODE');
    await login(auth.client(), c.admin.email, c.admin.password);
  });

  it('a code has 8 digits; a shorter one (the 6 digits of before) is refused', async () => {
    const c = await newCompany(auth.db);
    const http = auth.client();
    expect((await http.post(`/forgetpassword/${c.admin.email}`)).status).toBe(200);
    const code = await codeSentTo(c.admin.email);
    expect(code).toMatch(/^\d{8}$/);
    const short = await http.post(`/resetpasswords/${c.admin.email}/${code.slice(0, 6)}/NovaSenha123`);
    expect({ status: short.status, error: short.body.error }).toEqual({ status: 400, error: 'ERR_INVALID_RESET_CODE' });
    expect((await http.post(`/resetpasswords/${c.admin.email}/${code}/NovaSenha123`)).status).toBe(200);
  });

  it('at most 5 codes a day per account; past it, a known and an unknown email get the same answer, and no mail goes out', async () => {
    const c = await newCompany(auth.db);
    const nobody = uniqueEmail('ninguem');
    const redis = auth.app.get<Redis>(REDIS);
    // the 15-minute window (3 codes) is over between bursts: only the day's count remains
    const windowPassed = (email: string) => redis.del(`auth:reset-ask:email:${email.toLowerCase()}`);
    const asked: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      if (i % 3 === 0) await Promise.all([windowPassed(c.admin.email), windowPassed(nobody)]);
      asked.push((await auth.client().post(`/forgetpassword/${c.admin.email}`)).status);
      unknown.push((await auth.client().post(`/forgetpassword/${nobody}`)).status);
    }
    expect(asked).toEqual([200, 200, 200, 200, 200]);
    expect(unknown).toEqual([404, 404, 404, 404, 404]);
    await waitFor(async () => sentTo(c.admin.email) === 5);
    await Promise.all([windowPassed(c.admin.email), windowPassed(nobody)]);
    const sixth = await auth.client().post(`/forgetpassword/${c.admin.email}`);
    const sixthUnknown = await auth.client().post(`/forgetpassword/${nobody}`);
    expect({ status: sixth.status, error: sixth.body.error }).toEqual({ status: 429, error: 'ERR_TOO_MANY_ATTEMPTS' });
    const { requestId: _a, retryAfter: _b, ...answer } = sixth.body;
    const { requestId: _c, retryAfter: _d, ...unknownAnswer } = sixthUnknown.body;
    expect({ status: sixthUnknown.status, body: unknownAnswer }).toEqual({ status: sixth.status, body: answer });
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(3600);
    expect(sentTo(c.admin.email)).toBe(5);
  });
});
