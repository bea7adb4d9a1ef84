import type { CreatePromptRequest, PromptDto, PromptsPage, UpdatePromptRequest } from '@wa/contracts';
import { useEffect } from 'react';
import { api } from '../../app/api';

/**
 * The company's AI prompts (spec 02 "Prompts", §7): `GET /prompt?searchParam&pageNumber` page after page,
 * `POST /prompt`, `PUT /prompt/{id}`, `DELETE /prompt/{id}`. Every change refetches the lists (tag `Prompt`).
 */
export const promptsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** by search text (the name), page after page */
    listPrompts: build.infiniteQuery<PromptsPage, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({ url: '/prompt', params: { searchParam: queryArg || undefined, pageNumber: pageParam } }),
      providesTags: ['Prompt'],
    }),
    createPrompt: build.mutation<PromptDto, CreatePromptRequest>({
      query: (body) => ({ url: '/prompt', method: 'POST', body }),
      invalidatesTags: (_r, error) => (error ? [] : ['Prompt']),
    }),
    /** the masked API key sent back as shown keeps the stored one */
    updatePrompt: build.mutation<PromptDto, { id: number } & UpdatePromptRequest>({
      query: ({ id, ...body }) => ({ url: `/prompt/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, error) => (error ? [] : ['Prompt']),
    }),
    /** a queue answered by it is left without one (the queues list is fetched again) */
    deletePrompt: build.mutation<{ message: string }, number>({
      query: (id) => ({ url: `/prompt/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, error) => (error ? [] : ['Prompt', 'Queue']),
    }),
  }),
});

export const { useListPromptsInfiniteQuery, useCreatePromptMutation, useUpdatePromptMutation, useDeletePromptMutation } = promptsApi;

/** Every prompt of the company (all the pages, one after the other), for a picker; nothing while `enabled` is false. */
export function useAllPrompts(enabled: boolean): PromptDto[] {
  const list = useListPromptsInfiniteQuery('', { skip: !enabled });
  const { hasNextPage, isFetching, isError, fetchNextPage } = list;
  useEffect(() => {
    if (enabled && hasNextPage && !isFetching && !isError) void fetchNextPage();
  }, [enabled, hasNextPage, isFetching, isError, fetchNextPage]);
  return enabled ? (list.data?.pages.flatMap((p) => p.prompts ?? []) ?? []) : [];
}
