import type { MessageDto, ReactMessageRequest } from '@wa/contracts';
import { plain } from '../../app/cache';
import { chatApi } from './chat.api';
import { addMessage, replaceMessage, type MessagePages } from './message-rules';

/**
 * The message types beyond text and files (issue 45 §4): a recorded audio sent as a WhatsApp voice note (the server
 * transcodes it to OGG/Opus), and a reaction on a message ('' takes ours away).
 */
export const messageTypesApi = chatApi.injectEndpoints({
  endpoints: (build) => ({
    sendVoiceNote: build.mutation<MessageDto, { ticketId: number; file: File; quotedId?: number | null }>({
      query: ({ ticketId, file, quotedId }) => {
        const form = new FormData();
        form.append('body', '');
        form.append('fromMe', 'true');
        form.append('voice', 'true');
        if (quotedId) form.append('quotedMsg', JSON.stringify({ id: quotedId }));
        form.append('medias', file, file.name);
        return { url: `/messages/${ticketId}`, method: 'POST', body: form };
      },
      async onQueryStarted({ ticketId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(chatApi.util.updateQueryData('messages', ticketId, (draft) => addMessage(plain(draft) as MessagePages, data)));
      },
    }),
    reactToMessage: build.mutation<MessageDto, { id: number; ticketId: number; emoji: string }>({
      query: ({ id, emoji }) => ({ url: `/messages/${id}/react`, method: 'POST', body: { emoji } satisfies ReactMessageRequest }),
      async onQueryStarted({ ticketId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data)
          dispatch(chatApi.util.updateQueryData('messages', ticketId, (draft) => replaceMessage(plain(draft) as MessagePages, data)));
      },
    }),
  }),
});

export const { useSendVoiceNoteMutation, useReactToMessageMutation } = messageTypesApi;
