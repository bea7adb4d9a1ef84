import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { tz } from '@date-fns/tz';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { InvoiceDto } from '@wa/contracts';
import { addDays, format } from 'date-fns';
import { changeLanguage } from '../../../app/i18n';
import { loadToaster } from '../../../app/notify';
import { clearSession, storeSession } from '../../../app/storage';
import InvoicesPage from '../InvoicesPage';
import { anAdmin, anInvoice, aPlan, json, renderPage } from './harness';

/** A day `n` days from today on São Paulo's calendar (the company's), YYYY-MM-DD. */
const dayFromToday = (n: number) =>
  format(addDays(new Date(), n, { in: tz('America/Sao_Paulo') }), 'yyyy-MM-dd', { in: tz('America/Sao_Paulo') });

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; query: URLSearchParams }> = [];
let invoices: InvoiceDto[] = [];

beforeEach(() => {
  calls = [];
  invoices = [
    anInvoice(4, { detail: 'Plano Básico dez', value: 1234.5, dueDate: dayFromToday(10) }),
    anInvoice(3, { detail: 'Plano Básico nov', dueDate: dayFromToday(-1) }),
    anInvoice(2, { detail: 'Plano Básico out', dueDate: dayFromToday(-30), status: 'paid', paidAt: '2026-10-01T00:00:00.000Z' }),
    anInvoice(1, { detail: 'Plano Básico set', dueDate: dayFromToday(-60), status: 'cancelled' }),
  ];
  storeSession('session-token');
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    calls.push({ method: req.method, path: url.pathname, query: url.searchParams });
    if (url.pathname === '/invoices/all') {
      const search = (url.searchParams.get('searchParam') ?? '').toLowerCase();
      const found = invoices.filter((i) => i.detail.toLowerCase().includes(search));
      return json({ invoices: found, count: found.length, hasMore: false });
    }
    if (url.pathname === '/plans/list') return json([aPlan(1, 'Básico', 49.9)]);
    return json({});
  }) as unknown as typeof fetch;
});

afterEach(async () => {
  globalThis.fetch = realFetch;
  clearSession();
  (await loadToaster()).toaster.remove();
});

const render = (user = anAdmin()) => renderPage(<InvoicesPage />, { path: '/financeiro', user });
const rowOf = (r: ReturnType<typeof render>, id: number) =>
  r.getAllByTestId('invoice-row').find((row) => row.getAttribute('data-invoice-id') === String(id)) as HTMLElement;

describe('/financeiro, Faturas (spec 02 §2, §4)', () => {
  it('lists id, details, value in BRL, due date DD/MM/YYYY and the status; the overdue row is tinted; PAGAR on open ones, an inert PAGO on paid ones, nothing on cancelled ones', async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('invoice-row')).toHaveLength(4));
    expect(r.getByTestId('invoices-count').textContent).toBe('(4)');
    const status = (id: number) => within(rowOf(r, id)).getByTestId('invoice-status').textContent;
    expect([status(4), status(3), status(2), status(1)]).toEqual(['Em Aberto', 'Vencido', 'Pago', 'Cancelada']);
    expect(rowOf(r, 3).getAttribute('data-state')).toBe('overdue');
    expect(rowOf(r, 4).getAttribute('data-state')).toBe('open');
    expect(within(rowOf(r, 4)).getByTestId('invoice-value').textContent).toBe('R$ 1.234,50');
    expect(within(rowOf(r, 3)).getByTestId('invoice-value').textContent).toBe('R$ 49,90');
    const [y, m, d] = dayFromToday(10).split('-');
    expect(within(rowOf(r, 4)).getByTestId('invoice-due').textContent).toBe(`${d}/${m}/${y}`);
    expect(within(rowOf(r, 4)).getByTestId('invoice-pay').textContent).toBe('PAGAR');
    expect(within(rowOf(r, 3)).getByTestId('invoice-pay').textContent).toBe('PAGAR');
    const paid = within(rowOf(r, 2)).getByTestId('invoice-paid') as HTMLButtonElement;
    expect(paid.textContent).toBe('PAGO');
    expect(paid.disabled).toBe(true);
    expect(within(rowOf(r, 2)).queryByTestId('invoice-pay')).toBeNull();
    expect(within(rowOf(r, 1)).queryByTestId('invoice-pay')).toBeNull();
    expect(within(rowOf(r, 1)).queryByTestId('invoice-paid')).toBeNull();
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/invoices/all' });
    expect(calls[0]?.query.get('pageNumber')).toBe('1');
  });

  it.each(['en', 'es'] as const)('writes the values as BRL with two decimals in %s too', async (lng) => {
    await changeLanguage(lng);
    const r = render();
    try {
      await waitFor(() => expect(r.getAllByTestId('invoice-row')).toHaveLength(4));
      expect(within(rowOf(r, 4)).getByTestId('invoice-value').textContent).toBe('R$ 1.234,50');
      expect(within(rowOf(r, 2)).getByTestId('invoice-paid').textContent).toBe(lng === 'en' ? 'PAID' : 'PAGADO');
    } finally {
      r.unmount();
      await changeLanguage('pt');
    }
  });

  it('searches after the typing stops (searchParam) and lists what the server found', async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('invoice-row')).toHaveLength(4));
    fireEvent.change(r.getByTestId('invoices-search'), { target: { value: 'nov' } });
    expect(calls.filter((c) => c.query.get('searchParam'))).toHaveLength(0);
    await waitFor(() => expect(r.getAllByTestId('invoice-row')).toHaveLength(1), { timeout: 2000 });
    expect(calls.at(-1)?.query.get('searchParam')).toBe('nov');
    expect(calls.at(-1)?.query.get('pageNumber')).toBe('1');
  });

  it('PAGAR opens the checkout of that invoice', async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('invoice-row')).toHaveLength(4));
    fireEvent.click(within(rowOf(r, 3)).getByTestId('invoice-pay'));
    const dialog = await r.findByTestId('checkout-dialog');
    expect(within(dialog).getByTestId('checkout-invoice').textContent).toContain('Fatura 3: Plano Básico nov');
    expect(within(dialog).getByTestId('checkout-step-0').getAttribute('data-active')).toBe('true');
  });

  it('the super user sees every company’s invoices with the company, and pays only their own', async () => {
    invoices = [anInvoice(8, { companyId: 1, companyName: 'Provedor' }), anInvoice(9, { companyId: 7, companyName: 'Loja' })];
    const r = render(anAdmin({ super: true, companyId: 1 }, { id: 1 }));
    await waitFor(() => expect(r.getAllByTestId('invoice-row')).toHaveLength(2));
    expect(within(rowOf(r, 9)).getByText('Loja')).toBeTruthy();
    expect(within(rowOf(r, 8)).queryByTestId('invoice-pay')).not.toBeNull();
    expect(within(rowOf(r, 9)).queryByTestId('invoice-pay')).toBeNull();
  });
});
