import type { AppMessageChannelPayload, TagDto, TicketChannelPayload, TicketDto, TicketsPage } from '@wa/contracts';
import { api } from '../../app/api';
import { plain } from '../../app/cache';
import type { RootState } from '../../app/store';
import { applyListChange, containsTicket, type ListChange, type PageParam, type TicketPages } from '../tickets/ticket-list-rules';
import { applyTicketToCaches } from '../tickets/tickets.api';
import { kanbanTicketChange, kanbanViewerOf, tagsForLane, type KanbanArgs, type LaneKey, type TicketTag } from './kanban-rules';

/** What `PUT /ticket-tags/{ticketId}/{tagId}` and `DELETE /ticket-tags/{ticketId}` answer. */
export interface TicketTagsAnswer {
  message: string;
  ticket: TicketDto;
}

type Dispatch = (action: unknown) => unknown;

/**
 * The kanban board (spec 02 "Kanban", §7): `GET /ticket/kanban?queueIds=[…]&teste=true` page after page
 * (open and pending tickets, newest first; plan flag useKanban), and a ticket's tags changed one way or
 * the other: `DELETE /ticket-tags/{ticketId}` (all removed), `PUT /ticket-tags/{ticketId}/{tagId}` (one set).
 * The answers carry the ticket, which the ticket manager's caches take at once (the socket follows).
 */
export const kanbanApi = api.injectEndpoints({
  endpoints: (build) => ({
    kanbanTickets: build.infiniteQuery<TicketsPage, KanbanArgs, PageParam>({
      infiniteQueryOptions: {
        initialPageParam: { cursor: null, page: 1 },
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? { cursor: last.nextCursor, page: lastParam.page + 1 } : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/ticket/kanban',
        params: {
          queueIds: JSON.stringify(queryArg.queueIds),
          // sent by the product's client; the server reads nothing into it
          teste: 'true',
          ...(pageParam.cursor ? { cursor: pageParam.cursor } : { pageNumber: pageParam.page }),
        },
      }),
      providesTags: ['TicketList'],
    }),
    clearTicketTags: build.mutation<TicketTagsAnswer, number>({
      query: (ticketId) => ({ url: `/ticket-tags/${ticketId}`, method: 'DELETE' }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data?.ticket) applyTicketToCaches(data.ticket, getState() as RootState, dispatch);
      },
    }),
    addTicketTag: build.mutation<TicketTagsAnswer, { ticketId: number; tagId: number }>({
      query: ({ ticketId, tagId }) => ({ url: `/ticket-tags/${ticketId}/${tagId}`, method: 'PUT' }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data?.ticket) applyTicketToCaches(data.ticket, getState() as RootState, dispatch);
      },
    }),
  }),
});

export const { useKanbanTicketsInfiniteQuery } = kanbanApi;

/**
 * Tickets being moved, with the tags they are moving to: a live update of one of them (the one the first
 * request of the move announces) keeps the card where it was dropped until the move is over.
 */
const moving = new Map<number, TicketTag[]>();

/** Applies a change (decided per board) to every cached board. */
function changeBoards(state: RootState, dispatch: Dispatch, decide: (args: KanbanArgs, data: TicketPages | undefined) => ListChange): void {
  for (const args of kanbanApi.util.selectCachedArgsForQuery(state, 'kanbanTickets')) {
    const data = kanbanApi.endpoints.kanbanTickets.select(args)(state).data as TicketPages | undefined;
    const change = decide(args, data);
    if (change.kind === 'none') continue;
    dispatch(kanbanApi.util.updateQueryData('kanbanTickets', args, (draft) => applyListChange(plain(draft) as TicketPages, change)));
  }
}

/** A newer version of a ticket on every board: kept, moved to its lane, added or taken off. */
export function applyTicketToBoards(ticket: TicketDto, state: RootState, dispatch: Dispatch, toTop = false): void {
  const pending = moving.get(ticket.id);
  const shown = pending ? { ...ticket, tags: pending } : ticket;
  const viewer = kanbanViewerOf(state.session.user);
  changeBoards(state, dispatch, (args, data) => kanbanTicketChange(shown, args, viewer, containsTicket(data, ticket.id), toTop));
}

