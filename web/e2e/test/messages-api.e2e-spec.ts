import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { api, launchChromium, poll, productUrls, signedInPage, step, tokenOf } from './browser';

/**
 * The external messages API page in a real browser (spec 02 §2 "External messages API page"): the demo
 * admin opens /messages-api from the menu and reads the documentation; the test form refuses what the
 * spec's rules refuse, then sends a text with the demo sandbox connection's API token (set through the
 * API first) to the public API (202, state "queued"), and the sandbox phone receives it; a file goes
 * the same way with its caption.
 */
const { webUrl, apiUrl } = productUrls();
const run = Date.now().toString(36);
const digits = String(Date.now()).slice(-8);
/** 13 digits (country, area code, 9 + 8 digits): on the sandbox phone's WhatsApp */
const textNumber = `55119${digits}`;
const mediaNumber = `55119${String((Number(digits) + 1) % 100_000_000).padStart(8, '0')}`;
const apiToken = `e2e-api-${randomBytes(12).toString('hex')}`;
/** a 1×1 PNG */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let browser: Browser;
let page: Page;
const pages = () => (page && !page.isClosed() ? [page] : []);

const token = () => tokenOf(page);

type OutboxItem = { to: string; body: string; media: { mimetype: string; fileName: string } | null };
const outbox = async (connectionId: number) =>
  (await api<{ items: OutboxItem[] }>(`/whatsappsession/${connectionId}/sandbox/outbox`, await token())).body.items;

beforeAll(async () => {
  browser = await launchChromium();
  page = await signedInPage(browser);
});

afterAll(async () => {
  await browser?.close();
});

