import type {
  ContactCreated,
  ContactDto,
  ContactsImportReport,
  ContactsPage,
  CreateContactRequest,
  CreateTicketRequest,
  TicketDto,
  UpdateContactRequest,
} from '@wa/contracts';
import { api } from '../../app/api';
import { plain } from '../../app/cache';
import type { RootState } from '../../app/store';
import { applyTicketToCaches } from '../tickets/tickets.api';

export type ContactPages = { pages: ContactsPage[]; pageParams: number[] };

/** A contacts list: the search text and the days of creation (`YYYY-MM-DD`, the company's time; empty: any). */
export interface ContactListArgs {
  search: string;
  dateStart?: string;
  dateEnd?: string;
}

/** Whether a list shows every contact (a new one joins it). */
export const isUnfilteredContactList = (args: ContactListArgs): boolean => !args.search && !args.dateStart && !args.dateEnd;

/** A contact changed: replaced where a cached page holds it; a new one joins the first page of the unfiltered list. */
export function upsertContactPages(data: ContactPages, contact: ContactDto, unfiltered: boolean): ContactPages {
  let found = false;
  const pages = data.pages.map((p) => ({
    ...p,
    contacts: p.contacts.map((c) => {
      if (c.id !== contact.id) return c;
      found = true;
      return contact;
    }),
  }));
  if (!found && unfiltered && pages[0]) {
    const first = pages[0];
    const contacts = [...first.contacts, contact].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id);
    pages[0] = { ...first, contacts, count: first.count + 1 };
  }
  return { ...data, pages };
}

export function removeContactPages(data: ContactPages, contactId: number): ContactPages {
  return {
    ...data,
    pages: data.pages.map((p) => {
      const contacts = p.contacts.filter((c) => c.id !== contactId);
      return contacts.length === p.contacts.length ? p : { ...p, contacts, count: Math.max(0, p.count - 1) };
    }),
  };
}

type Dispatch = (action: unknown) => unknown;

/** Applies a contact change to every cached contacts list (live events and this tab's own saves). */
export function changeContactLists(state: RootState, dispatch: Dispatch, change: { contact: ContactDto } | { removed: number }): void {
  for (const entry of api.util.selectInvalidatedBy(state, ['ContactList'])) {
    if (entry.endpointName !== 'listContacts') continue;
    const args = entry.originalArgs as ContactListArgs;
    dispatch(
      contactsApi.util.updateQueryData('listContacts', args, (d) =>
        'removed' in change
          ? removeContactPages(plain(d) as ContactPages, change.removed)
          : upsertContactPages(plain(d) as ContactPages, change.contact, isUnfilteredContactList(args)),
      ),
    );
  }
}

export const contactsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /contacts` by search text and days of creation (`dateStart`, `dateEnd`), page after page */
    listContacts: build.infiniteQuery<ContactsPage, ContactListArgs, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/contacts',
        params: {
          searchParam: queryArg.search || undefined,
          dateStart: queryArg.dateStart || undefined,
          dateEnd: queryArg.dateEnd || undefined,
          pageNumber: pageParam,
        },
      }),
      providesTags: ['ContactList'],
    }),
    /** contacts for a picker: the search text of the new-ticket modal */
    searchContacts: build.query<ContactDto[], string>({
      query: (searchParam) => ({ url: '/contacts', params: { searchParam } }),
      transformResponse: (page: ContactsPage) => page.contacts,
    }),
    /** One contact with its email and extra info (the chat's contact drawer). */
    contact: build.query<ContactDto, number>({
      query: (id) => `/contacts/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'ContactList', id }],
    }),
    createContact: build.mutation<ContactCreated, CreateContactRequest>({
      query: (body) => ({ url: '/contacts', method: 'POST', body }),
      async onQueryStarted(_a, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data && !data.alreadyExists) changeContactLists(getState() as RootState, dispatch, { contact: data });
      },
    }),
    updateContact: build.mutation<ContactDto, { id: number } & UpdateContactRequest>({
      query: ({ id, ...body }) => ({ url: `/contacts/${id}`, method: 'PUT', body }),
      async onQueryStarted(_a, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) {
          changeContactLists(getState() as RootState, dispatch, { contact: data });
          dispatch(contactsApi.util.upsertQueryData('contact', data.id, data));
        }
      },
    }),
    deleteContact: build.mutation<void, number>({
      query: (id) => ({ url: `/contacts/${id}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const ok = await queryFulfilled.then(() => true).catch(() => false);
        if (ok) changeContactLists(getState() as RootState, dispatch, { removed: id });
      },
    }),
    /** The phone's address book, imported through the default connection's session. */
    importPhoneContacts: build.mutation<ContactsImportReport, void>({
      query: () => ({ url: '/contacts/import', method: 'POST', body: {} }),
      invalidatesTags: ['ContactList'],
    }),
    uploadContacts: build.mutation<ContactsImportReport, FormData>({
      query: (body) => ({ url: '/contacts/upload', method: 'POST', body }),
      invalidatesTags: ['ContactList'],
    }),
    /** opens a conversation with a contact (spec 01 §4: refused with the holder when someone holds one) */
    createTicket: build.mutation<TicketDto, CreateTicketRequest & { status: 'open' | 'pending' }>({
      query: (body) => ({ url: '/tickets', method: 'POST', body }),
      async onQueryStarted(_a, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) applyTicketToCaches(data, getState() as RootState, dispatch);
      },
    }),
  }),
});

export const {
  useListContactsInfiniteQuery,
  useSearchContactsQuery,
  useContactQuery,
  useCreateContactMutation,
  useUpdateContactMutation,
  useDeleteContactMutation,
  useUploadContactsMutation,
  useImportPhoneContactsMutation,
  useCreateTicketMutation,
} = contactsApi;
