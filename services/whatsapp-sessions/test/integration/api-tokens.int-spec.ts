import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { WhatsappDto } from '@wa/contracts';
import { createConnection, sessionsSuite, tokenFor, type SessionsUnderTest } from './harness.js';

let next = 0;
let svc: SessionsUnderTest;
const { companies, created } = sessionsSuite(6, (s) => (svc = s));

function newCompany() {
  const companyId = companies[next++]!;
  return { companyId, admin: tokenFor(companyId, 'admin') };
}

async function create(token: string, body: Record<string, unknown> = {}): Promise<WhatsappDto> {
  const c = await createConnection(svc, token, body);
  created.push({ id: c.id, token });
  return c;
}

/** What a refusal says, without what differs per request (its id). */
const answer = (res: { status: number; body: Record<string, unknown> }) => ({
  status: res.status,
  error: res.body.error,
  message: res.body.message,
  details: res.body.details,
});

describe('connections: API tokens cannot be guessed', () => {
  it('draws a token of 32 random bytes for every connection made without one, and a new one on demand', async () => {
    const { admin, companyId } = newCompany();
    const a = await create(admin, { name: 'Sem token' });
    const b = await create(admin, { name: 'Token nulo', token: null });
    const c = await create(admin, { name: 'Token vazio', token: '' });
    for (const x of [a, b, c]) expect(x.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([a.token, b.token, c.token]).size).toBe(3);
    // regenerated: a new one, and the old one no longer finds the connection
    const again = await svc.http.post(`/whatsapp/${a.id}/token`, { token: admin });
    expect(again.status).toBe(200);
    expect(again.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(again.body.token).not.toBe(a.token);
    expect((await svc.http.get(`/whatsapp/${a.id}`, { token: admin })).body.token).toBe(again.body.token);
    const hashes = await svc.db.query(`SELECT "tokenHash" FROM whatsapp.connections WHERE id = $1`, [a.id]);
    expect(hashes[0].tokenHash).not.toBeNull();
    // agents cannot
    expect((await svc.http.post(`/whatsapp/${a.id}/token`, { token: tokenFor(companyId, 'user') })).status).toBe(403);
  });

  it("takes an admin's own token only when it is 32 characters or more of letters, digits, - and _; every refusal reads the same, a taken one too", async () => {
    const a = newCompany();
    const b = newCompany();
    const taken = `A-${randomBytes(24).toString('base64url')}`;
    await create(a.admin, { name: 'Dona do token', token: taken });
    const refusals = [];
    for (const token of [
      '1',
      'abc123',
      'x'.repeat(31).replace(/x/g, (_, i: number) => 'abcdefghij'[i % 10]!),
      `${'abcdefgh'.repeat(4)} ç`,
      'a'.repeat(64),
      'ab'.repeat(20),
      `${randomBytes(20).toString('base64')}==/+`,
      taken,
    ]) {
      const res = await svc.http.post('/whatsapp', { token: b.admin, body: { name: `T ${refusals.length}`, token } });
      refusals.push(answer(res));
    }
    expect(refusals[0]).toMatchObject({ status: 400, error: 'ERR_VALIDATION' });
    // the same answer, word for word, whether the token is too short, badly made or another company's
    for (const r of refusals) expect(r).toEqual(refusals[0]);
    expect((await svc.http.get('/whatsapp', { token: b.admin })).body).toEqual([]);
    // on update too
    const mine = await create(b.admin, { name: 'Minha' });
    const put = await svc.http.put(`/whatsapp/${mine.id}`, { token: b.admin, body: { token: taken } });
    expect(answer(put)).toEqual(refusals[0]);
    expect((await svc.http.put(`/whatsapp/${mine.id}`, { token: b.admin, body: { token: 'short' } })).status).toBe(400);
    expect((await svc.http.get(`/whatsapp/${mine.id}`, { token: b.admin })).body.token).toBe(mine.token);
    // a good one is taken; saving the form again with it unchanged is fine
    const good = `${randomBytes(16).toString('hex')}`;
    expect((await svc.http.put(`/whatsapp/${mine.id}`, { token: b.admin, body: { token: good } })).body.token).toBe(good);
    expect((await svc.http.put(`/whatsapp/${mine.id}`, { token: b.admin, body: { token: good, name: 'Minha 2' } })).status).toBe(200);
  });
});