describe('the external messages API page', () => {
  let connectionId = 0;

  it("gives the demo's sandbox connection an API token, and opens the page from the menu with the documentation", () =>
    step('messages api docs', pages, async () => {
      const { body: connections } = await api<Array<{ id: number; channel: string; status: string }>>('/whatsapp', await token());
      const sandbox = connections.find((c) => c.channel === 'sandbox' && c.status === 'CONNECTED');
      if (!sandbox) throw new Error('the demo has no connected sandbox connection');
      connectionId = sandbox.id;
      // the token an admin sets in the connection's dialog
      expect(
        (await api(`/whatsapp/${connectionId}`, await token(), { method: 'PUT', body: JSON.stringify({ token: apiToken }) })).status,
      ).toBe(200);

      await page.getByTestId('menu-messagesAPI').click();
      await page.waitForURL(`${webUrl}/messages-api`);
      await page.getByTestId('messages-api-page').waitFor();
      const docs = page.getByTestId('messages-api-docs');
      // the address on the API host the app uses, the bearer header, text and media examples, the errors
      expect(await docs.getByTestId('messages-api-endpoint').innerText()).toBe(`POST ${apiUrl}/api/messages/send`);
      const curlText = await docs.getByTestId('messages-api-curl-text').innerText();
      expect(curlText).toContain(`${apiUrl}/api/messages/send`);
      expect(curlText).toContain('Authorization: Bearer SEU_TOKEN');
      expect(curlText).toContain('"number":"5511987654321"');
      const curlMedia = await docs.getByTestId('messages-api-curl-media').innerText();
      expect(curlMedia).toContain("-F 'medias=@");
      expect(await docs.getByTestId('messages-api-curl-status').innerText()).toContain('/api/messages/1234');
      const errors = await docs.getByTestId('messages-api-error-row').allInnerTexts();
      expect(errors.map((r) => r.split(/\s+/).slice(0, 2).join(' '))).toEqual([
        '400 ERR_VALIDATION',
        '400 ERR_WAPP_INVALID_CONTACT',
        '400 ERR_WAPP_NOT_INITIALIZED',
        '401 ERR_UNAUTHENTICATED',
        '403 ERR_NO_PERMISSION',
        '429 ERR_TOO_MANY_ATTEMPTS',
      ]);
      expect(await docs.innerText()).toContain('Idempotency-Key');
      expect(await docs.innerText()).toContain('Retry-After');
    }));

  it('refuses an empty form and a masked number', () =>
    step('messages api validation', pages, async () => {
      const form = page.getByTestId('messages-api-text-form');
      await form.getByTestId('messages-api-text-submit').click();
      // token, number and body
      await poll('three "Obrigatório"', async () => (await form.getByText('Obrigatório', { exact: true }).count()) === 3);
      await form.getByTestId('messages-api-text-number').fill('+55 (11) 98765-4321');
      await form.getByText('Só números, sem máscara').waitFor();
      expect(await form.getByTestId('messages-api-text-answer').count()).toBe(0);

      const media = page.getByTestId('messages-api-media-form');
      await media.getByTestId('messages-api-media-submit').click();
      // token, number and the file; the caption is optional
      await poll(
        'three "Obrigatório" in the media section',
        async () => (await media.getByText('Obrigatório', { exact: true }).count()) === 3,
      );
    }));

  it("sends a text with the connection's token (not the session's, no cookies): 202 queued, and the sandbox phone gets it", () =>
    step('messages api text send', pages, async () => {
      const body = `Pedido ${run} saiu para entrega`;
      const form = page.getByTestId('messages-api-text-form');
      await form.getByTestId('messages-api-text-token').fill(apiToken);
      await form.getByTestId('messages-api-text-number').fill(textNumber);
      await form.getByTestId('messages-api-text-body').fill(body);
      const request = page.waitForRequest((r) => r.url() === `${apiUrl}/api/messages/send` && r.method() === 'POST');
      await form.getByTestId('messages-api-text-submit').click();
      const headers = await (await request).allHeaders();
      expect(headers.authorization).toBe(`Bearer ${apiToken}`);
      expect(headers.cookie).toBeUndefined();

      const answer = form.getByTestId('messages-api-text-answer');
      await answer.waitFor();
      expect(await answer.getAttribute('data-status')).toBe('202');
      expect(await answer.getAttribute('data-state')).toBe('queued');
      expect(await answer.getByTestId('messages-api-text-answer-state').textContent()).toBe('queued');
      const shown = JSON.parse(await answer.getByTestId('messages-api-text-answer-body').innerText()) as {
        id: number;
        ticketId: number;
        number: string;
        body: string;
        state: string;
      };
      expect(shown).toMatchObject({ number: textNumber, body, state: 'queued' });
      expect(shown.id).toBeGreaterThan(0);
      await page.getByText('Mensagem enviada com sucesso').first().waitFor();

      // sends are paced per connection: it may wait its turn
      const sent = await poll(
        'the text on the sandbox phone',
        async () => (await outbox(connectionId)).find((i) => i.to === textNumber && i.body === body),
        30_000,
      );
      expect(sent.media).toBeNull();
    }));

  it('sends a file with its caption from the media section', () =>
    step('messages api media send', pages, async () => {
      const caption = `Nota fiscal ${run}`;
      const form = page.getByTestId('messages-api-media-form');
      await form.getByTestId('messages-api-media-token').fill(apiToken);
      await form.getByTestId('messages-api-media-number').fill(mediaNumber);
      await form.getByTestId('messages-api-media-body').fill(caption);
      await form.getByTestId('messages-api-media-file').setInputFiles({ name: 'nota.png', mimeType: 'image/png', buffer: PNG });
      expect(await form.getByTestId('messages-api-media-file-names').innerText()).toBe('nota.png');
      await form.getByTestId('messages-api-media-submit').click();
      const answer = form.getByTestId('messages-api-media-answer');
      await answer.waitFor();
      expect(await answer.getAttribute('data-status')).toBe('202');
      expect(JSON.parse(await answer.getByTestId('messages-api-media-answer-body').innerText())).toMatchObject({
        number: mediaNumber,
        mediaType: 'image',
        state: 'queued',
      });

      const sent = await poll(
        'the file on the sandbox phone',
        async () => (await outbox(connectionId)).find((i) => i.to === mediaNumber),
        30_000,
      );
      expect(sent).toMatchObject({ body: caption, media: { mimetype: 'image/png', fileName: 'nota.png' } });
    }));
});