/** The tags of a ticket on every board where it is. */
function setTicketTags(state: RootState, dispatch: Dispatch, ticketId: number, tags: TicketTag[]): void {
  changeBoards(state, dispatch, (_args, data) => {
    const ticket = data?.pages.flatMap((p) => p.tickets).find((t) => t.id === ticketId);
    return ticket ? { kind: 'upsert', ticket: { ...ticket, tags }, toTop: false } : { kind: 'none' };
  });
}

/** `company-<id>-ticket` on the board: an update moves the card (on every open board), a delete removes it. */
export function syncKanbanTicketEvent(p: TicketChannelPayload, state: RootState, dispatch: Dispatch): void {
  if (p.action === 'update') applyTicketToBoards(p.ticket, state, dispatch);
  else if (p.action === 'delete')
    changeBoards(state, dispatch, (_args, data) =>
      containsTicket(data, p.ticketId) ? { kind: 'remove', ticketId: p.ticketId } : { kind: 'none' },
    );
}

/** `company-<id>-appMessage` on the board: a new message shows as the card's last message, the card first in its lane. */
export function syncKanbanMessageEvent(p: AppMessageChannelPayload, state: RootState, dispatch: Dispatch): void {
  if (p.action === 'create' && p.ticket) applyTicketToBoards(p.ticket, state, dispatch, true);
}

/**
 * Moves a card to a lane (spec 02 §4 "Kanban"): at once on the board, then `DELETE /ticket-tags/{id}` and,
 * for a tag lane, `PUT /ticket-tags/{id}/{tagId}`. The boards take the ticket the server answers. A failure
 * is only logged (spec 02 §8) and the card goes back: to where it was, or, when its tags were already
 * removed, to where the server now has it ('Em aberto'). Resolves to whether the move went through.
 */
export function moveKanbanTicket(ticket: TicketDto, to: LaneKey, lanes: readonly TagDto[]) {
  return async (dispatch: Dispatch, getState: () => RootState): Promise<boolean> => {
    const target = tagsForLane(to, lanes);
    if (!target || moving.has(ticket.id)) return false;
    const before = ticket.tags ?? [];
    moving.set(ticket.id, target);
    setTicketTags(getState(), dispatch, ticket.id, target);
    let server: TicketDto | null = null;
    try {
      server = (await run<TicketTagsAnswer>(dispatch, kanbanApi.endpoints.clearTicketTags.initiate(ticket.id))).ticket ?? null;
      if (to !== 'open')
        server =
          (await run<TicketTagsAnswer>(dispatch, kanbanApi.endpoints.addTicketTag.initiate({ ticketId: ticket.id, tagId: to }))).ticket ??
          null;
      moving.delete(ticket.id);
      if (server) applyTicketToBoards(server, getState(), dispatch);
      return true;
    } catch (err) {
      moving.delete(ticket.id);
      if (server) applyTicketToBoards(server, getState(), dispatch);
      else setTicketTags(getState(), dispatch, ticket.id, before);
      logKanbanFailure(`moving ticket ${ticket.id} failed`, err);
      return false;
    }
  };
}

/** spec 02 §8: the board's failed requests are not shown to the user, only logged. */
export function logKanbanFailure(what: string, err: unknown): void {
  // eslint-disable-next-line no-console -- the spec wants these failures in the log, not on screen
  console.error(`[kanban] ${what}`, err);
}

/** Runs a mutation and forgets its result in the store once it is over. */
async function run<T>(dispatch: Dispatch, action: unknown): Promise<T> {
  const request = dispatch(action) as { unwrap(): Promise<T>; reset(): void };
  try {
    return await request.unwrap();
  } finally {
    request.reset();
  }
}
