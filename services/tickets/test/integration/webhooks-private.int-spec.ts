import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTickets, TestCompany, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;

beforeAll(async () => {
  // as shipped: webhooks may not reach private, loopback or link-local addresses
  t = await startTickets({});
});

afterAll(async () => {
  await t?.close();
});

describe('webhooks and private addresses (WEBHOOK_ALLOW_PRIVATE off)', () => {
  it('refuses a URL on loopback, a private network, link-local (cloud metadata) or a name resolving to them', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    for (const url of ['http://127.0.0.1:8080/h', 'http://localhost/h', 'http://10.1.2.3/h', 'http://192.168.0.10/h', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/h', 'http://[fe80::1]/h', 'http://0.0.0.0/h']) {
      const res = await t.http.put('/webhook-settings', { token: admin.token, body: { url, secret: 'segredo-da-loja-123456', events: ['message.received'] } });
      expect({ url, status: res.status, error: res.body.error }).toEqual({ url, status: 400, error: 'ERR_VALIDATION' });
      expect(JSON.stringify(res.body)).toContain('Endereço não permitido');
    }
    expect((await t.http.get('/webhook-settings', { token: admin.token })).body.url).toBeNull();
  });
});
