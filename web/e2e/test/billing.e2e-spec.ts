import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { InvoiceDto, InvoicesPage, SubscriptionCharge } from '@wa/contracts';
import { addMonths, format, parseISO } from 'date-fns';
import type { Browser, Page } from 'playwright-core';
import { api, launchChromium, poll, productUrls, signedInPage, signIn, step, tokenOf } from './browser';

/**
 * Billing in a real browser (issue 41, item 7): a company on a paid plan (made by the super user through the API;
 * billing opens its invoice when it hears of the company) has its admin pay the invoice from /financeiro: the three
 * steps of the checkout (a missing field shows its text), the Pix screen with the QR image and the code, copied;
 * the super user pays the charge through the sandbox payer, the provider calls billing's webhook, the company is
 * renewed, and the page says so and goes to / after 4 s; back on /financeiro the invoice is Pago.
 */
const { webUrl } = productUrls();
const run = Date.now().toString(36);
const planName = `Plano Pix ${run}`;
const companyName = `Empresa Pix ${run}`;
const adminEmail = `pix-${run}@loja.com`;
const password = 'Senha123';

let browser: Browser;
let page: Page;
let payer: Page | undefined;
const pages = () => [page, payer].filter((p): p is Page => !!p && !p.isClosed());
let token = '';
let planId = 0;
let companyId = 0;
let invoice: InvoiceDto | undefined;
let charge: SubscriptionCharge | undefined;

beforeAll(async () => {
  browser = await launchChromium();
  page = await signedInPage(browser);
  token = await tokenOf(page);
});

afterAll(async () => {
  if (token) {
    if (companyId) await api(`/companies/${companyId}`, token, { method: 'DELETE' }).catch(() => undefined);
    if (planId)
      await poll('the plan deleted', async () => (await api(`/plans/${planId}`, token, { method: 'DELETE' })).status !== 409).catch(
        () => undefined,
      );
  }
  await browser?.close();
});

