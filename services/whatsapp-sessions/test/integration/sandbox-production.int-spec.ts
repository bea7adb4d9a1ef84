import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  cleanup,
  companyPool,
  createConnection,
  fieldMessages,
  startSessions,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
} from './harness.js';

/** What production asks of a configuration (long secrets, the NATS user); the servers here accept them. */
const production = (more: Record<string, string> = {}) => ({
  NODE_ENV: 'production',
  CONNECTION_TOKEN_KEY: randomBytes(32).toString('hex'),
  NATS_USER: 'whatsapp-sessions',
  NATS_PASSWORD: `n${randomBytes(32).toString('hex')}`,
  ...more,
});

const companies = companyPool(2);
let prod: SessionsUnderTest;
let demo: SessionsUnderTest;
const created: Array<{ id: number; token: string; svc: () => SessionsUnderTest }> = [];

beforeAll(async () => {
  prod = await startSessions([companies[0]!], production());
  demo = await startSessions([companies[1]!], production({ SANDBOX_CHANNEL: 'enabled' }));
});

afterAll(async () => {
  for (const c of created) await cleanup(c.svc(), [c]);
  await prod?.close();
  await demo?.close();
});

describe('the sandbox channel in production', () => {
  it('is refused on connections and its phone hooks answer 404, unless SANDBOX_CHANNEL=enabled', async () => {
    const admin = tokenFor(companies[0]!, 'admin');
    const made = await prod.http.post('/whatsapp', { token: admin, body: { name: 'Sandbox', channel: 'sandbox' } });
    expect(made.status).toBe(400);
    expect(fieldMessages(made.body, 'channel').length).toBe(1);
    expect((await prod.http.get('/whatsapp', { token: admin })).body).toEqual([]);
    // without a channel: baileys, not the sandbox DEFAULT_CHANNEL of development
    const real = await createConnection(prod, admin, { name: 'Telefone' });
    created.push({ id: real.id, token: admin, svc: () => prod });
    expect(real.channel).toBe('baileys');
    const toSandbox = await prod.http.put(`/whatsapp/${real.id}`, { token: admin, body: { channel: 'sandbox' } });
    expect(toSandbox.status).toBe(400);
    // a sandbox row from before (or written by hand): its hooks are not there
    await prod.db.query(`UPDATE whatsapp.connections SET channel = 'sandbox' WHERE id = $1`, [real.id]);
    for (const res of [
      await prod.http.post(`/whatsappsession/${real.id}/sandbox/inbound`, { token: admin, body: { from: '5511999990001', body: 'oi' } }),
      await prod.http.post(`/whatsappsession/${real.id}/sandbox/inbound/batch`, {
        token: admin,
        body: { messages: [{ from: '5511999990001', body: 'oi' }] },
      }),
      await prod.http.get(`/whatsappsession/${real.id}/sandbox/outbox`, { token: admin }),
      await prod.http.put(`/whatsappsession/${real.id}/sandbox/contacts`, { token: admin, body: { contacts: [] } }),
      await prod.http.post(`/whatsappsession/${real.id}/sandbox/leave`, { token: admin, body: { number: '5511999990001' } }),
      await prod.http.post(`/whatsappsession/${real.id}/sandbox/ban`, { token: admin }),
      await prod.http.post(`/whatsappsession/${real.id}/sandbox/disconnect`, { token: admin, body: { code: 515 } }),
      await prod.http.post(`/whatsappsession/${real.id}/sandbox/offline`, { token: admin, body: { seconds: 5 } }),
      await prod.http.post(`/whatsappsession/${real.id}/sandbox/call`, { token: admin, body: { from: '5511999990001' } }),
      await prod.http.get(`/whatsappsession/${real.id}/sandbox/calls`, { token: admin }),
      await prod.http.post(`/whatsappsession/${real.id}/sandbox/history`, { token: admin, body: { contacts: [] } }),
    ]) {
      expect(res.status).toBe(404);
    }

    // a demo platform turns it on
    const demoAdmin = tokenFor(companies[1]!, 'admin');
    const sandbox = await createConnection(demo, demoAdmin, { name: 'Demo', channel: 'sandbox' });
    created.push({ id: sandbox.id, token: demoAdmin, svc: () => demo });
    await waitForStatus(demo, demoAdmin, sandbox.id, 'CONNECTED');
    expect(
      (
        await demo.http.post(`/whatsappsession/${sandbox.id}/sandbox/inbound`, {
          token: demoAdmin,
          body: { from: '5511999990001', body: 'oi' },
        })
      ).status,
    ).toBe(202);
    expect((await demo.http.get(`/whatsappsession/${sandbox.id}/sandbox/outbox`, { token: demoAdmin })).status).toBe(200);
  });
});
