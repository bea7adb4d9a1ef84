import type { MessageDto, ReactMessageRequest } from '@wa/contracts';
import { changeMessages, chatApi, messageAdded, messageChanged } from './chat.api';

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
      async onQueryStarted({ ticketId }, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) changeMessages(getState(), dispatch, ticketId, messageAdded(data));
      },
    }),
    reactToMessage: build.mutation<MessageDto, { id: number; ticketId: number; emoji: string }>({
      query: ({ id, emoji }) => ({ url: `/messages/${id}/react`, method: 'POST', body: { emoji } satisfies ReactMessageRequest }),
      async onQueryStarted({ ticketId }, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) changeMessages(getState(), dispatch, ticketId, messageChanged(data));
      },
    }),
  }),
});

export const { useSendVoiceNoteMutation, useReactToMessageMutation } = messageTypesApi;
