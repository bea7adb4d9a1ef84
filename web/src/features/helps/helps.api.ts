import type { CreateHelpRequest, HelpDto, HelpsPage, UpdateHelpRequest } from '@wa/contracts';
import { api } from '../../app/api';

const LIST = { type: 'Help', id: 'LIST' } as const;

/**
 * The help videos (spec 02 "Helps"): everyone signed in reads them (`GET /helps?searchParam&pageNumber`, 40 a
 * page, for the /helps page; `GET /helps/list`, all of them, for the Ajuda tab of /settings); super users add
 * (`POST /helps`), edit (`PUT /helps/{id}`, what changed) and delete them (`DELETE /helps/{id}`). Every change
 * refetches the lists (tag `Help`, id LIST).
 */
export const helpsApi = api.enhanceEndpoints({ addTagTypes: ['Help'] }).injectEndpoints({
  endpoints: (build) => ({
    /** by search text (title or description), page after page */
    listHelps: build.infiniteQuery<HelpsPage, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({ url: '/helps', params: { searchParam: queryArg || undefined, pageNumber: pageParam } }),
      providesTags: [LIST],
    }),
    /** every help, by title */
    listAllHelps: build.query<HelpDto[], void>({
      query: () => '/helps/list',
      providesTags: [LIST],
    }),
    /** 400 ERR_VALIDATION: a title another help has, a video code that is not one... */
    createHelp: build.mutation<HelpDto, CreateHelpRequest>({
      query: (body) => ({ url: '/helps', method: 'POST', body }),
      invalidatesTags: (_r, error) => (error ? [] : [LIST]),
    }),
    /** only the fields that changed */
    updateHelp: build.mutation<HelpDto, { id: number } & UpdateHelpRequest>({
      query: ({ id, ...body }) => ({ url: `/helps/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, error) => (error ? [] : [LIST]),
    }),
    deleteHelp: build.mutation<{ message: string }, number>({
      query: (id) => ({ url: `/helps/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, error) => (error ? [] : [LIST]),
    }),
  }),
});

export const { useListHelpsInfiniteQuery, useListAllHelpsQuery, useCreateHelpMutation, useUpdateHelpMutation, useDeleteHelpMutation } =
  helpsApi;
