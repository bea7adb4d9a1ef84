import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { api, launchChromium, poll, productUrls, signedInPage, step, tokenOf } from './browser';

/**
 * The campaign area in a real browser (issue 40, item 12): the menu shows it (the demo's plan has campaigns and
 * campaignsEnabled is on); a contact list is created, two contacts are added by hand (each checked on WhatsApp in
 * the background: the sandbox answers valid), a campaign is written on it with the sandbox connection, shows in
 * the campaigns list as Inativa, and its report opens.
 */
const { webUrl } = productUrls();
const run = Date.now().toString(36);
const digits = String(Date.now()).slice(-7);

let browser: Browser;
let page: Page;
const pages = () => (page && !page.isClosed() ? [page] : []);

beforeAll(async () => {
  browser = await launchChromium();
  page = await signedInPage(browser);
});

afterAll(async () => {
  await browser?.close();
});

describe('campaigns in the console', () => {
  const listName = `Lista ${run}`;
  const campaignName = `Campanha ${run}`;
  let campaignId = 0;

  it('shows the campaign area in the menu and creates a contact list', () =>
    step('create list', pages, async () => {
      await page.getByTestId('menu-contactLists').click();
      await page.waitForURL(`${webUrl}/contact-lists`);
      await page.getByTestId('contact-lists-add').click();
      const dialog = page.getByTestId('contact-list-dialog');
      await dialog.getByTestId('contact-list-name').fill('L');
      await dialog.getByTestId('contact-list-dialog-save').click();
      await dialog.getByText('Too Short!').waitFor();
      await dialog.getByTestId('contact-list-name').fill(listName);
      await dialog.getByTestId('contact-list-dialog-save').click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('contact-lists-search').fill(run);
      const row = page.getByTestId('contact-list-row').filter({ hasText: listName });
      await row.waitFor();
      expect(await row.getByTestId('contact-list-count').textContent()).toBe('0');
    }));

  it('adds two contacts by hand; each is checked on WhatsApp in the background', () =>
    step('add items', pages, async () => {
      await page.getByTestId('contact-list-row').filter({ hasText: listName }).getByTestId('contact-list-open').click();
      await page.waitForURL(/\/contact-lists\/\d+\/contacts$/);
      for (const [name, number] of [
        ['Ana', `55119${digits}1`],
        ['Bruno', `55119${digits}2`],
      ]) {
        await page.getByTestId('contact-list-items-add').click();
        const dialog = page.getByTestId('contact-list-item-dialog');
        await dialog.getByTestId('contact-list-item-name').fill(`${name} ${run}`);
        await dialog.getByTestId('contact-list-item-number').fill(number);
        await dialog.getByTestId('contact-list-item-email').fill(`${name.toLowerCase()}@loja.com`);
        await dialog.getByTestId('contact-list-item-dialog-save').click();
        await dialog.waitFor({ state: 'detached' });
      }
      const rows = page.getByTestId('contact-list-item-row');
      await poll('two contacts listed', async () => (await rows.count()) === 2);
      await poll(
        'both numbers checked valid on WhatsApp',
        async () => {
          const states = await page
            .getByTestId('contact-list-item-whatsapp')
            .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
          return states.length === 2 && states.every((s) => s === 'valid');
        },
        30_000,
      );
    }));

  it('writes a campaign on the list with the sandbox connection; it shows in the list as Inativa', () =>
    step('create campaign', pages, async () => {
      const connections = await api<Array<{ id: number; name: string; channel: string; status: string }>>(
        '/whatsapp?session=0',
        await tokenOf(page),
      );
      const sandbox = connections.body.find((c) => c.channel === 'sandbox' && c.status === 'CONNECTED');
      if (!sandbox) throw new Error('the demo has a connected sandbox connection');
      await page.getByTestId('menu-campaigns').click();
      await page.waitForURL(`${webUrl}/campaigns`);
      await page.getByTestId('campaigns-add').click();
      const dialog = page.getByTestId('campaign-dialog');
      await dialog.getByTestId('campaign-name').fill(campaignName);
      await dialog.getByTestId('campaign-contactListId').selectOption({ label: listName });
      await dialog.getByTestId('campaign-whatsappId').selectOption(String(sandbox.id));
      await dialog.getByTestId('campaign-message1').fill('Olá {nome}, temos novidades!');
      await dialog.getByTestId('campaign-tab-2').click();
      await dialog.getByTestId('campaign-message2').fill('Oi {nome}, veja as novidades!');
      await dialog.getByTestId('campaign-dialog-save').click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('campaigns-search').fill(run);
      const row = page.getByTestId('campaign-row').filter({ hasText: campaignName });
      await row.waitFor();
      expect(await row.getByTestId('campaign-status').textContent()).toBe('Inativa');
      await row.getByText(listName).waitFor();
      await row.getByText(sandbox.name).waitFor();
      campaignId = Number(await row.getAttribute('data-campaign-id'));
      expect(campaignId).toBeGreaterThan(0);
    }));

  it("opens the campaign's report", () =>
    step('open report', pages, async () => {
      await page.getByTestId('campaign-row').filter({ hasText: campaignName }).getByTestId('campaign-report').click();
      await page.waitForURL(`${webUrl}/campaign/${campaignId}/report`);
      await page.getByTestId('campaign-report-title').filter({ hasText: campaignName }).waitFor();
      expect(await page.getByTestId('campaign-status').textContent()).toBe('Inativa');
      await page.getByTestId('campaign-report-delivered-of-valid').waitFor();
      expect(await page.getByTestId('campaign-report-contact-list-value').textContent()).toBe(listName);
      await page.getByTestId('campaign-report-progress').waitFor();
    }));
});
