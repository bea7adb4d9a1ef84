import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTickets, TestCompany, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;

beforeAll(async () => {
  // as shipped: webhooks and queue integrations may not reach private, loopback or link-local addresses
  t = await startTickets({});
});

afterAll(async () => {
  await t?.close();
});

/** The answer to a URL into the platform's network: 400 ERR_VALIDATION with the guard's text (`url` names the case). */
function refusedAsPrivate(res: { status: number; body: { error?: string } }, url: string): void {
  expect({ url, status: res.status, error: res.body.error }).toEqual({ url, status: 400, error: 'ERR_VALIDATION' });
  expect(JSON.stringify(res.body)).toContain('Endereço não permitido');
}

describe('webhooks and private addresses (WEBHOOK_ALLOW_PRIVATE off)', () => {
  it('refuses a URL on loopback, a private network, link-local (cloud metadata) or a name resolving to them', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    for (const url of [
      'http://127.0.0.1:8080/h',
      'http://localhost/h',
      'http://10.1.2.3/h',
      'http://192.168.0.10/h',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/h',
      'http://[fe80::1]/h',
      'http://0.0.0.0/h',
    ]) {
      refusedAsPrivate(
        await t.http.put('/webhook-settings', {
          token: admin.token,
          body: { url, secret: 'segredo-da-loja-123456', events: ['message.received'] },
        }),
        url,
      );
    }
    expect((await t.http.get('/webhook-settings', { token: admin.token })).body.url).toBeNull();
  });
});

describe('queue integrations and private addresses (WEBHOOK_ALLOW_PRIVATE off)', () => {
  it('refuses a webhook, n8n or Typebot URL on loopback, a private network or link-local, on create and on edit, writing nothing', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    for (const [type, urlN8N] of [
      ['webhook', 'http://127.0.0.1:5678/webhook/bot'],
      ['n8n', 'http://192.168.0.10/webhook/bot'],
      ['typebot', 'http://169.254.169.254/latest/meta-data'],
      ['webhook', 'http://localhost/h'],
    ]) {
      refusedAsPrivate(
        await t.http.post('/queueIntegration', {
          token: admin.token,
          body: { type, name: `Fluxo ${type}`, urlN8N, typebotSlug: 'atendimento' },
        }),
        urlN8N,
      );
    }
    expect((await t.http.get('/queueIntegration', { token: admin.token })).body).toMatchObject({ queueIntegrations: [], count: 0 });

    // one on a public address is kept; moving it into the platform's network is refused and leaves it as it was
    const kept = await t.http.post('/queueIntegration', {
      token: admin.token,
      body: { type: 'webhook', name: 'Fluxo público', urlN8N: 'http://8.8.8.8/hook' },
    });
    expect(kept.status).toBe(201);
    refusedAsPrivate(
      await t.http.put(`/queueIntegration/${kept.body.id}`, { token: admin.token, body: { urlN8N: 'http://10.1.2.3/hook' } }),
      'http://10.1.2.3/hook',
    );
    expect((await t.http.get(`/queueIntegration/${kept.body.id}`, { token: admin.token })).body.urlN8N).toBe('http://8.8.8.8/hook');
  });
});
