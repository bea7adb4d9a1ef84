import type { CompaniesPage, CompanyDto, CreateCompanyRequest, UpdateCompanyRequest } from '@wa/contracts';
import { api } from '../../app/api';

const LIST = { type: 'Company', id: 'LIST' } as const;

/**
 * The companies (spec 02 "Companies", super users only): `GET /companies?searchParam&pageNumber` page after page,
 * `POST /companies`, `PUT /companies/{id}` (any part of it; also "Renovar", a new due date), `DELETE /companies/{id}`.
 * Every change refetches the lists (tag `Company`, id LIST); an edit also the company itself (the Horarios tab's
 * `GET /companies/{id}`). A plan's change (tag `Plan`) refetches them too: the rows show the plan's name.
 */
export const companiesApi = api.enhanceEndpoints({ addTagTypes: ['Company', 'Plan'] }).injectEndpoints({
  endpoints: (build) => ({
    /** by search text, page after page (20 a page) */
    listCompanies: build.infiniteQuery<CompaniesPage, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({ url: '/companies', params: { searchParam: queryArg || undefined, pageNumber: pageParam } }),
      providesTags: [LIST, 'Plan'],
    }),
    /** 400 ERR_VALIDATION (a name taken, an invalid email...), 409 ERR_EMAIL_ALREADY_EXISTS (the email is a user's) */
    createCompany: build.mutation<CompanyDto, CreateCompanyRequest>({
      query: (body) => ({ url: '/companies', method: 'POST', body }),
      invalidatesTags: (_r, error) => (error ? [] : [LIST]),
    }),
    /** only the fields that changed; status false disables the company (its users are signed out at once) */
    updateCompany: build.mutation<CompanyDto, { id: number } & UpdateCompanyRequest>({
      query: ({ id, ...body }) => ({ url: `/companies/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, error, { id }) => (error ? [] : [LIST, { type: 'Company', id }]),
    }),
    /** refused (403) for the caller's own company and the provider's */
    deleteCompany: build.mutation<unknown, number>({
      query: (id) => ({ url: `/companies/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, error) => (error ? [] : [LIST]),
    }),
  }),
});

export const { useListCompaniesInfiniteQuery, useCreateCompanyMutation, useUpdateCompanyMutation, useDeleteCompanyMutation } = companiesApi;
