import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor, within } from '@testing-library/react';
import { SocketChannels, type SubscriptionRequest } from '@wa/contracts';
import { loadToaster } from '../../../app/notify';
import { clearSession, storeSession } from '../../../app/storage';
import { CheckoutDialog } from '../CheckoutDialog';
import { aCharge, anInvoice, aPlan, json, renderPage } from './harness';

const SUBSCRIBED = 'Assinatura realizada com sucesso!, aguardando a realização do pagamento';

const realFetch = globalThis.fetch;
let posts: SubscriptionRequest[] = [];
let answer: () => Response = () => json(aCharge(5));
const writeText = jest.fn(async (_text: string) => undefined);

beforeEach(() => {
  posts = [];
  answer = () => json(aCharge(5));
  writeText.mockClear();
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  storeSession('session-token');
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    if (url.pathname === '/plans/list') return json([aPlan(1, 'Básico', 49.9), aPlan(2, 'Ouro', 1234.5, { users: 10, connections: 5 })]);
    if (url.pathname === '/subscription' && req.method === 'POST') {
      posts.push(JSON.parse(await req.clone().text()) as SubscriptionRequest);
      return answer();
    }
    return json({});
  }) as unknown as typeof fetch;
});

afterEach(async () => {
  jest.useRealTimers();
  globalThis.fetch = realFetch;
  clearSession();
  (await loadToaster()).toaster.remove();
});

const render = () =>
  renderPage(<CheckoutDialog invoice={anInvoice(5, { detail: 'Plano Básico', value: 49.9 })} onClose={() => undefined} />, {
    path: '/financeiro',
  });
type R = ReturnType<typeof render>;

const dialogOf = (r: R) => r.getByTestId('checkout-dialog');
const activeStep = (r: R) =>
  [0, 1, 2].find((i) => within(dialogOf(r)).getByTestId(`checkout-step-${i}`).getAttribute('data-active') === 'true');
const type = (r: R, field: string, value: string) =>
  fireEvent.change(within(dialogOf(r)).getByTestId(`checkout-${field}`), { target: { value } });

function fillData(r: R) {
  type(r, 'firstName', 'Ana');
  type(r, 'lastName', 'Lima');
  type(r, 'address', 'Rua das Flores, 10');
  type(r, 'city', 'Recife');
  type(r, 'state', 'PE');
  type(r, 'zipcode', '50000-000');
  type(r, 'country', 'BR');
}

/** Dados filled, Personalizar with the plan `planId`, then Revisar. */
async function toReview(r: R, planId = 1) {
  fillData(r);
  fireEvent.click(within(dialogOf(r)).getByTestId('checkout-next'));
  await waitFor(() => expect(activeStep(r)).toBe(1));
  await waitFor(() => expect(within(dialogOf(r)).getByTestId(`checkout-plan-${planId}`)).toBeTruthy());
  fireEvent.click(within(dialogOf(r)).getByTestId(`checkout-plan-${planId}`));
  fireEvent.click(within(dialogOf(r)).getByTestId('checkout-next'));
  await waitFor(() => expect(activeStep(r)).toBe(2));
}

/** Through the three steps to the Pix screen. */
async function toPix(r: R) {
  await toReview(r);
  fireEvent.click(within(dialogOf(r)).getByTestId('checkout-submit'));
  await within(dialogOf(r)).findByTestId('checkout-pix');
}

