import type { CreateNoteRequest, NotesQuery, TicketNoteDto } from '@wa/contracts';
import { api } from '../../app/api';

const notesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** A ticket's notes about its contact, newest first. */
    notes: build.query<TicketNoteDto[], NotesQuery>({
      query: (q) => ({ url: '/ticket-notes/list', params: q }),
      providesTags: (_r, _e, q) => [{ type: 'Notes', id: `${q.ticketId}:${q.contactId}` }],
    }),
    addNote: build.mutation<TicketNoteDto, CreateNoteRequest>({
      query: (body) => ({ url: '/ticket-notes', method: 'POST', body }),
      invalidatesTags: (_r, _e, q) => [{ type: 'Notes', id: `${q.ticketId}:${q.contactId}` }],
    }),
    deleteNote: build.mutation<void, { id: number; ticketId: number; contactId: number }>({
      query: ({ id }) => ({ url: `/ticket-notes/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, q) => [{ type: 'Notes', id: `${q.ticketId}:${q.contactId}` }],
    }),
  }),
});

export const { useNotesQuery, useAddNoteMutation, useDeleteNoteMutation } = notesApi;
