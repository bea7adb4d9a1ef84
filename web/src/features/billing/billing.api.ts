import type { CompanyNextInvoice, InvoicesPage, PublicPlanDto, SubscriptionCharge, SubscriptionRequest } from '@wa/contracts';
import { api } from '../../app/api';

/**
 * Invoices and the Pix checkout (spec 02 §2, §7): `GET /invoices/all` page after page (20 a page, the newest due
 * date first; the caller's company's, every company's for the super user), `GET /invoices/next` (the companies
 * list's column), `POST /subscription` (the charge to pay) and `GET /plans/list` (the plans Personalizar offers).
 * A confirmed payment (`company-<id>-payment`) reloads the invoices (billing.socket.ts).
 */
export const billingApi = api.enhanceEndpoints({ addTagTypes: ['Invoice', 'Plan'] }).injectEndpoints({
  endpoints: (build) => ({
    listInvoices: build.infiniteQuery<InvoicesPage, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/invoices/all',
        params: { searchParam: queryArg || undefined, pageNumber: pageParam },
      }),
      providesTags: ['Invoice'],
    }),
    /** the first page only (the subscription page looks for the open invoice there) */
    firstInvoices: build.query<InvoicesPage, void>({
      query: () => ({ url: '/invoices/all', params: { pageNumber: 1 } }),
      providesTags: ['Invoice'],
    }),
    /** each company's next invoice (super users), for one page of the companies list */
    nextInvoices: build.query<CompanyNextInvoice[], number[]>({
      query: (companyIds) => ({ url: '/invoices/next', params: { companyIds: companyIds.join(',') } }),
      transformResponse: (body: unknown) => (Array.isArray(body) ? (body as CompanyNextInvoice[]) : []),
      providesTags: ['Invoice'],
    }),
    /** the public plans (the checkout's Personalizar step) */
    checkoutPlans: build.query<PublicPlanDto[], void>({
      query: () => '/plans/list',
      transformResponse: (body: unknown) => (Array.isArray(body) ? (body as PublicPlanDto[]) : []),
      providesTags: ['Plan'],
    }),
    /**
     * The Pix charge of an invoice (created or the active one reused). 400 ERR_VALIDATION with the required fields'
     * texts, 404 ERR_NO_INVOICE_FOUND, 409 ERR_INVOICE_NOT_OPEN, 400 ERR_INVOICE_NOTHING_TO_PAY, 502 ERR_PAYMENT_PROVIDER.
     */
    subscribe: build.mutation<SubscriptionCharge, SubscriptionRequest>({
      query: (body) => ({ url: '/subscription', method: 'POST', body }),
    }),
  }),
});

export const { useListInvoicesInfiniteQuery, useFirstInvoicesQuery, useNextInvoicesQuery, useCheckoutPlansQuery, useSubscribeMutation } =
  billingApi;

/** Reloads every invoice list (a payment was confirmed). */
export const refreshInvoices = () => billingApi.util.invalidateTags(['Invoice']);
