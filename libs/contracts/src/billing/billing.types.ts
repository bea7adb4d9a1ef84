/**
 * Billing (spec 02 §2 Invoices, Checkout, Subscription; §3 Invoice, Subscription payload; §7 `GET /invoices/all`,
 * `POST /subscription`, the `payment` channel). billing owns invoices, charges and payments; auth owns the
 * company's due date and moves it when `billing.invoice.paid` arrives.
 */

/** Stored status of an invoice. The web shows Pago (paid), Vencido (open, due date before today) or Em Aberto. */
export type InvoiceStatus = 'open' | 'paid' | 'cancelled';

/** spec 02 §3 "Invoice": id, detail, value, dueDate, status (and who it is for, for the super user's view). */
export interface InvoiceDto {
  id: number;
  companyId: number;
  /** the company's name (the super user sees every company's invoices) */
  companyName: string;
  detail: string;
  /** in reais, two decimals (49.9 is R$ 49,90) */
  value: number;
  /** YYYY-MM-DD */
  dueDate: string;
  status: InvoiceStatus;
  paidAt: string | null;
  createdAt: string;
}

/** `GET /invoices/all?searchParam&pageNumber[&companyId]` */
export interface InvoicesPage {
  invoices: InvoiceDto[];
  count: number;
  hasMore: boolean;
}

/** `GET /invoices/next?companyIds=1,2` (super users): each company's next invoice, for the companies list. */
export interface CompanyNextInvoice {
  companyId: number;
  invoiceId: number;
  dueDate: string;
  value: number;
  status: InvoiceStatus;
  /** open and its due date is before today */
  overdue: boolean;
}

/** Countries the checkout offers (spec 02 §5). */
export const CHECKOUT_COUNTRIES = ['BR', 'usa'] as const;

/** spec 02 §5: the checkout's required fields and their texts. */
export const CHECKOUT_REQUIRED = {
  firstName: 'O nome completo é obrigatório',
  address: 'O Endereço é obrigatório',
  city: 'Cidade é obrigatória',
  zipcode: 'CEP é obrigatório',
  country: 'País é obrigatório',
} as const;

/**
 * `POST /subscription` (spec 02 §3 "Subscription payload"). The amount never comes from here: it is the invoice's
 * value, or the price of the plan chosen (`plan`: a plan id, or an object / JSON text with `planId` or `id`).
 * `price`, `users` and `connections` are what the screen showed; the server ignores them.
 */
export interface SubscriptionRequest {
  firstName: string;
  lastName?: string;
  address: string;
  address2?: string;
  city: string;
  state?: string;
  zipcode: string;
  country: string;
  useAddressForPaymentDetails?: boolean;
  nameOnCard?: string;
  cardNumber?: string;
  cvv?: string;
  plan?: number | string | { planId?: number; id?: number };
  price?: number;
  users?: number;
  connections?: number;
  invoiceId: number;
}

/** The answer of `POST /subscription`: the Pix charge to pay (spec 02 §7 `qrcode.qrcode`, `valor.original`). */
export interface SubscriptionCharge {
  qrcode: {
    /** the BR Code (Pix copia e cola) */
    qrcode: string;
    /** the same code as a PNG data URL */
    imagemQrcode: string;
  };
  /** the amount, two decimals with a dot ("49.90") */
  valor: { original: string };
  txid: string;
  expiresAt: string;
  invoiceId: number;
  /** the plan the company is on once this is paid */
  planId: number;
}

export const BillingSubjects = {
  /** `billing.invoice.paid.<companyId>`: a payment confirmed by the provider settled an open invoice (once per invoice). */
  invoicePaid: (companyId: number) => `billing.invoice.paid.${companyId}`,
} as const;

/** On `BillingSubjects.invoicePaid`: auth moves the company's due date by its recurrence, once per invoice. */
export interface InvoicePaidEvent {
  invoiceId: number;
  companyId: number;
  /** the invoice's due date (YYYY-MM-DD) */
  dueDate: string;
  /** the plan chosen at the checkout (the company moves to it), or the company's own */
  planId: number;
  /** two decimals with a dot */
  amount: string;
  paidAt: string;
  /** the provider's end-to-end id of the Pix */
  endToEndId: string;
}

/** auth's `company.payment.confirmed.<companyId>`: the renewal applied (realtime: `company-{id}-payment`). */
export const paymentConfirmedSubject = (companyId: number) => `company.payment.confirmed.${companyId}`;

/** The company as the payment channel shows it. */
export interface PaymentCompany {
  id: number;
  name: string;
  planId: number;
  status: boolean;
  dueDate: string;
  recurrence: string;
}

/** On `company-{companyId}-payment` (spec 02 §4: CONCLUIDA shows the renewal message and goes to / after 4 s). */
export interface PaymentEvent {
  action: 'CONCLUIDA';
  company: PaymentCompany;
  invoiceId: number;
}

/** What billing keeps of a company (auth's `GET /internal/companies/billing`, and the company events). */
export interface CompanyBillingCopy {
  companyId: number;
  name: string;
  email: string | null;
  planId: number;
  status: boolean;
  dueDate: string;
  recurrence: string;
  at: string;
}

/** Months a renewal adds (spec 02 §4). */
export const RECURRENCE_MONTHS: Record<string, number> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
};
