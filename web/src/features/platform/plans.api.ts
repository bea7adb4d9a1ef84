import type { CreatePlanRequest, PublicPlanDto, UpdatePlanRequest } from '@wa/contracts';
import { api } from '../../app/api';

/**
 * The plans (spec 02 "Plans", super users only): `GET /plans/all` (every plan, public or not), `POST /plans`,
 * `PUT /plans/{id}` (any part of a plan), `DELETE /plans/{id}`. Every change refetches the list (tag `Plan`).
 */
export const plansApi = api.enhanceEndpoints({ addTagTypes: ['Plan'] }).injectEndpoints({
  endpoints: (build) => ({
    listPlans: build.query<PublicPlanDto[], void>({
      query: () => '/plans/all',
      providesTags: ['Plan'],
    }),
    createPlan: build.mutation<PublicPlanDto, CreatePlanRequest>({
      query: (body) => ({ url: '/plans', method: 'POST', body }),
      invalidatesTags: (_r, error) => (error ? [] : ['Plan']),
    }),
    /** only the fields that changed */
    updatePlan: build.mutation<PublicPlanDto, { id: number } & UpdatePlanRequest>({
      query: ({ id, ...body }) => ({ url: `/plans/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, error) => (error ? [] : ['Plan']),
    }),
    /** refused (409 ERR_PLAN_IN_USE) while companies are on it */
    deletePlan: build.mutation<unknown, number>({
      query: (id) => ({ url: `/plans/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, error) => (error ? [] : ['Plan']),
    }),
  }),
});

export const { useListPlansQuery, useCreatePlanMutation, useUpdatePlanMutation, useDeletePlanMutation } = plansApi;
