import type { CreateTagRequest, TagDto, TagsPage, UpdateTagRequest } from '@wa/contracts';
import { api } from '../../app/api';
import { ticketsApi } from '../tickets/tickets.api';
import { removeTagFromList, upsertTagInList } from './tag-rules';

/** `GET /tags`: a page of tags with their ticket counts (`count`, when the server gives it). */
export type TagsPageAnswer = TagsPage & { count?: number };

const withTagType = api.enhanceEndpoints({ addTagTypes: ['Tag'] });

type Dispatch = (action: unknown) => unknown;

/**
 * The ticket list's tag filter reads `GET /tags/list` (tickets.api `listTags`): a saved or deleted tag
 * changes its cached answer, when there is one, without loading it again.
 */
function keepTagFilterCurrent(dispatch: Dispatch, change: { saved: TagDto } | { removed: number }): void {
  dispatch(
    ticketsApi.util.updateQueryData('listTags', undefined, (draft) =>
      'saved' in change ? upsertTagInList(draft, change.saved) : removeTagFromList(draft, change.removed),
    ),
  );
}

/**
 * The company's tags (spec 02 "Tags", §7): `GET /tags?searchParam&pageNumber` page after page with their
 * ticket counts, `POST /tags`, `PUT /tags/{id}`, `DELETE /tags/{id}`, and the kanban's lanes
 * (`GET /tags/kanban`, plan flag useKanban). Every change refetches the tag lists and the lanes (tag `Tag`).
 * The picker list (`GET /tags/list`) stays with the ticket manager's endpoints (tickets.api `listTags`).
 */
export const tagsApi = withTagType.injectEndpoints({
  endpoints: (build) => ({
    listTagsPage: build.infiniteQuery<TagsPageAnswer, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({ url: '/tags', params: { searchParam: queryArg || undefined, pageNumber: pageParam } }),
      providesTags: ['Tag'],
    }),
    createTag: build.mutation<TagDto, CreateTagRequest>({
      query: (body) => ({ url: '/tags', method: 'POST', body }),
      invalidatesTags: (_r, error) => (error ? [] : ['Tag']),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) keepTagFilterCurrent(dispatch, { saved: data });
      },
    }),
    /** a non-admin, non-supervisor changing the kanban mark gets 403: the dialog only sends it when allowed */
    updateTag: build.mutation<TagDto, { id: number } & UpdateTagRequest>({
      query: ({ id, ...body }) => ({ url: `/tags/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, error) => (error ? [] : ['Tag']),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) keepTagFilterCurrent(dispatch, { saved: data });
      },
    }),
    /** its tickets lose it (the server tells the ticket lists through the socket) */
    deleteTag: build.mutation<{ message: string }, number>({
      query: (id) => ({ url: `/tags/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, error) => (error ? [] : ['Tag']),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (ok) keepTagFilterCurrent(dispatch, { removed: id });
      },
    }),
    /** the kanban's lanes: the tags marked for it, in the server's order (by name) */
    kanbanTags: build.query<TagDto[], void>({
      query: () => '/tags/kanban',
      transformResponse: (answer: { lista?: TagDto[] } | undefined) => answer?.lista ?? [],
      providesTags: ['Tag'],
    }),
  }),
});

export const { useListTagsPageInfiniteQuery, useCreateTagMutation, useUpdateTagMutation, useDeleteTagMutation, useKanbanTagsQuery } =
  tagsApi;
