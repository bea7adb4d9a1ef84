import type { ChatPresence, EditMessageRequest, MessageDto, MessagesPage, QuickMessageDto } from '@wa/contracts';
import { api } from '../../app/api';
import { plain } from '../../app/cache';
import { ChangesInFlight } from '../../app/changes-in-flight';
import { addMessage, replaceMessage, type MessagePageParam, type MessagePages } from './message-rules';

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
      // messages that came or changed while this request was on its way are played again on its answer (changeMessages)
      async onQueryStarted(ticketId, { dispatch, requestId, queryFulfilled }) {
        const missed = await messageChanges.take(requestId, queryFulfilled);
        if (missed)
          dispatch(
            chatApi.util.updateQueryData('messages', ticketId, (draft) =>
              missed.reduce((data, change) => change(data), plain(draft) as MessagePages),
            ),
          );
      },
    }),
    /** A text (`body`), or files (`files`, `body` their caption); `quotedId` answers a message. */
    /** The same pages read as a preview: the ticket's unread count is left as it is. */
    previewMessages: build.infiniteQuery<MessagesPage, number, MessagePageParam>({
      infiniteQueryOptions: {
        initialPageParam: { cursor: null, page: 1 },
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? { cursor: last.nextCursor, page: lastParam.page + 1 } : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: `/messages/${queryArg}`,
        params: { preview: true, ...(pageParam.cursor ? { cursor: pageParam.cursor } : { pageNumber: pageParam.page }) },
      }),
      keepUnusedDataFor: 0,
    }),
    sendMessage: build.mutation<MessageDto, { ticketId: number; body: string; files?: File[]; quotedId?: number | null }>({
      query: ({ ticketId, body, files, quotedId }) => {
        if (files && files.length > 0) {
          const form = new FormData();
          form.append('body', body);
          form.append('fromMe', 'true');
          if (quotedId) form.append('quotedMsg', JSON.stringify({ id: quotedId }));
          for (const f of files) form.append('medias', f, f.name);
          return { url: `/messages/${ticketId}`, method: 'POST', body: form };
        }
        return {
          url: `/messages/${ticketId}`,
          method: 'POST',
          body: { body, fromMe: true, read: true, mediaUrl: '', quotedMsg: quotedId ? { id: quotedId } : null },
        };
      },
      async onQueryStarted({ ticketId }, { dispatch, getState, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          changeMessages(getState(), dispatch, ticketId, messageAdded(data));
        } catch {
          /* the input shows the error */
        }
      },
    }),
    /** The caller's quick replies (their own and the company's shared ones), offered in the input after "/". */
    /** A place or a contact card instead of a text (the composer's share menu). */
    sendShared: build.mutation<
      MessageDto,
      {
        ticketId: number;
        location?: { latitude: number; longitude: number; name?: string; address?: string };
        contact?: { name: string; number: string };
      }
    >({
      query: ({ ticketId, location, contact }) => ({
        url: `/messages/${ticketId}`,
        method: 'POST',
        body: { fromMe: true, read: true, ...(location ? { location } : {}), ...(contact ? { contact } : {}) },
      }),
      async onQueryStarted({ ticketId }, { dispatch, getState, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          changeMessages(getState(), dispatch, ticketId, messageAdded(data));
        } catch {
          /* the dialog shows the error */
        }
      },
    }),
    /** The agent types or records in the ticket's chat, or stops (the customer sees "digitando…"); nothing to cache. */
    sendPresence: build.mutation<void, { ticketId: number; state: ChatPresence }>({
      query: ({ ticketId, state }) => ({ url: `/tickets/${ticketId}/presence`, method: 'POST', body: { state } }),
    }),
    quickReplies: build.query<QuickMessageDto[], void>({
      query: () => '/quick-messages/list',
      providesTags: ['QuickMessages'],
      keepUnusedDataFor: 300,
    }),
    /** A sent message's new text, changed on WhatsApp first. */
    editMessage: build.mutation<MessageDto, { id: number; ticketId: number; body: string }>({
      query: ({ id, body }) => ({ url: `/messages/edit/${id}`, method: 'POST', body: { body } satisfies EditMessageRequest }),
      async onQueryStarted({ ticketId }, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) changeMessages(getState(), dispatch, ticketId, messageChanged(data));
      },
    }),
    /** A sent message deleted for everyone (kept, marked deleted). */
    deleteMessage: build.mutation<MessageDto, { id: number; ticketId: number }>({
      query: ({ id }) => ({ url: `/messages/${id}`, method: 'DELETE' }),
      async onQueryStarted({ ticketId }, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) changeMessages(getState(), dispatch, ticketId, messageChanged(data));
      },
    }),
  }),
});

export const {
  useMessagesInfiniteQuery,
  usePreviewMessagesInfiniteQuery,
  useSendMessageMutation,
  useEditMessageMutation,
  useDeleteMessageMutation,
  useQuickRepliesQuery,
  useSendPresenceMutation,
  useSendSharedMutation,
} = chatApi;

type MessageChange = (data: MessagePages) => MessagePages;

/** The message changes that came while a chat's request of its messages was on its way, played again on its answer. */
const messageChanges = new ChangesInFlight<MessageChange>('messages');

/**
 * A message added to a ticket's chat, or changed there (an ack, an edit, a deletion, a reaction): its cached pages
 * now, and the answer of a request of them on its way as it lands (it may have been read before: the customer's
 * message would be gone from the open chat until it is opened again).
 */
export function changeMessages(
  state: unknown,
  dispatch: (action: ReturnType<typeof chatApi.util.updateQueryData>) => unknown,
  ticketId: number,
  change: MessageChange,
): void {
  messageChanges.note(state, change, (arg) => arg === ticketId);
  dispatch(chatApi.util.updateQueryData('messages', ticketId, (draft) => change(plain(draft) as MessagePages)));
}

export const messageAdded =
  (message: MessageDto): MessageChange =>
  (data) =>
    addMessage(data, message);

export const messageChanged =
  (message: MessageDto): MessageChange =>
  (data) =>
    replaceMessage(data, message);
