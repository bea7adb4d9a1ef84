import type { CreateQuickMessageRequest, QuickMessageDto, QuickMessagesPage } from '@wa/contracts';
import { api } from '../../app/api';

const quickApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /quick-messages` by search text, page after page */
    listQuickMessages: build.infiniteQuery<QuickMessagesPage, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/quick-messages',
        params: { searchParam: queryArg || undefined, pageNumber: pageParam },
      }),
      providesTags: ['QuickMessages'],
    }),
    saveQuickMessage: build.mutation<QuickMessageDto, { id?: number } & CreateQuickMessageRequest>({
      query: ({ id, ...body }) =>
        id ? { url: `/quick-messages/${id}`, method: 'PUT', body } : { url: '/quick-messages', method: 'POST', body },
    }),
    deleteQuickMessage: build.mutation<void, number>({
      query: (id) => ({ url: `/quick-messages/${id}`, method: 'DELETE' }),
      invalidatesTags: ['QuickMessages'],
    }),
    uploadQuickMessageMedia: build.mutation<QuickMessageDto, { id: number; file: File }>({
      query: ({ id, file }) => {
        const form = new FormData();
        form.append('typeArch', 'quickMessage');
        form.append('file', file, file.name);
        return { url: `/quick-messages/${id}/media-upload`, method: 'POST', body: form };
      },
    }),
    deleteQuickMessageMedia: build.mutation<QuickMessageDto, number>({
      query: (id) => ({ url: `/quick-messages/${id}/media-upload`, method: 'DELETE' }),
    }),
  }),
});

export const {
  useListQuickMessagesInfiniteQuery,
  useSaveQuickMessageMutation,
  useDeleteQuickMessageMutation,
  useUploadQuickMessageMediaMutation,
  useDeleteQuickMessageMediaMutation,
} = quickApi;

/** After a change, every cached list and the chat's suggestions are fetched again. */
export const refreshQuickMessages = () => api.util.invalidateTags(['QuickMessages']);
