import { describe, expect, it } from '@jest/globals';
import { CHECKOUT_REQUIRED } from '@wa/contracts';
import { changeLanguage, i18n } from '../../../app/i18n';
import { makeStore } from '../../../app/store';
import { sessionStarted } from '../../../app/session';
import {
  brl,
  checkoutPlans,
  checkoutPrice,
  checkoutProblems,
  initialCheckout,
  invoiceState,
  invoiceToPay,
  stepOfField,
  subscriptionRequest,
} from '../billing-rules';
import { syncPaymentEvent } from '../billing.socket';
import { aPlan, anAdmin, anInvoice } from './harness';

// 10:00 on 2026-11-28 in São Paulo (13:00 UTC)
const NOW = new Date('2026-11-28T13:00:00.000Z');

describe('the invoice status shown (spec 02 §4)', () => {
  it('paid is Pago whatever the due date; open and due before today is Vencido; open otherwise is Em Aberto; cancelled is Cancelada', () => {
    expect(invoiceState({ status: 'paid', dueDate: '2026-01-01' }, NOW)).toBe('paid');
    expect(invoiceState({ status: 'open', dueDate: '2026-11-27' }, NOW)).toBe('overdue');
    expect(invoiceState({ status: 'open', dueDate: '2026-11-28' }, NOW)).toBe('open');
    expect(invoiceState({ status: 'open', dueDate: '2026-12-20' }, NOW)).toBe('open');
    expect(invoiceState({ status: 'cancelled', dueDate: '2026-11-01' }, NOW)).toBe('cancelled');
    const texts = (['paid', 'overdue', 'open', 'cancelled'] as const).map((s) => i18n.t(`billing.states.${s}`));
    expect(texts).toEqual(['Pago', 'Vencido', 'Em Aberto', 'Cancelada']);
  });

  it("counts the days on the company's calendar: at 01:00 UTC it is still the day before in São Paulo", () => {
    const lateEvening = new Date('2026-11-28T01:00:00.000Z'); // 22:00 on the 27th in São Paulo
    expect(invoiceState({ status: 'open', dueDate: '2026-11-27' }, lateEvening)).toBe('open');
    expect(invoiceState({ status: 'open', dueDate: '2026-11-27' }, lateEvening, 'UTC')).toBe('overdue');
  });
});

describe('prices in BRL with two decimals in every language (spec 02 §9)', () => {
  it.each(['pt', 'en', 'es'] as const)('in %s, 1234.5 is "R$ 1.234,50" (never "1.234.50")', async (lng) => {
    await changeLanguage(lng);
    try {
      expect(brl(1234.5)).toBe('R$ 1.234,50');
      expect(brl('49.90')).toBe('R$ 49,90');
      expect(brl(0)).toBe('R$ 0,00');
      expect(brl(1234567.891)).toBe('R$ 1.234.567,89');
    } finally {
      await changeLanguage('pt');
    }
  });
});

describe('the checkout (spec 02 §3, §5)', () => {
  it('requires firstName, address, city, zipcode and country with the spec’s texts', () => {
    expect(checkoutProblems(initialCheckout(1))).toEqual({
      firstName: 'O nome completo é obrigatório',
      address: 'O Endereço é obrigatório',
      city: 'Cidade é obrigatória',
      zipcode: 'CEP é obrigatório',
      country: 'País é obrigatório',
    });
    expect(checkoutProblems(initialCheckout(1))).toEqual(CHECKOUT_REQUIRED);
    const filled = { ...initialCheckout(1), firstName: 'Ana', address: 'Rua A, 1', city: 'Recife', zipcode: '50000-000', country: 'BR' };
    expect(checkoutProblems(filled)).toEqual({});
    expect(checkoutProblems({ ...filled, city: '   ' })).toEqual({ city: 'Cidade é obrigatória' });
  });

  it('sends the invoice, the chosen plan’s id and trimmed texts; the price shown is the invoice’s on the company’s own plan', () => {
    const v = {
      ...initialCheckout(1),
      firstName: ' Ana ',
      lastName: 'Lima',
      address: 'Rua A',
      city: 'Recife',
      zipcode: '50000',
      country: 'usa',
    };
    const gold = aPlan(2, 'Ouro', 99.9, { users: 10, connections: 5 });
    expect(checkoutPrice(anInvoice(5, { value: 45 }), aPlan(1, 'Básico', 49.9), 1)).toBe(45);
    expect(checkoutPrice(anInvoice(5, { value: 45 }), gold, 1)).toBe(99.9);
    expect(subscriptionRequest(v, 5, gold, 99.9)).toMatchObject({
      firstName: 'Ana',
      lastName: 'Lima',
      country: 'usa',
      invoiceId: 5,
      plan: 2,
      users: 10,
      connections: 5,
      price: 99.9,
    });
  });

  it('offers the public plans and the company’s own when it is not public; a refused field names its step', () => {
    const own = aPlan(9, 'Privado', 10);
    expect(checkoutPlans([aPlan(1, 'Básico', 49.9)], own).map((p) => p.id)).toEqual([9, 1]);
    expect(checkoutPlans([aPlan(1, 'Básico', 49.9)], aPlan(1, 'Básico', 49.9)).map((p) => p.id)).toEqual([1]);
    expect(stepOfField('zipcode')).toBe(0);
    expect(stepOfField('plan')).toBe(1);
    expect(stepOfField('invoiceId')).toBeNull();
  });

  it('/subscription pays the newest open invoice; none open: null', () => {
    const list = [
      anInvoice(3, { dueDate: '2026-12-31' }),
      anInvoice(2, { dueDate: '2027-01-31', status: 'paid' }),
      anInvoice(1, { dueDate: '2026-11-30' }),
    ];
    expect(invoiceToPay(list)?.id).toBe(3);
    expect(invoiceToPay([anInvoice(2, { status: 'paid' }), anInvoice(4, { status: 'cancelled' })])).toBeNull();
    expect(invoiceToPay([])).toBeNull();
  });
});

describe('the live payment (company-<id>-payment)', () => {
  it('CONCLUIDA gives the signed-in company its new due date; another action changes nothing', () => {
    const store = makeStore();
    store.dispatch(sessionStarted({ token: 't', user: anAdmin({}, { dueDate: '2026-11-30' }) }));
    const company = { id: 7, name: 'Loja', planId: 2, status: true, dueDate: '2026-12-30', recurrence: 'MENSAL' };
    syncPaymentEvent({ action: 'OTHER' as 'CONCLUIDA', company, invoiceId: 3 }, store.dispatch);
    expect(store.getState().session.user?.company?.dueDate).toBe('2026-11-30');
    syncPaymentEvent({ action: 'CONCLUIDA', company, invoiceId: 3 }, store.dispatch);
    expect(store.getState().session.user?.company).toMatchObject({ dueDate: '2026-12-30', planId: 2, status: true });
  });
});
