import { metricsRegistry } from '@wa/server-kit';
import { Counter } from 'prom-client';

/** Invoices made (a company's first, and the daily job's). */
export const invoicesCreated = new Counter({
  name: 'billing_invoices_created_total',
  help: 'Invoices created',
  registers: [metricsRegistry],
});

/** Pix charges created at the provider (a reused charge is not counted). */
export const chargesCreated = new Counter({
  name: 'billing_charges_created_total',
  help: 'Pix charges created at the provider',
  labelNames: ['provider'],
  registers: [metricsRegistry],
});

/** Payments recorded; `settled` false: the invoice was no longer open (paid by another charge, cancelled). */
export const paymentsReceived = new Counter({
  name: 'billing_payments_total',
  help: 'Pix payments confirmed by the provider and recorded',
  labelNames: ['provider', 'settled'],
  registers: [metricsRegistry],
});
