import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { tz } from '@date-fns/tz';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { InvoiceDto } from '@wa/contracts';
import { addDays, format } from 'date-fns';
import { loadToaster } from '../../../app/notify';
import { clearSession, storeSession } from '../../../app/storage';
import SubscriptionPage from '../SubscriptionPage';
import { anAdmin, anInvoice, aPlan, json, renderPage } from './harness';

const dayFromToday = (n: number) =>
  format(addDays(new Date(), n, { in: tz('America/Sao_Paulo') }), 'yyyy-MM-dd', { in: tz('America/Sao_Paulo') });

const realFetch = globalThis.fetch;
let invoices: InvoiceDto[] = [];

beforeEach(() => {
  invoices = [
    anInvoice(12, { dueDate: dayFromToday(40), detail: 'Plano Básico jan' }),
    anInvoice(11, { dueDate: dayFromToday(10), detail: 'Plano Básico dez' }),
    anInvoice(10, { dueDate: dayFromToday(-20), status: 'paid' }),
  ];
  storeSession('session-token');
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    if (url.pathname === '/invoices/all') return json({ invoices, count: invoices.length, hasMore: false });
    if (url.pathname === '/plans/list') return json([aPlan(1, 'Básico', 49.9)]);
    return json({});
  }) as unknown as typeof fetch;
});

afterEach(async () => {
  globalThis.fetch = realFetch;
  clearSession();
  (await loadToaster()).toaster.remove();
});

const render = () => renderPage(<SubscriptionPage />, { path: '/subscription', user: anAdmin({}, { dueDate: dayFromToday(6) }) });

describe('/subscription (spec 02 §2)', () => {
  it('shows the days of trial left and the billing email, read-only', async () => {
    const r = render();
    const days = (await r.findByTestId('subscription-days')) as HTMLInputElement;
    expect(days.value).toBe('Você possui 6 dias restantes');
    expect(days.readOnly).toBe(true);
    const email = r.getByTestId('subscription-email') as HTMLInputElement;
    expect(email.value).toBe('financeiro@loja.com');
    expect(email.readOnly).toBe(true);
  });

  it("'Assine Agora!' opens the checkout of the company's newest open invoice", async () => {
    const r = render();
    const button = await r.findByTestId('subscription-subscribe');
    expect(button.textContent).toBe('Assine Agora!');
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
    const dialog = await r.findByTestId('checkout-dialog');
    expect(within(dialog).getByTestId('checkout-invoice').textContent).toContain('Fatura 12: Plano Básico jan');
  });

  it('says so when no invoice is open', async () => {
    invoices = [anInvoice(10, { status: 'paid' })];
    const r = render();
    const button = await r.findByTestId('subscription-subscribe');
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
    expect((await r.findByTestId('subscription-no-invoice')).textContent).toBe('Não há fatura em aberto para pagar no momento.');
    expect(r.queryByTestId('checkout-dialog')).toBeNull();
  });
});
