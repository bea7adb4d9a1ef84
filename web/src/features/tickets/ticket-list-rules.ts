import type { TicketDto, TicketsPage, TicketStatus, UserDto } from '@wa/contracts';

/** What a ticket list shows (the cache key of one list). */
export interface TicketListArgs {
  /** absent in the search tab */
  status?: TicketStatus;
  searchParam?: string;
  /** admins: every ticket, not only their own and the pending ones */
  showAll: boolean;
  /** the selected queues; empty = no queue filter */
  queueIds: number[];
  /** tickets carrying every one of these tags; absent or empty = no tag filter */
  tags?: number[];
  /** admins: tickets held by one of these users; absent or empty = no user filter */
  users?: number[];
}

/** The list the ticket manager opens with: the open tab, the user's queues, "show all" off. */
export function defaultTicketListArgs(user: Pick<UserDto, 'queueIds' | 'queues'> | null | undefined): TicketListArgs {
  return { status: 'open', showAll: false, queueIds: userQueueIds(user) };
}

export function userQueueIds(user: Pick<UserDto, 'queueIds' | 'queues'> | null | undefined): number[] {
  return user?.queueIds ?? user?.queues?.map((q) => q.id) ?? [];
}

export interface PageParam {
  cursor: string | null;
  page: number;
}

export interface TicketPages {
  pages: TicketsPage[];
  pageParams: PageParam[];
}

/** A queue filter lets a ticket through when the ticket has no queue, or its queue is selected (an empty selection filters nothing). */
export function queueSelected(ticket: Pick<TicketDto, 'queueId'>, queueIds: readonly number[]): boolean {
  return ticket.queueId === null || ticket.queueId === undefined || queueIds.length === 0 || queueIds.includes(ticket.queueId);
}

/**
 * spec 01 §4 "Live updates": a ticket belongs to a list when it matches the list's status, the user
 * (nobody's, the user's own, or any when "show all" is on), the selected queues, and the tag and user
 * filters when set (as the server reads them).
 */
export function matchesList(ticket: TicketDto, args: TicketListArgs, userId: number): boolean {
  if (args.status && ticket.status !== args.status) return false;
  const userOk = ticket.userId === null || ticket.userId === undefined || ticket.userId === userId || args.showAll;
  if (args.tags?.length && !args.tags.every((id) => ticket.tags?.some((tag) => tag.id === id))) return false;
  if (args.users?.length && !(ticket.userId !== null && args.users.includes(ticket.userId))) return false;
  return userOk && queueSelected(ticket, args.queueIds);
}

export type ListChange =
  | { kind: 'upsert'; ticket: TicketDto; toTop: boolean }
  | { kind: 'remove'; ticketId: number }
  | { kind: 'unread-cleared'; ticketId: number }
  /** a contact changed (a name edited, its picture fetched): the tickets that show it show it as it is now */
  | { kind: 'contact'; contact: ShownContact }
  | { kind: 'none' };

/**
 * A `ticket` event `{action: 'update'}`: added (at the top) or replaced in place when it matches the
 * list; removed when it no longer does (its queue is not selected, it went to another status or user).
 * A search list (no status) is only kept current: new tickets are not added to it.
 */
export function onTicketUpdate(ticket: TicketDto, args: TicketListArgs, userId: number, present: boolean): ListChange {
  if (args.searchParam && !args.status) return present ? { kind: 'upsert', ticket, toTop: false } : { kind: 'none' };
  if (matchesList(ticket, args, userId)) return { kind: 'upsert', ticket, toTop: false };
  return present ? { kind: 'remove', ticketId: ticket.id } : { kind: 'none' };
}

/** An `appMessage` `{action: 'create'}`: the ticket with the new message moves to the top of the lists it matches. */
export function onNewMessage(ticket: TicketDto, args: TicketListArgs, userId: number, present: boolean): ListChange {
  if (args.searchParam && !args.status) return present ? { kind: 'upsert', ticket, toTop: true } : { kind: 'none' };
  if (matchesList(ticket, args, userId)) return { kind: 'upsert', ticket, toTop: true };
  return present ? { kind: 'remove', ticketId: ticket.id } : { kind: 'none' };
}

export function containsTicket(data: TicketPages | undefined, ticketId: number): boolean {
  return !!data?.pages.some((p) => p.tickets.some((t) => t.id === ticketId));
}

/** Applies a change to the pages of a list, without touching the page cursors. */
export function applyListChange(data: TicketPages, change: ListChange): TicketPages {
  switch (change.kind) {
    case 'none':
      return data;
    case 'remove':
      if (!containsTicket(data, change.ticketId)) return data;
      return { ...data, pages: data.pages.map((p) => ({ ...p, tickets: p.tickets.filter((t) => t.id !== change.ticketId) })) };
    case 'unread-cleared':
      if (!containsTicket(data, change.ticketId)) return data;
      return {
        ...data,
        pages: data.pages.map((p) => ({
          ...p,
          tickets: p.tickets.map((t) => (t.id === change.ticketId ? { ...t, unreadMessages: 0 } : t)),
        })),
      };
    case 'contact': {
      const { contact } = change;
      if (!showsContact(data, contact.id)) return data;
      return { ...data, pages: data.pages.map((p) => ({ ...p, tickets: p.tickets.map((t) => withContact(t, contact)) })) };
    }
    case 'upsert': {
      const { ticket, toTop } = change;
      if (containsTicket(data, ticket.id) && !toTop) {
        return { ...data, pages: data.pages.map((p) => ({ ...p, tickets: p.tickets.map((t) => (t.id === ticket.id ? ticket : t)) })) };
      }
      const without = data.pages.map((p) => ({ ...p, tickets: p.tickets.filter((t) => t.id !== ticket.id) }));
      if (without.length === 0)
        return { pages: [{ tickets: [ticket], hasMore: false, nextCursor: null }], pageParams: [{ cursor: null, page: 1 }] };
      return { ...data, pages: [{ ...without[0], tickets: [ticket, ...without[0].tickets] }, ...without.slice(1)] };
    }
  }
}

/** Every ticket of a list, in order, each once (a ticket that moved between pages while paging). */
export function flattenTickets(data: TicketPages | undefined): TicketDto[] {
  if (!data) return [];
  const seen = new Set<number>();
  const out: TicketDto[] = [];
  for (const page of data.pages) {
    for (const t of page.tickets) {
      if (seen.has(t.id)) continue;
      seen.add(t.id);
      out.push(t);
    }
  }
  return out;
}

/** Whether one of the list's tickets shows this contact. */
export function showsContact(data: TicketPages | undefined, contactId: number): boolean {
  return data?.pages.some((page) => page.tickets.some((t) => t.contact?.id === contactId)) ?? false;
}

/** What a ticket shows of its contact, as a contact change carries it. */
export type ShownContact = Pick<TicketDto['contact'], 'id' | 'name' | 'number' | 'profilePicUrl'>;

/** The ticket showing `contact` as it is now, when it is that contact's (the ticket as it was otherwise). */
export function withContact(ticket: TicketDto, contact: ShownContact): TicketDto {
  if (ticket.contact?.id !== contact.id) return ticket;
  return { ...ticket, contact: { ...ticket.contact, name: contact.name, number: contact.number, profilePicUrl: contact.profilePicUrl } };
}
