import type {
  ChatChannelPayload,
  ChatDto,
  ChatMessageDto,
  ChatMessagesPage,
  ChatsPage,
  CreateChatRequest,
  UpdateChatRequest,
} from '@wa/contracts';
import { api } from '../../app/api';
import { plain } from '../../app/cache';
import type { RootState } from '../../app/store';
import { addChatMessage, chatWithMessage, removeChat, upsertChat, type ChatMessagePages, type ChatPages } from './chat-rules';

type Dispatch = (action: unknown) => unknown;

/**
 * The chats are conversation content like a ticket's messages: tagged `Messages` (ids of their own), so
 * the socket's reconnection, which may have missed events, loads them again with the tickets' messages.
 */
const CHATS_TAG = { type: 'Messages', id: 'chats' } as const;
const messagesTag = (chatId: number) => ({ type: 'Messages' as const, id: `chat-${chatId}` });

/**
 * Internal chat (spec 02 "Internal chat", §7; plan flag useInternalChat): `GET /chats?pageNumber` (20 a page,
 * the caller's chats, most recently updated first), `GET /chats/{uuid}`, `POST /chats`, `PUT` and
 * `DELETE /chats/{id}` (owner only), `POST /chats/{id}/read`, and a chat's messages:
 * `GET /chats/{id}/messages?pageNumber` (page 1 the newest 30) and `POST /chats/{id}/messages`. Answers and
 * the live events (`company-<id>-chat`) change the caches in place.
 */
export const chatsApi = api.injectEndpoints({
  endpoints: (build) => ({
    chats: build.infiniteQuery<ChatsPage, void, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ pageParam }) => ({ url: '/chats', params: { pageNumber: pageParam } }),
      providesTags: [CHATS_TAG],
    }),
    /** one chat, by its uuid (the route's) or its number; 404 when the caller is not in it */
    chat: build.query<ChatDto, string>({
      query: (idOrUuid) => `/chats/${encodeURIComponent(idOrUuid)}`,
      providesTags: [CHATS_TAG],
      // a chat deleted meanwhile is not shown from memory
      keepUnusedDataFor: 0,
    }),
    chatMessages: build.infiniteQuery<ChatMessagesPage, number, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({ url: `/chats/${queryArg}/messages`, params: { pageNumber: pageParam } }),
      providesTags: (_r, _e, chatId) => [messagesTag(chatId)],
    }),
    createChat: build.mutation<ChatDto, CreateChatRequest>({
      query: (body) => ({ url: '/chats', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) applyChatToCaches(data, getState() as RootState, dispatch);
      },
    }),
    /** the owner's change of title or members (403 ERR_NO_PERMISSION for anyone else) */
    updateChat: build.mutation<ChatDto, { id: number } & UpdateChatRequest>({
      query: ({ id, ...body }) => ({ url: `/chats/${id}`, method: 'PUT', body }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) applyChatToCaches(data, getState() as RootState, dispatch);
      },
    }),
    deleteChat: build.mutation<{ message: string }, number>({
      query: (id) => ({ url: `/chats/${id}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (ok) removeChatFromCaches(id, dispatch);
      },
    }),
    /** the caller read the chat: their unread count goes to 0 (the product's client sends its user id) */
    readChat: build.mutation<ChatDto, { id: number; userId: number }>({
      query: ({ id, userId }) => ({ url: `/chats/${id}/read`, method: 'POST', body: { userId } }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) applyChatToCaches(data, getState() as RootState, dispatch);
      },
    }),
    sendChatMessage: build.mutation<ChatMessageDto, { chat: ChatDto; message: string }>({
      query: ({ chat, message }) => ({ url: `/chats/${chat.id}/messages`, method: 'POST', body: { message } }),
      async onQueryStarted({ chat }, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        addMessageToChat(data, dispatch);
        // at the top of the list at once; the socket's version of the chat follows
        applyChatToCaches(chatWithMessage(chat, data), getState() as RootState, dispatch);
      },
    }),
  }),
});

export const {
  useChatsInfiniteQuery,
  useChatQuery,
  useChatMessagesInfiniteQuery,
  useCreateChatMutation,
  useUpdateChatMutation,
  useDeleteChatMutation,
  useReadChatMutation,
  useSendChatMessageMutation,
} = chatsApi;

/** A newer version of a chat: the chats list (moved to its place, added, or taken off) and the open chat. */
export function applyChatToCaches(chat: ChatDto, state: RootState, dispatch: Dispatch): void {
  const userId = state.session.user?.id ?? -1;
  dispatch(chatsApi.util.updateQueryData('chats', undefined, (draft) => upsertChat(plain(draft) as ChatPages, chat, userId)));
  for (const idOrUuid of chatsApi.util.selectCachedArgsForQuery(state, 'chat')) {
    if (idOrUuid === chat.uuid || idOrUuid === String(chat.id)) dispatch(chatsApi.util.updateQueryData('chat', idOrUuid, () => chat));
  }
}

/** A chat deleted (or the user taken out of it): off the list. */
export function removeChatFromCaches(chatId: number, dispatch: Dispatch): void {
  dispatch(chatsApi.util.updateQueryData('chats', undefined, (draft) => removeChat(plain(draft) as ChatPages, chatId)));
}

/** A message of a chat: at the bottom of its messages, when they are loaded. */
export function addMessageToChat(message: ChatMessageDto, dispatch: Dispatch): void {
  dispatch(
    chatsApi.util.updateQueryData('chatMessages', message.chatId, (draft) => addChatMessage(plain(draft) as ChatMessagePages, message)),
  );
}

/**
 * `company-<id>-chat` (to the chat's members only): a new message joins the chat's loaded messages and takes the
 * chat to the top of the list with its last message and unread counts; an update (title, members, someone's
 * read) replaces the chat where it is, or adds a chat the user was just put in; a delete (or the user taken
 * out) removes it.
 */
export function syncChatEvent(p: ChatChannelPayload, state: RootState, dispatch: Dispatch): void {
  if (p.action === 'delete') {
    removeChatFromCaches(p.chatId, dispatch);
    return;
  }
  if (p.action === 'new-message') addMessageToChat(p.newMessage, dispatch);
  applyChatToCaches(p.chat, state, dispatch);
}

/** spec 02 §8: the chat's failed requests are not shown to the user, only logged. */
export function logChatFailure(what: string, err: unknown): void {
  // eslint-disable-next-line no-console -- the spec wants these failures in the log, not on screen
  console.error(`[chats] ${what}`, err);
}