describe('paying an invoice by Pix from the console', () => {
  it('a company on a paid plan has an open invoice for its due date', () =>
    step('plan, company, invoice', pages, async () => {
      const plan = await api<{ id: number }>('/plans', token, {
        method: 'POST',
        body: JSON.stringify({ name: planName, value: 49.9, users: 3, connections: 3, queues: 3, isPublic: false, trialDays: 7 }),
      });
      expect(plan.status).toBe(201);
      planId = plan.body.id;
      // auth hears of the plan from billing: the company is refused until it has
      const company = await poll('the company created', async () => {
        const res = await api<{ id: number }>('/companies', token, {
          method: 'POST',
          body: JSON.stringify({ name: companyName, email: adminEmail, planId, password }),
        });
        return res.status === 201 || res.status === 200 ? res.body : null;
      });
      companyId = company.id;
      invoice = await poll(
        'billing opens the invoice of the new company',
        async () =>
          (await api<InvoicesPage>(`/invoices/all?pageNumber=1&companyId=${companyId}`, token)).body?.invoices?.find(
            (i) => i.companyId === companyId && i.status === 'open',
          ),
        30_000,
      );
      expect(invoice.value).toBe(49.9);
    }));

  it('its admin pays it from /financeiro: the three steps, then the QR code and the copy-and-paste code', () =>
    step('checkout', pages, async () => {
      if (!invoice) throw new Error('no invoice');
      const context = await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'pt-BR' });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: webUrl });
      payer = await context.newPage();
      await signIn(payer, adminEmail, password);
      await payer.getByTestId('menu-financeiro').click();
      await payer.waitForURL(`${webUrl}/financeiro`);
      const row = payer.locator(`[data-testid="invoice-row"][data-invoice-id="${invoice.id}"]`);
      await row.waitFor();
      expect(await row.getByTestId('invoice-value').textContent()).toBe('R$ 49,90');
      expect(await row.getByTestId('invoice-status').textContent()).toBe('Em Aberto');
      await row.getByTestId('invoice-pay').click();

      const dialog = payer.getByTestId('checkout-dialog');
      await dialog.waitFor();
      // Dados: a missing field shows its text
      await dialog.getByTestId('checkout-firstName').fill('Ana Lima');
      await dialog.getByTestId('checkout-address').fill('Rua das Flores, 10');
      await dialog.getByTestId('checkout-city').fill('Recife');
      await dialog.getByTestId('checkout-country').selectOption('BR');
      await dialog.getByTestId('checkout-next').click();
      await dialog.getByText('CEP é obrigatório').waitFor();
      expect(await dialog.getByTestId('checkout-step-0').getAttribute('data-active')).toBe('true');
      await dialog.getByTestId('checkout-zipcode').fill('50000-000');
      await dialog.getByTestId('checkout-next').click();
      // Personalizar: the company's own plan, chosen
      const own = dialog.getByTestId(`checkout-plan-${planId}`);
      await own.waitFor();
      expect(await own.getAttribute('data-chosen')).toBe('true');
      expect(await own.getByTestId('checkout-plan-price').textContent()).toBe('R$ 49,90/mês');
      await dialog.getByTestId('checkout-next').click();
      // Revisar
      await dialog.getByTestId('checkout-review').waitFor();
      expect(await dialog.getByTestId('review-total').textContent()).toBe('R$ 49,90');
      const answered = payer.waitForResponse((res) => res.url().endsWith('/subscription') && res.request().method() === 'POST');
      await dialog.getByTestId('checkout-submit').click();
      const res = await answered;
      expect(res.status()).toBe(201);
      charge = (await res.json()) as SubscriptionCharge;
      expect(charge.invoiceId).toBe(invoice.id);
      expect(charge.valor.original).toBe('49.90');

      await payer.getByText('Assinatura realizada com sucesso!, aguardando a realização do pagamento').waitFor();
      await dialog.getByTestId('checkout-pix').waitFor();
      const qr = dialog.getByTestId('checkout-qr');
      await qr.waitFor();
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      const code = await dialog.getByTestId('checkout-pix-code').inputValue();
      expect(code).toBe(charge.qrcode.qrcode);
      expect(code.startsWith('000201')).toBe(true);
      expect(code).toContain('br.gov.bcb.pix');
      expect(await dialog.getByTestId('checkout-amount').textContent()).toBe('Valor: R$ 49,90');
      await dialog.getByTestId('checkout-copy').click();
      await dialog.getByText('Copiado!').waitFor();
      expect(await payer.evaluate(() => navigator.clipboard.readText())).toBe(code);
      await dialog.getByText('Copiar', { exact: true }).waitFor({ timeout: 3000 });
    }));

  it('paid through the sandbox, the page shows the renewal, goes to / after 4 s, and the invoice is Pago', () =>
    step('payment', pages, async () => {
      if (!payer || !charge || !invoice) throw new Error('no charge');
      const paid = await api<{ endToEndId: string }>(`/billing/sandbox/charges/${encodeURIComponent(charge.txid)}/pay`, token, {
        method: 'POST',
      });
      expect([200, 201]).toContain(paid.status);
      expect(paid.body.endToEndId).toBeTruthy();

      const dialog = payer.getByTestId('checkout-dialog');
      await dialog.getByTestId('checkout-renewed').waitFor({ timeout: 30_000 });
      const shownAt = Date.now();
      expect(payer.url()).toBe(`${webUrl}/financeiro`);
      await payer.waitForURL(`${webUrl}/`, { timeout: 15_000 });
      expect(Date.now() - shownAt).toBeGreaterThanOrEqual(3500);

      await payer.goto(`${webUrl}/financeiro`);
      const row = payer.locator(`[data-testid="invoice-row"][data-invoice-id="${invoice.id}"]`);
      await row.waitFor();
      expect(await row.getByTestId('invoice-status').textContent()).toBe('Pago');
      const inert = row.getByTestId('invoice-paid');
      expect(await inert.textContent()).toBe('PAGO');
      expect(await inert.isDisabled()).toBe(true);
      const after = await api<InvoicesPage>(`/invoices/all?pageNumber=1&companyId=${companyId}`, token);
      expect(after.body.invoices.find((i) => i.id === invoice?.id)?.status).toBe('paid');
      // the company was renewed: its due date moved on by its recurrence (MENSAL) from the invoice's
      const company = await api<{ dueDate: string }>(`/companies/${companyId}`, token);
      expect(company.body.dueDate.slice(0, 10)).toBe(format(addMonths(parseISO(invoice.dueDate), 1), 'yyyy-MM-dd'));
    }));
});
