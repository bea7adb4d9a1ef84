import { beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { PaymentEvent } from '@wa/contracts';
import type { BusMessage } from '@wa/event-bus';
import { COMPANIES_FILTER } from './platform-lists.consumer.js';
import { PaymentsConsumer, PAYMENTS_FILTER } from './payments.consumer.js';

const msg = (subject: string, data: unknown): BusMessage<unknown> => ({
  subject,
  data,
  msgId: 'x',
  streamSeq: 1,
  deliveryCount: 1,
  attempt: 1,
  headers: {},
});

const payment = (companyId: number): PaymentEvent => ({
  action: 'CONCLUIDA',
  invoiceId: 31,
  company: { id: companyId, name: 'Padaria', planId: 2, status: true, dueDate: '2026-12-10', recurrence: 'MENSAL' },
});

/** A NATS subject filter as the server reads it: `*` one token, `>` the rest (one token at least). */
function matches(filter: string, subject: string): boolean {
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i;
    if (i >= s.length || (f[i] !== '*' && f[i] !== s[i])) return false;
  }
  return f.length === s.length;
}

describe('the fan-out of a confirmed payment', () => {
  beforeAll(() => Logger.overrideLogger(false)); // skipped events are logged as warnings

  it('sends CONCLUIDA on company-<id>-payment to that company’s sockets only', () => {
    expect(new PaymentsConsumer().emissions(msg('company.payment.confirmed.7', payment(7)))).toEqual([
      { rooms: ['c:7'], channel: 'company-7-payment', payload: payment(7) },
    ]);
  });

  it('fans out nothing that is not a confirmed payment of the subject’s company', () => {
    const consumer = new PaymentsConsumer();
    const bad: Array<[string, unknown]> = [
      ['company.payment.confirmed.7', payment(8)],
      ['company.payment.confirmed.7', { ...payment(7), action: 'ATIVA' }],
      ['company.payment.confirmed.7', { ...payment(7), invoiceId: 'x' }],
      ['company.payment.confirmed.7', { action: 'CONCLUIDA', invoiceId: 31 }],
      ['company.payment.confirmed.7', null],
      ['company.payment.confirmed.x', payment(7)],
      ['company.payment.refunded.7', payment(7)],
    ];
    for (const [subject, data] of bad)
      expect({ subject, data, out: consumer.emissions(msg(subject, data)) }).toEqual({ subject, data, out: [] });
  });

  it('has a durable of its own: the companies’ list filter (three tokens) does not take the payment subject', () => {
    expect(matches(PAYMENTS_FILTER, 'company.payment.confirmed.7')).toBe(true);
    expect(matches(COMPANIES_FILTER, 'company.payment.confirmed.7')).toBe(false);
    expect(matches(COMPANIES_FILTER, 'company.updated.7')).toBe(true);
    expect(matches(PAYMENTS_FILTER, 'company.updated.7')).toBe(false);
  });
});
