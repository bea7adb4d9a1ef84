import type { MessageDto, MessagesPage } from '@wa/contracts';
import { api } from '../../app/api';
import { plain } from '../../app/cache';
import { addMessage, type MessagePageParam, type MessagePages } from './message-rules';

export const chatApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One ticket's messages: the first page is the newest; the next pages go back in time. */
    messages: build.infiniteQuery<MessagesPage, number, MessagePageParam>({
      infiniteQueryOptions: {
        initialPageParam: { cursor: null, page: 1 },
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? { cursor: last.nextCursor, page: lastParam.page + 1 } : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: `/messages/${queryArg}`,
        params: pageParam.cursor ? { cursor: pageParam.cursor } : { pageNumber: pageParam.page },
      }),
      providesTags: (_r, _e, ticketId) => [{ type: 'Messages', id: ticketId }],
      // opening a chat reads it (the server clears the unread count): always fetch anew
      keepUnusedDataFor: 0,
    }),
    sendMessage: build.mutation<MessageDto, { ticketId: number; body: string }>({
      query: ({ ticketId, body }) => ({ url: `/messages/${ticketId}`, method: 'POST', body: { body, fromMe: true, read: true } }),
      async onQueryStarted({ ticketId }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(chatApi.util.updateQueryData('messages', ticketId, (draft) => addMessage(plain(draft) as MessagePages, data)));
        } catch {
          /* the input shows the error */
        }
      },
    }),
  }),
});


export const { useMessagesInfiniteQuery, useSendMessageMutation } = chatApi;
