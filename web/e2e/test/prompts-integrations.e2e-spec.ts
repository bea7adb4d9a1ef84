import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { api, launchChromium, poll, productUrls, signedInPage, step, tokenOf } from './browser';

/**
 * Prompts and queue integrations in a real browser (spec 02 §2 "Prompts", "Queue integrations", §5): the
 * demo admin (whose plan has useOpenAi and useIntegrations) adds a prompt on /prompts for a queue made through
 * the API (the dialog refuses it without a queue: 'Informe o setor'), sees it listed with its queue, and the
 * API answers its key masked; an edit sends the masked key back and the stored key stays. Then a webhook
 * integration on /queue-integration (a public IP literal as its URL: the server refuses private addresses and
 * this machine may not resolve names), listed with its type; both are deleted through the UI and the queue
 * through the API.
 */
const { webUrl } = productUrls();
const run = Date.now().toString(36);
/** a colour no other queue has (queue colours are unique) */
const color = `#${(Date.now() % 0xffffff).toString(16).padStart(6, '0')}`;

type Prompt = { id: number; name: string; apiKey: string; queueId: number; maxTokens: number; queue: { id: number; name: string } | null };
type Integration = { id: number; type: string; name: string; projectName: string; urlN8N: string };

let browser: Browser;
let page: Page;
const pages = () => (page && !page.isClosed() ? [page] : []);

let token = '';
let queueId = 0;
let promptId = 0;
let integrationId = 0;
const queueName = `Fila IA ${run}`;
const promptName = `Assistente ${run}`;
const promptText = 'Você é o assistente virtual da loja. Responda com cordialidade, em frases curtas, sobre pedidos e prazos.';
const apiKey = `sk-e2e-${run}-wxyz`;
const integrationName = `Hook ${run}`;
const hookUrl = 'http://93.184.215.14/hook';

beforeAll(async () => {
  browser = await launchChromium();
  page = await signedInPage(browser);
  token = await tokenOf(page);
  const made = await api<{ id: number }>('/queue', token, { method: 'POST', body: JSON.stringify({ name: queueName, color }) });
  expect(made.status).toBe(201);
  queueId = made.body.id;
});

afterAll(async () => {
  // whatever happened above, nothing made here stays in the shared demo company
  if (token) {
    if (promptId) await api(`/prompt/${promptId}`, token, { method: 'DELETE' }).catch(() => undefined);
    if (integrationId) await api(`/queueIntegration/${integrationId}`, token, { method: 'DELETE' }).catch(() => undefined);
    if (queueId) await api(`/queue/${queueId}`, token, { method: 'DELETE' }).catch(() => undefined);
  }
  await browser?.close();
});

