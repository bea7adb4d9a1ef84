import type { QueueDto, SyncTagsRequest, TicketDto, TicketsPage, UpdateTicketRequest, UsersPage } from '@wa/contracts';
import { api } from '../../app/api';
import { plain } from '../../app/cache';
import { ChangesInFlight } from '../../app/changes-in-flight';
import type { RootState } from '../../app/store';
import {
  applyListChange,
  containsTicket,
  onTicketUpdate,
  type ListChange,
  type PageParam,
  type TicketListArgs,
  type TicketPages,
} from './ticket-list-rules';

export const ticketsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listTickets: build.infiniteQuery<TicketsPage, TicketListArgs, PageParam>({
      infiniteQueryOptions: {
        initialPageParam: { cursor: null, page: 1 },
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? { cursor: last.nextCursor, page: lastParam.page + 1 } : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/tickets',
        params: {
          status: queryArg.status,
          searchParam: queryArg.searchParam || undefined,
          showAll: String(queryArg.showAll),
          queueIds: JSON.stringify(queryArg.queueIds),
          tags: queryArg.tags?.length ? JSON.stringify(queryArg.tags) : undefined,
          users: queryArg.users?.length ? JSON.stringify(queryArg.users) : undefined,
          ...(pageParam.cursor ? { cursor: pageParam.cursor } : { pageNumber: pageParam.page }),
        },
      }),
      providesTags: ['TicketList'],
      // live events that came while this request was on its way are played again on its answer (see changeTicketLists)
      async onQueryStarted(args, { dispatch, requestId, queryFulfilled }) {
        const missed = await listChanges.take(requestId, queryFulfilled);
        if (missed) replayOnList(args, missed, dispatch);
      },
    }),
    ticket: build.query<TicketDto, number>({
      query: (id) => `/tickets/${id}`,
      providesTags: (t) => (t ? [{ type: 'Ticket', id: t.id }] : []),
    }),
    ticketByUuid: build.query<TicketDto, string>({
      query: (uuid) => `/tickets/u/${encodeURIComponent(uuid)}`,
      providesTags: (t) => (t ? [{ type: 'Ticket', id: t.id }] : []),
    }),
    updateTicket: build.mutation<TicketDto, { id: number } & UpdateTicketRequest>({
      query: ({ id, ...body }) => ({ url: `/tickets/${id}`, method: 'PUT', body }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          applyTicketToCaches(data, getState() as RootState, dispatch);
        } catch {
          /* the caller shows the error */
        }
      },
    }),
    /** Deletes a ticket with its messages (admins); the lists learn it from the socket. */
    deleteTicket: build.mutation<void, number>({
      query: (id) => ({ url: `/tickets/${id}`, method: 'DELETE' }),
    }),
    /** Users of the company matching a name (the transfer dialog searches from 3 characters). */
    searchUsers: build.query<UsersPage, string>({
      query: (searchParam) => ({ url: '/users', params: { searchParam, pageNumber: 1 } }),
    }),
    /** The company's tags (the ticket list's tag filter). */
    listTags: build.query<Array<{ id: number; name: string; color: string }>, void>({
      query: () => '/tags/list',
    }),
    /** Puts exactly these tags on a ticket (POST /tags/sync); the answer and the socket carry the ticket with them. */
    syncTicketTags: build.mutation<TicketDto, { ticketId: number; tagIds: number[] }>({
      query: ({ ticketId, tagIds }) => ({
        url: '/tags/sync',
        method: 'POST',
        body: { ticketId, tags: tagIds.map((id) => ({ id })) } satisfies SyncTagsRequest,
      }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) applyTicketToCaches(data, getState() as RootState, dispatch);
      },
    }),
    /** The company's users by name (the ticket list's user filter, admins). */
    listUserNames: build.query<Array<{ id: number; name: string }>, void>({
      query: () => '/users/list',
    }),
    listQueues: build.query<QueueDto[], void>({
      query: () => '/queue',
      providesTags: ['Queue'],
    }),
  }),
});

export const {
  useListTicketsInfiniteQuery,
  useTicketByUuidQuery,
  useUpdateTicketMutation,
  useListQueuesQuery,
  useDeleteTicketMutation,
  useSearchUsersQuery,
  useListTagsQuery,
  useListUserNamesQuery,
  useSyncTicketTagsMutation,
} = ticketsApi;

type Dispatch = (action: unknown) => unknown;

/** Every cached ticket list with its arguments. */
export function cachedTicketLists(state: RootState): TicketListArgs[] {
  return api.util
    .selectInvalidatedBy(state, ['TicketList'])
    .filter((e) => e.endpointName === 'listTickets')
    .map((e) => e.originalArgs as TicketListArgs);
}

type DecideChange = (args: TicketListArgs, data: TicketPages | undefined) => ListChange;

/** The live changes that came while a ticket list's request was on its way, played again on its answer (app/changes-in-flight). */
const listChanges = new ChangesInFlight<DecideChange>('listTickets');

function replayOnList(args: TicketListArgs, changes: DecideChange[], dispatch: Dispatch): void {
  dispatch(
    ticketsApi.util.updateQueryData('listTickets', args, (draft) =>
      changes.reduce((data, decide) => applyListChange(data, decide(args, data)), plain(draft) as TicketPages),
    ),
  );
}

/** Applies one change (decided per list) to every cached ticket list. */
export function changeTicketLists(state: RootState, dispatch: Dispatch, decide: DecideChange): void {
  listChanges.note(state, decide);
  for (const args of cachedTicketLists(state)) {
    const data = ticketsApi.endpoints.listTickets.select(args)(state).data as TicketPages | undefined;
    const change = decide(args, data);
    if (change.kind === 'none') continue;
    dispatch(ticketsApi.util.updateQueryData('listTickets', args, (draft) => applyListChange(plain(draft) as TicketPages, change)));
  }
}

/** A newer version of a ticket: the chat header that shows it and the lists it belongs to (or no longer does). */
export function applyTicketToCaches(ticket: TicketDto, state: RootState, dispatch: Dispatch): void {
  const userId = state.session.user?.id ?? -1;
  dispatch(ticketsApi.util.updateQueryData('ticketByUuid', ticket.uuid, () => ticket));
  changeTicketLists(state, dispatch, (args, data) => onTicketUpdate(ticket, args, userId, containsTicket(data, ticket.id)));
}
