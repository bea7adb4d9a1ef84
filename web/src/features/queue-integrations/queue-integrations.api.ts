import type {
  CreateQueueIntegrationRequest,
  QueueIntegrationDto,
  QueueIntegrationsPage,
  TestDialogflowSessionRequest,
  UpdateQueueIntegrationRequest,
} from '@wa/contracts';
import { useEffect } from 'react';
import { api } from '../../app/api';

/** What `POST /queueIntegration/testSession` answers for usable Dialogflow credentials. */
export interface TestSessionAnswer {
  ok: true;
  projectName: string;
  clientEmail: string;
  language: string;
}

/**
 * The company's queue integrations (spec 02 "Queue integrations", §7): `GET /queueIntegration?searchParam&pageNumber`
 * page after page, `POST`, `PUT /queueIntegration/{id}`, `DELETE /queueIntegration/{id}` and the Dialogflow
 * `testSession`. Every change refetches the lists (tag `QueueIntegration`).
 */
export const queueIntegrationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** by search text (the name), page after page */
    listQueueIntegrations: build.infiniteQuery<QueueIntegrationsPage, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/queueIntegration',
        params: { searchParam: queryArg || undefined, pageNumber: pageParam },
      }),
      providesTags: ['QueueIntegration'],
    }),
    createQueueIntegration: build.mutation<QueueIntegrationDto, CreateQueueIntegrationRequest>({
      query: (body) => ({ url: '/queueIntegration', method: 'POST', body }),
      invalidatesTags: (_r, error) => (error ? [] : ['QueueIntegration']),
    }),
    updateQueueIntegration: build.mutation<QueueIntegrationDto, { id: number } & UpdateQueueIntegrationRequest>({
      query: ({ id, ...body }) => ({ url: `/queueIntegration/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, error) => (error ? [] : ['QueueIntegration']),
    }),
    /** a queue using it is left without one (the queues list is fetched again) */
    deleteQueueIntegration: build.mutation<{ message: string }, number>({
      query: (id) => ({ url: `/queueIntegration/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, error) => (error ? [] : ['QueueIntegration', 'Queue']),
    }),
    /** whether Dialogflow credentials are usable as given (400 ERR_VALIDATION when not) */
    testQueueIntegrationSession: build.mutation<TestSessionAnswer, TestDialogflowSessionRequest>({
      query: (body) => ({ url: '/queueIntegration/testSession', method: 'POST', body }),
    }),
  }),
});

export const {
  useListQueueIntegrationsInfiniteQuery,
  useCreateQueueIntegrationMutation,
  useUpdateQueueIntegrationMutation,
  useDeleteQueueIntegrationMutation,
  useTestQueueIntegrationSessionMutation,
} = queueIntegrationsApi;

/** Every integration of the company (all the pages, one after the other), for a picker; nothing while `enabled` is false. */
export function useAllQueueIntegrations(enabled: boolean): QueueIntegrationDto[] {
  const list = useListQueueIntegrationsInfiniteQuery('', { skip: !enabled });
  const { hasNextPage, isFetching, isError, fetchNextPage } = list;
  useEffect(() => {
    if (enabled && hasNextPage && !isFetching && !isError) void fetchNextPage();
  }, [enabled, hasNextPage, isFetching, isError, fetchNextPage]);
  return enabled ? (list.data?.pages.flatMap((p) => p.queueIntegrations ?? []) ?? []) : [];
}