describe('prompts and queue integrations in the console', () => {
  it('adds a prompt: without a queue it is refused, then it is listed with its queue and its key is answered masked', () =>
    step('add prompt', pages, async () => {
      await page.goto(`${webUrl}/prompts`);
      await page.getByTestId('prompts-page').waitFor();
      await page.getByTestId('prompts-add').click();
      const dialog = page.getByTestId('prompt-dialog');
      await dialog.getByLabel('Nome', { exact: true }).fill(promptName);
      await dialog.getByLabel('Prompt', { exact: true }).fill(promptText);
      await dialog.getByLabel('Chave da API (OpenAI)', { exact: true }).fill(apiKey);
      await dialog.getByTestId('prompt-save').click();
      await dialog.getByText('Informe o setor').waitFor();
      // the queue made for this test is offered
      await dialog.getByLabel('Setor', { exact: true }).selectOption(String(queueId));
      await dialog.getByTestId('prompt-save').click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Operação realizada com sucesso!').first().waitFor();

      const row = page.locator('[data-testid^="prompt-row-"]').filter({ hasText: promptName });
      await row.waitFor();
      promptId = Number(await row.getAttribute('data-prompt-id'));
      expect(promptId).toBeGreaterThan(0);
      expect(await row.getByTestId('prompt-queue-cell').innerText()).toBe(queueName);
      expect(await row.getByTestId('prompt-max-tokens-cell').innerText()).toBe('100');

      const stored = await api<Prompt>(`/prompt/${promptId}`, token);
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({ name: promptName, queueId, maxTokens: 100, queue: { id: queueId, name: queueName } });
      // never the key itself: its last four characters behind a mask
      expect(stored.body.apiKey).toBe(`••••••••${apiKey.slice(-4)}`);
      expect(JSON.stringify(stored.body)).not.toContain(apiKey);
    }));

  it('an edit shows the key masked and sends it back as shown: the stored key stays', () =>
    step('edit prompt', pages, async () => {
      const row = page.getByTestId(`prompt-row-${promptId}`);
      await row.getByTestId('prompt-edit').click();
      const dialog = page.getByTestId('prompt-dialog');
      await expect(dialog.getByTestId('prompt-api-key').inputValue()).resolves.toBe(`••••••••${apiKey.slice(-4)}`);
      await dialog.getByLabel('Máximo de tokens na resposta', { exact: true }).fill('200');
      await dialog.getByTestId('prompt-save').click();
      await dialog.waitFor({ state: 'detached' });
      await poll('200 max tokens in the list', async () => (await row.getByTestId('prompt-max-tokens-cell').innerText()) === '200');
      const stored = await poll('max tokens 200 stored', async () => {
        const { body } = await api<Prompt>(`/prompt/${promptId}`, token);
        return body.maxTokens === 200 ? body : null;
      });
      expect(stored.apiKey).toBe(`••••••••${apiKey.slice(-4)}`);
    }));

  it('adds a webhook integration: listed with its type, its project is its name', () =>
    step('add integration', pages, async () => {
      await page.goto(`${webUrl}/queue-integration`);
      await page.getByTestId('integrations-page').waitFor();
      await page.getByTestId('integrations-add').click();
      const dialog = page.getByTestId('integration-dialog');
      await dialog.getByLabel('Tipo', { exact: true }).selectOption('webhook');
      await dialog.getByTestId('integration-save').click();
      // name and URL are required
      await dialog.getByText('Required', { exact: true }).nth(1).waitFor();
      await dialog.getByLabel('Nome', { exact: true }).fill(integrationName);
      await dialog.getByLabel('URL', { exact: true }).fill(hookUrl);
      await dialog.getByTestId('integration-save').click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Operação realizada com sucesso!').first().waitFor();

      const row = page.locator('[data-testid^="integration-row-"]').filter({ hasText: integrationName });
      await row.waitFor();
      integrationId = Number(await row.getAttribute('data-integration-id'));
      expect(integrationId).toBeGreaterThan(0);
      expect(await row.getAttribute('data-type')).toBe('webhook');
      await row.getByRole('img', { name: 'Webhook' }).waitFor();
      expect(await row.getByTestId('integration-id-cell').innerText()).toBe(String(integrationId));

      const stored = await api<Integration>(`/queueIntegration/${integrationId}`, token);
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({ type: 'webhook', name: integrationName, projectName: integrationName, urlN8N: hookUrl });
    }));

  it('deletes the integration and the prompt through the UI', () =>
    step('delete both', pages, async () => {
      const integrationRow = page.getByTestId(`integration-row-${integrationId}`);
      await integrationRow.getByTestId('integration-delete').click();
      await page.getByTestId('confirm-ok').click();
      await integrationRow.waitFor({ state: 'detached' });
      expect((await api(`/queueIntegration/${integrationId}`, token)).status).toBe(404);
      integrationId = 0;

      await page.goto(`${webUrl}/prompts`);
      const promptRow = page.getByTestId(`prompt-row-${promptId}`);
      await promptRow.waitFor();
      await promptRow.getByTestId('prompt-delete').click();
      await page.getByTestId('confirm-ok').click();
      await promptRow.waitFor({ state: 'detached' });
      expect((await api(`/prompt/${promptId}`, token)).status).toBe(404);
      promptId = 0;
    }));
});
