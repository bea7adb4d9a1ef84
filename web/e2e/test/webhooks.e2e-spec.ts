import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { api, launchChromium, poll, productUrls, signedInPage, step, tokenOf } from './browser';

/**
 * The webhooks page in a real browser (issue 45 §3): the demo admin opens /webhooks from the menu, points the
 * company's webhook at an HTTP server this test runs on loopback (the browser tests' product allows private
 * addresses) and keeps the secret the server made, shown once; a customer's message on the demo's sandbox
 * connection reaches that server signed with it and shows in the log as delivered; "Reenviar" makes a new
 * delivery on top of the log, and the server gets the same payload again, signed.
 */
const { webUrl } = productUrls();
const run = Date.now().toString(36);
const customer = `55117${String(Date.now()).slice(-8)}`;

interface Received {
  headers: Record<string, string>;
  raw: string;
  body: { id: string; event: string; data: { message?: { body?: string } } };
}

/** What an integrator runs: takes every delivery (200) and keeps it. */
const received: Received[] = [];
const receiver: Server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    try {
      received.push({ headers: req.headers as Record<string, string>, raw, body: JSON.parse(raw) });
    } catch {
      // not JSON: not ours
    }
    res.writeHead(200).end();
  });
});
let receiverUrl = '';

/** Whether a delivery carries the signature the secret makes: sha256=HMAC-SHA256 of "<timestamp>.<body>". */
const signedWith = (r: Received, secret: string) =>
  r.headers['x-webhook-signature'] ===
  `sha256=${createHmac('sha256', secret).update(`${r.headers['x-webhook-timestamp']}.${r.raw}`).digest('hex')}`;

let browser: Browser;
let page: Page;
const pages = () => (page && !page.isClosed() ? [page] : []);

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook-${run}`;
  browser = await launchChromium();
  page = await signedInPage(browser);
});

afterAll(async () => {
  // the demo company's webhook goes with the receiver: the other browser tests' events go nowhere
  if (page && !page.isClosed()) await api('/webhook-settings', await tokenOf(page), { method: 'DELETE' }).catch(() => undefined);
  await browser?.close();
  await new Promise((r) => receiver.close(r));
});

describe('the webhooks page', () => {
  let secret = '';
  let deliveryId = '';

  it('saves the webhook from the page and shows the secret the server made, once', () =>
    step('webhooks save', pages, async () => {
      await page.getByTestId('menu-webhooks').click();
      await page.waitForURL(`${webUrl}/webhooks`);
      const form = page.getByTestId('webhook-form');
      await form.waitFor();
      await form.getByTestId('webhook-url').fill(receiverUrl);
      // a new webhook starts with the messages received and sent ticked
      expect(await form.getByTestId('webhook-event-message.received').getAttribute('data-state')).toBe('checked');
      await form.getByTestId('webhook-save').click();

      const dialog = page.getByTestId('webhook-secret-dialog');
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain('Guarde agora: não será mostrado de novo.');
      secret = await dialog.getByTestId('webhook-secret-value').inputValue();
      expect(secret).toMatch(/^whsec_/);
      await dialog.getByTestId('webhook-secret-close').click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.content()).not.toContain(secret);
      await poll('the secret set', async () => (await page.getByTestId('webhook-secret-state').innerText()).startsWith('Definido'));

      // never again from the server either
      const read = await api<Record<string, unknown>>('/webhook-settings', await tokenOf(page));
      expect(read.body).toMatchObject({ url: receiverUrl, enabled: true, hasSecret: true });
      expect(JSON.stringify(read.body)).not.toContain(secret);
    }));

  it("delivers a customer's message to the receiver, signed, and the log shows it delivered", () =>
    step('webhooks delivery', pages, async () => {
      const token = await tokenOf(page);
      const { body: connections } = await api<Array<{ id: number; channel: string; status: string }>>('/whatsapp', token);
      const sandbox = connections.find((c) => c.channel === 'sandbox' && c.status === 'CONNECTED');
      if (!sandbox) throw new Error('the demo has no connected sandbox connection');
      const text = `Quero saber do pedido (${run})`;
      expect(
        (
          await api(`/whatsappsession/${sandbox.id}/sandbox/inbound`, token, {
            method: 'POST',
            body: JSON.stringify({ from: customer, name: `Webhook ${run}`, body: text }),
          })
        ).status,
      ).toBe(202);
      const got = await poll(
        'the delivery at the receiver',
        async () => received.find((r) => r.body.event === 'message.received' && r.body.data.message?.body === text),
        30_000,
      );
      expect(signedWith(got, secret)).toBe(true);
      deliveryId = got.body.id;

      // the log reads itself again every few seconds
      const row = page.getByTestId(`webhook-delivery-${deliveryId}`);
      await poll(
        'the delivery in the log, delivered',
        async () => (await row.getAttribute('data-status').catch(() => null)) === 'delivered',
        30_000,
      );
      expect(await row.getByTestId('webhook-delivery-status').innerText()).toMatch(/entregue/i);
      expect(await row.getByTestId('webhook-delivery-last').innerText()).toBe('HTTP 200');
    }));

  it('replays the delivery: a new one on top of the log, and the receiver gets the same payload again, signed', () =>
    step('webhooks replay', pages, async () => {
      const before = received.length;
      await page.getByTestId(`webhook-delivery-${deliveryId}`).getByTestId('webhook-delivery-replay').click();
      const top = page.getByTestId('webhook-deliveries-table').locator('tbody tr').first();
      await poll('the replay on top of the log', async () => (await top.innerText()).includes(`reenvio de #${deliveryId}`));
      const replayId = (await top.getAttribute('data-delivery-id')) ?? '';
      expect(replayId).not.toBe(deliveryId);

      const again = await poll(
        'the replay at the receiver',
        async () => received.slice(before).find((r) => r.body.id === replayId),
        30_000,
      );
      const original = received.find((r) => r.body.id === deliveryId);
      const { id: _a, ...originalPayload } = original?.body ?? ({} as Received['body']);
      const { id: _b, ...replayedPayload } = again.body;
      expect(replayedPayload).toEqual(originalPayload);
      expect(signedWith(again, secret)).toBe(true);
      await poll(
        'the replay delivered in the log',
        async () =>
          (await page
            .getByTestId(`webhook-delivery-${replayId}`)
            .getAttribute('data-status')
            .catch(() => null)) === 'delivered',
        30_000,
      );
    }));
});
