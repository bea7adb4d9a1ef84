import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { api, launchChromium, poll, productUrls, signedInPage, step, tokenOf } from './browser';

/**
 * The queues page in a real browser (issue 15): an admin adds a queue (the spec's checks on the name), builds
 * its chatbot tree on the options tab (a level, a sub-option, a repeated number refused, files on an option and on
 * the queue), and the list follows
 * queues another admin makes, renames and deletes (company-{id}-queue) without a reload.
 */
const { webUrl } = productUrls();
const run = Date.now().toString(36);

let browser: Browser;
let page: Page;
const pages = () => (page && !page.isClosed() ? [page] : []);

type Option = { id: number; option: string; title: string; children: number; mediaName: string | null };
/** A 24×24 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAH0lEQVR4nGO4o6FBFcQwatCoQaMGjRo0atCoQQNvEADnQaMfLH9TNwAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  browser = await launchChromium();
  page = await signedInPage(browser);
});

afterAll(async () => {
  await browser?.close();
});

describe('queues in the console', () => {
  const name = `Fila ${run}`;
  let queueId = 0;

  it("the demo's seeded queue is one a new user can be put in (auth learnt it from the seed's announcement)", () =>
    step('seeded queue', pages, async () => {
      const token = await tokenOf(page);
      const seededId = (await api<Array<{ id: number; name: string }>>('/queue', token)).body.find((q) => q.name === 'Atendimento')?.id;
      expect(seededId).toEqual(expect.any(Number));
      const email = `seeded-${run}@example.com`;
      const created = await poll('the seeded queue admitted', async () => {
        const res = await api<{ id: number; queueIds: number[] }>('/users', token, {
          method: 'POST',
          body: JSON.stringify({ name: 'Agente Semente', email, password: 'agent123', profile: 'user', queueIds: [seededId] }),
        });
        return res.status === 201 ? res : undefined;
      });
      expect(created.body.queueIds).toEqual([seededId]);
    }));

  it('adds a queue: a name too short is refused, the saved queue is listed', () =>
    step('add queue', pages, async () => {
      await page.goto(`${webUrl}/queues`);
      await page.getByTestId('queues-add').click();
      const dialog = page.getByTestId('queue-dialog');
      await dialog.getByTestId('queue-name').fill('F');
      await dialog.getByTestId('queue-color').fill('#12ab34');
      await dialog.getByTestId('queue-save').click();
      await dialog.getByText('Too Short!').waitFor();
      await dialog.getByTestId('queue-name').fill(name);
      await dialog.getByTestId('queue-save').click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Queue saved successfully.').first().waitFor();
      const row = page.locator('[data-testid^="queue-row-"]').filter({ hasText: name });
      await row.waitFor();
      queueId = Number(await row.getAttribute('data-queue-id'));
      const stored = await api<Array<{ id: number; name: string; color: string }>>('/queue', await tokenOf(page));
      expect(stored.body.find((q) => q.id === queueId)).toMatchObject({ name, color: '#12ab34' });
    }));

  it('builds the chatbot tree on the options tab; a number already on the level is refused', () =>
    step('options tree', pages, async () => {
      await page.getByTestId(`queue-row-${queueId}`).getByTestId('queue-edit').click();
      const dialog = page.getByTestId('queue-dialog');
      await dialog.getByTestId('queue-tab-options').click();
      const addTop = async (option: string, title: string) => {
        await dialog.getByTestId('queue-option-add').click();
        const form = dialog.getByTestId('queue-option-form');
        await form.getByTestId('queue-option-number').fill(option);
        await form.getByTestId('queue-option-title').fill(title);
        await form.getByTestId('queue-option-save').click();
      };
      await addTop('1', 'Comercial');
      await dialog.getByTestId('queue-option-form').waitFor({ state: 'detached' });
      await addTop('2', 'Financeiro');
      await dialog.getByTestId('queue-option-form').waitFor({ state: 'detached' });
      await addTop('1', 'Repetida');
      await dialog.getByText('Esta opção já existe neste nível').waitFor();
      await dialog.getByTestId('queue-option-cancel').click();

      const token = await tokenOf(page);
      const top = await poll('two options on the first level', async () => {
        const res = await api<Option[]>(`/queue-options?queueId=${queueId}`, token);
        return res.body.length === 2 ? res.body : null;
      });
      expect(top.map((o) => [o.option, o.title])).toEqual([
        ['1', 'Comercial'],
        ['2', 'Financeiro'],
      ]);
      const financeiro = top[1] as Option;
      await dialog.getByTestId(`queue-option-expand-${financeiro.id}`).click();
      await dialog.getByTestId(`queue-option-add-${financeiro.id}`).click();
      const form = dialog.getByTestId('queue-option-form');
      await form.getByTestId('queue-option-number').fill('1');
      await form.getByTestId('queue-option-title').fill('Boleto');
      await form.getByTestId('queue-option-message').fill('Segue a segunda via do boleto');
      await form.getByTestId('queue-option-save').click();
      await dialog.getByTestId(`queue-options-level-${financeiro.id}`).getByText('Boleto', { exact: true }).waitFor();
      const under = await api<Option[]>(`/queue-options?queueId=${queueId}&parentId=${financeiro.id}`, token);
      expect(under.body.map((o) => [o.option, o.title])).toEqual([['1', 'Boleto']]);
      // a file on an option
      const boleto = under.body[0] as Option;
      await dialog
        .getByTestId(`queue-option-media-input-${boleto.id}`)
        .setInputFiles({ name: 'boleto.png', mimeType: 'image/png', buffer: PNG });
      await dialog.getByTestId(`queue-option-media-${boleto.id}`).getByText('boleto.png').waitFor();
      // and one on the queue (data tab)
      await dialog.getByTestId('queue-tab-data').click();
      await dialog.getByTestId('queue-media-input').setInputFiles({ name: 'boas-vindas.png', mimeType: 'image/png', buffer: PNG });
      await dialog.getByTestId('queue-media-name').getByText('boas-vindas.png').waitFor();
      const queues = await api<Array<{ id: number; mediaName: string | null; mediaPath: string | null }>>('/queue', token);
      expect(queues.body.find((q) => q.id === queueId)).toMatchObject({ mediaName: 'boas-vindas.png' });
      expect((await api<Option[]>(`/queue-options?queueId=${queueId}&parentId=${financeiro.id}`, token)).body[0]?.mediaName).toBe(
        'boleto.png',
      );
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }));

  it('follows queues another admin adds, renames and deletes, without a reload', () =>
    step('live queues', pages, async () => {
      const token = await tokenOf(page);
      const made = await api<{ id: number }>('/queue', token, {
        method: 'POST',
        body: JSON.stringify({ name: `Ao vivo ${run}`, color: '#a1b2c3' }),
      });
      expect(made.status).toBe(201);
      const row = page.getByTestId(`queue-row-${made.body.id}`);
      await row.getByText(`Ao vivo ${run}`).waitFor();
      await api(`/queue/${made.body.id}`, token, { method: 'PUT', body: JSON.stringify({ name: `Renomeada ${run}` }) });
      await row.getByText(`Renomeada ${run}`).waitFor();
      await api(`/queue/${made.body.id}`, token, { method: 'DELETE' });
      await row.waitFor({ state: 'detached' });
      // and one deleted here goes with its tree
      await page.getByTestId(`queue-row-${queueId}`).getByTestId('queue-delete').click();
      await page.getByTestId('confirm-ok').click();
      await page.getByTestId(`queue-row-${queueId}`).waitFor({ state: 'detached' });
      expect((await api(`/queue-options?queueId=${queueId}`, token)).status).toBe(404);
    }));
});