describe('the checkout (spec 02 §2, §4, §5)', () => {
  it('Dados: Next with the fields empty shows the required texts and stays on step 0', async () => {
    const r = render();
    const dialog = await r.findByTestId('checkout-dialog');
    expect(activeStep(r)).toBe(0);
    expect(within(dialog).queryByText('O nome completo é obrigatório')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('checkout-next'));
    for (const text of [
      'O nome completo é obrigatório',
      'O Endereço é obrigatório',
      'Cidade é obrigatória',
      'CEP é obrigatório',
      'País é obrigatório',
    ])
      await within(dialog).findByText(text);
    expect(activeStep(r)).toBe(0);
    // filled, one by one the texts go
    fillData(r);
    await waitFor(() => expect(within(dialog).queryByText('CEP é obrigatório')).toBeNull());
    expect(within(dialog).queryByText('País é obrigatório')).toBeNull();
  });

  it('a field left empty shows its text; Next moves forward and forgets the fields left', async () => {
    const r = render();
    const dialog = await r.findByTestId('checkout-dialog');
    fireEvent.blur(within(dialog).getByTestId('checkout-city'));
    await within(dialog).findByText('Cidade é obrigatória');
    expect(within(dialog).queryByText('CEP é obrigatório')).toBeNull();
    fillData(r);
    fireEvent.click(within(dialog).getByTestId('checkout-next'));
    await waitFor(() => expect(activeStep(r)).toBe(1));
    fireEvent.click(within(dialog).getByTestId('checkout-back'));
    await waitFor(() => expect(activeStep(r)).toBe(0));
    // the city was left before Next: emptied now, its text waits until it is left again
    type(r, 'city', '');
    expect(within(dialog).queryByText('Cidade é obrigatória')).toBeNull();
    fireEvent.blur(within(dialog).getByTestId('checkout-city'));
    await within(dialog).findByText('Cidade é obrigatória');
  });

  it('Personalizar offers the plans with users, connections and the price in BRL, the company’s own chosen; Revisar sums up; the last step posts the invoice and the plan chosen', async () => {
    const r = render();
    await r.findByTestId('checkout-dialog');
    fillData(r);
    fireEvent.click(within(dialogOf(r)).getByTestId('checkout-next'));
    await waitFor(() => expect(activeStep(r)).toBe(1));
    const gold = await within(dialogOf(r)).findByTestId('checkout-plan-2');
    const basic = within(dialogOf(r)).getByTestId('checkout-plan-1');
    expect(basic.getAttribute('data-chosen')).toBe('true');
    expect(gold.getAttribute('data-chosen')).toBeNull();
    expect(within(gold).getByTestId('checkout-plan-price').textContent).toBe('R$ 1.234,50/mês');
    expect(gold.textContent).toContain('Usuários: 10');
    expect(gold.textContent).toContain('Conexões: 5');
    fireEvent.click(gold);
    fireEvent.click(within(dialogOf(r)).getByTestId('checkout-next'));
    await waitFor(() => expect(activeStep(r)).toBe(2));
    const review = within(dialogOf(r)).getByTestId('checkout-review');
    expect(within(review).getByTestId('review-name').textContent).toBe('Ana Lima');
    expect(within(review).getByTestId('review-country').textContent).toBe('Brasil');
    expect(within(review).getByTestId('review-plan').textContent).toBe('Ouro');
    expect(within(review).getByTestId('review-total').textContent).toBe('R$ 1.234,50');
    fireEvent.click(within(dialogOf(r)).getByTestId('checkout-submit'));
    await r.findByText(SUBSCRIBED);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      firstName: 'Ana',
      lastName: 'Lima',
      address: 'Rua das Flores, 10',
      city: 'Recife',
      state: 'PE',
      zipcode: '50000-000',
      country: 'BR',
      invoiceId: 5,
      plan: 2,
    });
  });

  it('after the send: the Pix screen with the QR image, the copy-and-paste code and the amount; "copied" shows for 1 s', async () => {
    const r = render();
    await r.findByTestId('checkout-dialog');
    await toPix(r);
    const pix = within(dialogOf(r)).getByTestId('checkout-pix');
    expect(within(pix).getByTestId('checkout-qr').getAttribute('src')).toBe(aCharge(5).qrcode.imagemQrcode);
    expect((within(pix).getByTestId('checkout-pix-code') as HTMLInputElement).value).toBe(aCharge(5).qrcode.qrcode);
    expect(within(pix).getByTestId('checkout-amount').textContent).toBe('Valor: R$ 49,90');
    // the charge's identifier, for the payer's bank and the sandbox payer (README "Billing")
    expect(within(pix).getByTestId('checkout-txid').textContent).toContain(aCharge(5).txid);
    expect(r.getByText(SUBSCRIBED)).toBeTruthy();

    jest.useFakeTimers();
    const copy = within(pix).getByTestId('checkout-copy');
    expect(copy.textContent).toBe('Copiar');
    await act(async () => {
      fireEvent.click(copy);
    });
    expect(writeText).toHaveBeenCalledWith(aCharge(5).qrcode.qrcode);
    expect(copy.textContent).toBe('Copiado!');
    act(() => jest.advanceTimersByTime(999));
    expect(copy.textContent).toBe('Copiado!');
    act(() => jest.advanceTimersByTime(1));
    expect(copy.textContent).toBe('Copiar');
  });

  it('the live CONCLUIDA of this invoice shows the renewal and goes to / after 4 s', async () => {
    const r = render();
    await r.findByTestId('checkout-dialog');
    await toPix(r);
    const channel = SocketChannels.payment(7);
    expect(r.socket.listening(channel)).toBe(true);
    jest.useFakeTimers();
    const company = { id: 7, name: 'Loja', planId: 1, status: true, dueDate: '2099-02-28', recurrence: 'MENSAL' };
    // another invoice's payment is not this one
    r.socket.fire(channel, { action: 'CONCLUIDA', company, invoiceId: 99 });
    expect(within(dialogOf(r)).queryByTestId('checkout-renewed')).toBeNull();
    r.socket.fire(channel, { action: 'CONCLUIDA', company, invoiceId: 5 });
    expect(within(dialogOf(r)).getByTestId('checkout-renewed').textContent).toContain('Pagamento confirmado!');
    act(() => jest.advanceTimersByTime(3999));
    expect(r.queryByTestId('home')).toBeNull();
    act(() => jest.advanceTimersByTime(1));
    expect(r.getByTestId('home')).toBeTruthy();
  });

  it('the server’s refusal of a field shows under it, on its step; any other refusal is a toast', async () => {
    answer = () =>
      json(
        {
          error: 'ERR_VALIDATION',
          message: 'zipcode: CEP é obrigatório',
          details: [{ field: 'zipcode', messages: ['CEP é obrigatório'] }],
        },
        400,
      );
    const r = render();
    await r.findByTestId('checkout-dialog');
    await toReview(r);
    fireEvent.click(within(dialogOf(r)).getByTestId('checkout-submit'));
    await waitFor(() => expect(activeStep(r)).toBe(0));
    expect(within(dialogOf(r)).getByTestId('checkout-zipcode-error').textContent).toBe('CEP é obrigatório');
    expect(r.queryByText(SUBSCRIBED)).toBeNull();

    answer = () => json({ error: 'ERR_PAYMENT_PROVIDER', message: 'down' }, 502);
    type(r, 'zipcode', '50000-001');
    fireEvent.click(within(dialogOf(r)).getByTestId('checkout-next'));
    await waitFor(() => expect(activeStep(r)).toBe(1));
    fireEvent.click(within(dialogOf(r)).getByTestId('checkout-next'));
    await waitFor(() => expect(activeStep(r)).toBe(2));
    fireEvent.click(within(dialogOf(r)).getByTestId('checkout-submit'));
    await r.findByText('Não foi possível falar com o provedor de pagamento. Tente novamente em instantes.');
    expect(activeStep(r)).toBe(2);
    expect(within(dialogOf(r)).queryByTestId('checkout-pix')).toBeNull();
  });
});
