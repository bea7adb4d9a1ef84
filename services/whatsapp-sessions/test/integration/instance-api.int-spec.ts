import { describe, expect, it } from '@jest/globals';
import { signApiIdentity } from '@wa/auth';
import { TEST_JWT_SECRET } from '@wa/testing';
import { connectionOf, createConnection, sessionsSuite, tokenFor, waitForStatus, type SessionsUnderTest } from './harness.js';

/**
 * Issue 45 §3: the public API's instance (`/api/v1/instance`) as whatsapp-sessions answers it behind the gateway:
 * only with the gateway's signed identity of a connection (what it forwards for a good API token), never with a
 * user's token; the identity's company scopes the connection.
 */

let svc: SessionsUnderTest;
const { companies, created } = sessionsSuite(2, (s) => (svc = s));

/** What the gateway forwards for a connection's API token. */
const identity = (companyId: number, connectionId: number) => signApiIdentity({ companyId, connectionId }, TEST_JWT_SECRET);

describe('whatsapp-sessions: the public instance API', () => {
  it("answers the identity's connection only: a user's token is refused, another company's connection is not found", async () => {
    const [a, b] = [companies[0]!, companies[1]!];
    const token = tokenFor(a);
    const c = await createConnection(svc, token, { name: 'Instancia' });
    created.push({ id: c.id, token });
    await waitForStatus(svc, token, c.id, 'CONNECTED');

    const mine = await svc.http.get('/api/v1/instance', { token: identity(a, c.id) });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      id: c.id,
      name: 'Instancia',
      status: 'CONNECTED',
      number: null,
      qrcode: null,
      updatedAt: expect.any(String),
    });

    // an admin's own token is not the API's; none at all neither
    for (const t of [token, undefined]) {
      const res = await svc.http.get('/api/v1/instance', { token: t });
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 401, error: 'ERR_UNAUTHENTICATED' });
    }
    // an identity of another company naming this connection finds nothing and changes nothing
    for (const [method, path] of [
      ['GET', '/api/v1/instance'],
      ['GET', '/api/v1/instance/qrcode'],
      ['POST', '/api/v1/instance/logout'],
      ['POST', '/api/v1/instance/restart'],
    ] as const) {
      const forged = { token: identity(b, c.id) };
      const res = method === 'GET' ? await svc.http.get(path, forged) : await svc.http.post(path, forged);
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 404, error: 'ERR_NO_WAPP_FOUND' });
    }
    expect((await connectionOf(svc, token, c.id)).status).toBe('CONNECTED');

    // its own logout and restart act on it
    const out = await svc.http.post('/api/v1/instance/logout', { token: identity(a, c.id) });
    expect(out.status).toBe(202);
    await waitForStatus(svc, token, c.id, 'DISCONNECTED');
    const qr = await svc.http.get('/api/v1/instance/qrcode', { token: identity(a, c.id) });
    expect({ status: qr.status, body: qr.body }).toEqual({ status: 200, body: { status: 'DISCONNECTED', qrcode: null } });
    const code = await svc.http.post('/api/v1/instance/pairing-code', { token: identity(a, c.id), body: { number: '5511987650004' } });
    expect({ status: code.status, error: code.body.error }).toEqual({ status: 400, error: 'ERR_WAPP_NOT_INITIALIZED' });
    expect((await svc.http.post('/api/v1/instance/restart', { token: identity(a, c.id) })).status).toBe(202);
    await waitForStatus(svc, token, c.id, 'CONNECTED');
  });
});
