import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { api, launchChromium, poll, productUrls, signedInPage, signIn, step, tokenOf } from './browser';

/**
 * Running the platform in a real browser (issue 16): the demo's super user makes a plan without kanban on the
 * settings tab Planos and a company on it on the tab Empresas; its admin signs in, sees no provider tabs and is
 * refused the kanban board by the server. What is made here is deleted at the end (the database is shared).
 */
const { webUrl } = productUrls();
const run = Date.now().toString(36);
const planName = `Sem kanban ${run}`;
const companyName = `Loja ${run}`;
const adminEmail = `loja-${run}@example.com`;

let browser: Browser;
let page: Page;
let other: Page | undefined;
const pages = () => [page, other].filter((p): p is Page => !!p && !p.isClosed());
let token = '';

beforeAll(async () => {
  browser = await launchChromium();
  page = await signedInPage(browser);
  token = await tokenOf(page);
});

afterAll(async () => {
  if (token) {
    const companies = (await api<{ companies: Array<{ id: number; name: string }> }>(`/companies?searchParam=${encodeURIComponent(companyName)}`, token).catch(() => null))?.body?.companies ?? [];
    for (const c of companies) await api(`/companies/${c.id}`, token, { method: 'DELETE' }).catch(() => undefined);
    const plans = (await api<Array<{ id: number; name: string }>>('/plans/all', token).catch(() => null))?.body ?? [];
    for (const p of plans.filter((x) => x.name === planName)) {
      // billing asks auth whether a company is still on it: the company's deletion reaches auth at once
      await poll('the plan deleted', async () => (await api(`/plans/${p.id}`, token, { method: 'DELETE' })).status !== 409).catch(() => undefined);
    }
  }
  await browser?.close();
});

describe('the provider’s settings tabs', () => {
  it('a super user makes a plan without kanban and a company on it; its admin signs in without the provider’s tabs and is refused the kanban', () =>
    step('plan and company', pages, async () => {
      await page.goto(`${webUrl}/settings`);
      await page.getByRole('tab', { name: 'Planos' }).click();
      await page.getByRole('button', { name: 'Adicionar plano' }).click();
      const planDialog = page.getByTestId('plan-dialog');
      await planDialog.getByTestId('plan-name').fill(planName);
      await planDialog.getByTestId('plan-useKanban').click();
      await planDialog.getByTestId('plan-save').click();
      await planDialog.waitFor({ state: 'detached' });
      await page.getByRole('cell', { name: planName, exact: true }).waitFor();
      const plan = (await api<Array<{ id: number; name: string; useKanban: boolean }>>('/plans/all', token)).body.find((p) => p.name === planName);
      expect(plan).toMatchObject({ useKanban: false });

      await page.getByRole('tab', { name: 'Empresas' }).click();
      await page.getByRole('button', { name: 'Adicionar empresa' }).click();
      const companyDialog = page.getByTestId('company-dialog');
      await companyDialog.getByTestId('company-name').fill(companyName);
      await companyDialog.getByTestId('company-email').fill(adminEmail);
      // the plans' list of the select comes from billing; auth's copy (what the company is checked against) follows it
      await poll('the plan offered in the company dialog', async () => (await companyDialog.getByTestId('company-planId').locator('option', { hasText: planName }).count()) > 0);
      await companyDialog.getByTestId('company-planId').selectOption({ label: planName });
      await companyDialog.getByTestId('company-password').fill('Senha123');
      await poll('the company saved', async () => {
        if (await companyDialog.isVisible()) await companyDialog.getByTestId('company-save').click();
        await page.waitForTimeout(300);
        return !(await companyDialog.isVisible());
      });
      await page.getByRole('cell', { name: companyName, exact: true }).waitFor();

      // the company's admin, in a browser of their own
      const context = await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'pt-BR' });
      other = await context.newPage();
      await signIn(other, adminEmail, 'Senha123');
      await other.goto(`${webUrl}/settings`);
      await other.getByRole('tab', { name: 'Opções' }).waitFor();
      expect(await other.getByRole('tab', { name: 'Planos' }).count()).toBe(0);
      expect(await other.getByRole('tab', { name: 'Empresas' }).count()).toBe(0);
      expect(await other.getByRole('link', { name: 'Kanban' }).count()).toBe(0);
      const refused = await api<{ message: string }>('/tags/kanban', await tokenOf(other));
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.');
    }));
});
