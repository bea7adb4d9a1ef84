import type { ContactListDto, ContactListItemDto } from '@wa/contracts';
import { api } from '../../app/api';

export interface ContactListsPage {
  records: ContactListDto[];
  hasMore: boolean;
  count: number;
}

export interface ContactListItemsPage {
  contacts: ContactListItemDto[];
  hasMore: boolean;
}

export interface ContactListItemRequest {
  name: string;
  number: string;
  email: string;
  contactListId: number;
}

const withListTypes = api.enhanceEndpoints({ addTagTypes: ['CampaignContactList', 'CampaignContactListItem', 'CampaignLists'] });

/**
 * Contact lists and their items (spec 02 §7 "Contact lists"): pages by search, one list (with contactsCount),
 * save, delete, the spreadsheet import (answered at once; its progress arrives live) and the items. Every change,
 * here or live (contact-lists.socket.ts), reloads the cached pages.
 */
export const contactListsApi = withListTypes.injectEndpoints({
  endpoints: (build) => ({
    listContactLists: build.infiniteQuery<ContactListsPage, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/contact-lists',
        params: { searchParam: queryArg || undefined, pageNumber: pageParam },
      }),
      providesTags: ['CampaignContactList'],
    }),
    getContactList: build.query<ContactListDto, number>({
      query: (id) => `/contact-lists/${id}`,
      providesTags: ['CampaignContactList'],
    }),
    saveContactList: build.mutation<ContactListDto, { id?: number; name: string }>({
      query: ({ id, ...body }) =>
        id ? { url: `/contact-lists/${id}`, method: 'PUT', body } : { url: '/contact-lists', method: 'POST', body },
      invalidatesTags: (_r, error) => (error ? [] : ['CampaignContactList', 'CampaignLists']),
    }),
    deleteContactList: build.mutation<unknown, number>({
      query: (id) => ({ url: `/contact-lists/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, error) => (error ? [] : ['CampaignContactList', 'CampaignLists']),
    }),
    /** multipart field `file`; the server answers at once and the rows follow live */
    uploadContactList: build.mutation<unknown, { id: number; file: File }>({
      query: ({ id, file }) => {
        const form = new FormData();
        form.append('file', file, file.name);
        return { url: `/contact-lists/${id}/upload`, method: 'POST', body: form };
      },
    }),
    listContactListItems: build.infiniteQuery<ContactListItemsPage, { contactListId: number; search: string }, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/contact-list-items',
        params: { contactListId: queryArg.contactListId, searchParam: queryArg.search || undefined, pageNumber: pageParam },
      }),
      providesTags: ['CampaignContactListItem'],
    }),
    saveContactListItem: build.mutation<ContactListItemDto, { id?: number } & ContactListItemRequest>({
      query: ({ id, ...body }) =>
        id ? { url: `/contact-list-items/${id}`, method: 'PUT', body } : { url: '/contact-list-items', method: 'POST', body },
      invalidatesTags: (_r, error) => (error ? [] : ['CampaignContactListItem', 'CampaignContactList']),
    }),
    deleteContactListItem: build.mutation<unknown, number>({
      query: (id) => ({ url: `/contact-list-items/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, error) => (error ? [] : ['CampaignContactListItem', 'CampaignContactList']),
    }),
  }),
});

export const {
  useListContactListsInfiniteQuery,
  useGetContactListQuery,
  useSaveContactListMutation,
  useDeleteContactListMutation,
  useUploadContactListMutation,
  useListContactListItemsInfiniteQuery,
  useSaveContactListItemMutation,
  useDeleteContactListItemMutation,
} = contactListsApi;

/** Reloads the cached lists (and the campaign dialog's picker). */
export const refreshContactLists = () => contactListsApi.util.invalidateTags(['CampaignContactList', 'CampaignLists']);
/** Reloads the cached items of every list. */
export const refreshContactListItems = () => contactListsApi.util.invalidateTags(['CampaignContactListItem']);
