import { CHECKOUT_COUNTRIES, CHECKOUT_REQUIRED, type InvoiceDto, type PlanDto, type SubscriptionRequest } from '@wa/contracts';
import { DEFAULT_TIME_ZONE, daysUntilDue } from '../../app/expiry';

/** spec 02 §9: the Pix screen's "copied" confirmation shows for 1 s. */
export const COPY_CONFIRMATION_MS = 1000;
/** spec 02 §4, §9: after the live CONCLUIDA, the renewal message and `/` after 4 s. */
export const RENEWAL_REDIRECT_MS = 4000;

/** What an invoice row shows (spec 02 §4): Pago, Vencido (open, due before today; the row tinted), Em Aberto, Cancelada. */
export type InvoiceState = 'paid' | 'overdue' | 'open' | 'cancelled';

/** The invoice's state on the company's calendar (`timeZone`) on `now`. */
export function invoiceState(
  invoice: Pick<InvoiceDto, 'status' | 'dueDate'>,
  now: Date = new Date(),
  timeZone: string = DEFAULT_TIME_ZONE,
): InvoiceState {
  if (invoice.status === 'paid') return 'paid';
  if (invoice.status === 'cancelled') return 'cancelled';
  const days = daysUntilDue(invoice.dueDate, now, timeZone);
  return days !== null && days < 0 ? 'overdue' : 'open';
}

const BRL = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * An amount in reais as BRL with two decimals, the same in every language (spec 02 §9): 1234.5 → "R$ 1.234,50"
 * (never "1.234.50"). The space after R$ is a plain one.
 */
export function brl(value: number | string | null | undefined): string {
  const n = Number(value);
  return BRL.format(Number.isFinite(n) ? n : 0).replace(/\s/g, ' ');
}

/** The checkout's steps (spec 02 §4: 0 to 2, then the Pix screen). */
export const CHECKOUT_STEPS = ['data', 'plan', 'review'] as const;
export type CheckoutStep = 0 | 1 | 2;

/** The checkout's form: the Dados fields and the plan chosen at Personalizar (a plan id, as the select keeps it). */
export interface CheckoutValues {
  firstName: string;
  lastName: string;
  address: string;
  address2: string;
  city: string;
  state: string;
  zipcode: string;
  country: string;
  planId: string;
}

/** The Dados step's fields, in the order they show. */
export const DATA_FIELDS = ['firstName', 'lastName', 'address', 'address2', 'city', 'state', 'zipcode', 'country'] as const;
export type DataField = (typeof DATA_FIELDS)[number];
export type RequiredField = keyof typeof CHECKOUT_REQUIRED;

export function initialCheckout(planId: number | null | undefined): CheckoutValues {
  return {
    firstName: '',
    lastName: '',
    address: '',
    address2: '',
    city: '',
    state: '',
    zipcode: '',
    country: '',
    planId: planId ? String(planId) : '',
  };
}

export const COUNTRIES = CHECKOUT_COUNTRIES;

/** spec 02 §5: the required fields of step 0 and their texts ('O nome completo é obrigatório'...); none missing: {}. */
export function checkoutProblems(v: CheckoutValues): Partial<Record<RequiredField, string>> {
  const out: Partial<Record<RequiredField, string>> = {};
  for (const key of Object.keys(CHECKOUT_REQUIRED) as RequiredField[]) {
    if (!v[key].trim()) out[key] = CHECKOUT_REQUIRED[key];
  }
  return out;
}

/** The fields a step shows (a server refusal of one of them takes the checkout back to its step). */
export function stepOfField(field: string): CheckoutStep | null {
  if ((DATA_FIELDS as readonly string[]).includes(field)) return 0;
  if (field === 'plan' || field === 'planId') return 1;
  return null;
}

/** The plans Personalizar offers: the public ones, and the company's own when it is not among them. */
export function checkoutPlans<P extends PlanDto>(publicPlans: P[] | undefined, current: PlanDto | null | undefined): PlanDto[] {
  const list: PlanDto[] = [...(publicPlans ?? [])];
  if (current?.id && !list.some((p) => p.id === current.id)) list.unshift(current);
  return list;
}

/**
 * The price the review shows: the invoice's value on the company's own plan, else the chosen plan's price (what
 * the server charges; it never takes a price from the body).
 */
export function checkoutPrice(invoice: Pick<InvoiceDto, 'value'>, plan: PlanDto | undefined, currentPlanId: number | undefined): number {
  if (!plan || plan.id === currentPlanId) return invoice.value;
  return plan.value;
}

/** `POST /subscription`'s body: trimmed texts, the invoice, the plan chosen (its id) and what the screen showed. */
export function subscriptionRequest(v: CheckoutValues, invoiceId: number, plan: PlanDto | undefined, price: number): SubscriptionRequest {
  return {
    firstName: v.firstName.trim(),
    lastName: v.lastName.trim(),
    address: v.address.trim(),
    address2: v.address2.trim(),
    city: v.city.trim(),
    state: v.state.trim(),
    zipcode: v.zipcode.trim(),
    country: v.country,
    useAddressForPaymentDetails: false,
    invoiceId,
    ...(plan ? { plan: plan.id, users: plan.users, connections: plan.connections } : {}),
    price,
  };
}

/** The invoice `/subscription` pays: the newest open one (latest due date); none open: null. */
export function invoiceToPay(invoices: InvoiceDto[] | undefined): InvoiceDto | null {
  const open = (invoices ?? []).filter((i) => i.status === 'open');
  if (open.length === 0) return null;
  return open.reduce((a, b) => (b.dueDate > a.dueDate || (b.dueDate === a.dueDate && b.id > a.id) ? b : a));
}
