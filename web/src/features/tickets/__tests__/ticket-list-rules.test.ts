import { describe, expect, it } from '@jest/globals';
import { aTicket } from '../../../test/fixtures';
import {
  applyListChange,
  flattenTickets,
  matchesList,
  onNewMessage,
  onTicketUpdate,
  queueSelected,
  type TicketListArgs,
  type TicketPages,
} from '../ticket-list-rules';

const ME = 7;
const OTHER = 8;
const pending: TicketListArgs = { status: 'pending', showAll: false, queueIds: [10, 11] };
const open: TicketListArgs = { status: 'open', showAll: false, queueIds: [10, 11] };

function pages(...lists: number[][]): TicketPages {
  return {
    pages: lists.map((ids, i) => ({
      tickets: ids.map((id) => aTicket({ id })),
      hasMore: i < lists.length - 1,
      nextCursor: i < lists.length - 1 ? `c${i}` : null,
    })),
    pageParams: lists.map((_, i) => ({ cursor: i === 0 ? null : `c${i - 1}`, page: i + 1 })),
  };
}
const ids = (d: TicketPages) => flattenTickets(d).map((t) => t.id);

describe('which tickets a list takes (spec 01 §4 "Live updates")', () => {
  it('takes a ticket of its status, nobody’s or the user’s own, in a selected queue', () => {
    expect(matchesList(aTicket({ status: 'pending', userId: null, queueId: 10 }), pending, ME)).toBe(true);
    expect(matchesList(aTicket({ status: 'open', userId: ME, queueId: 11 }), open, ME)).toBe(true);
  });

  it('with a tag filter, takes only tickets carrying every tag picked; with a user filter, only tickets those users hold', () => {
    const vip = { id: 1, name: 'VIP', color: '#f00' };
    const late = { id: 2, name: 'Atrasado', color: '#0f0' };
    const all = { showAll: true, queueIds: [], searchParam: 'x' };
    expect(matchesList(aTicket({ tags: [vip, late] }), { ...all, tags: [1, 2] }, ME)).toBe(true);
    expect(matchesList(aTicket({ tags: [vip] }), { ...all, tags: [1, 2] }, ME)).toBe(false);
    expect(matchesList(aTicket({ tags: [] }), { ...all, tags: [] }, ME)).toBe(true);
    expect(matchesList(aTicket({ userId: OTHER }), { ...all, users: [OTHER] }, ME)).toBe(true);
    expect(matchesList(aTicket({ userId: null }), { ...all, users: [OTHER] }, ME)).toBe(false);
  });

  it('leaves out another status', () => {
    expect(matchesList(aTicket({ status: 'open', userId: ME }), pending, ME)).toBe(false);
    expect(matchesList(aTicket({ status: 'closed', userId: ME }), open, ME)).toBe(false);
  });

  it('leaves out another user’s ticket unless "show all" is on', () => {
    const theirs = aTicket({ status: 'open', userId: OTHER, queueId: 10 });
    expect(matchesList(theirs, open, ME)).toBe(false);
    expect(matchesList(theirs, { ...open, showAll: true }, ME)).toBe(true);
  });

  it('leaves out a queue that is not selected; a ticket without queue always passes; no selection is every queue', () => {
    expect(queueSelected(aTicket({ queueId: 12 }), [10, 11])).toBe(false);
    expect(queueSelected(aTicket({ queueId: null }), [10, 11])).toBe(true);
    expect(queueSelected(aTicket({ queueId: 12 }), [])).toBe(true);
  });
});

describe('ticket update events', () => {
  it('adds a matching ticket that was not there at the top', () => {
    const data = pages([1, 2], [3]);
    const t = aTicket({ id: 9, status: 'pending' });
    const change = onTicketUpdate(t, pending, ME, false);
    expect(change).toEqual({ kind: 'upsert', ticket: t, toTop: false });
    const next = applyListChange(data, change);
    expect(ids(next)).toEqual([9, 1, 2, 3]);
    expect(next.pageParams).toEqual(data.pageParams);
  });

  it('replaces a matching ticket where it is', () => {
    const data = pages([1, 2], [3]);
    const t = aTicket({ id: 3, status: 'pending', lastMessage: 'novo' });
    const next = applyListChange(data, onTicketUpdate(t, pending, ME, true));
    expect(ids(next)).toEqual([1, 2, 3]);
    expect(flattenTickets(next)[2].lastMessage).toBe('novo');
  });

  it('removes a ticket whose queue is not selected any more', () => {
    const data = pages([1, 2]);
    const moved = aTicket({ id: 2, status: 'pending', queueId: 12, queue: { id: 12, name: 'Vendas', color: '#00f' } });
    const change = onTicketUpdate(moved, pending, ME, true);
    expect(change).toEqual({ kind: 'remove', ticketId: 2 });
    expect(ids(applyListChange(data, change))).toEqual([1]);
  });

  it('removes a ticket that went to another status (accepted: it leaves pending, enters open)', () => {
    const accepted = aTicket({ id: 2, status: 'open', userId: ME });
    expect(ids(applyListChange(pages([1, 2]), onTicketUpdate(accepted, pending, ME, true)))).toEqual([1]);
    expect(ids(applyListChange(pages([5]), onTicketUpdate(accepted, open, ME, false)))).toEqual([2, 5]);
  });

  it('ignores a non-matching ticket it does not hold', () => {
    expect(onTicketUpdate(aTicket({ id: 4, status: 'closed' }), pending, ME, false)).toEqual({ kind: 'none' });
  });

  it('does not add to a search list, only keeps it current', () => {
    const search: TicketListArgs = { searchParam: 'maria', showAll: false, queueIds: [] };
    expect(onTicketUpdate(aTicket({ id: 4 }), search, ME, false)).toEqual({ kind: 'none' });
    expect(onTicketUpdate(aTicket({ id: 4 }), search, ME, true).kind).toBe('upsert');
  });
});

describe('new message events', () => {
  it('moves the ticket with the new message to the top, from any page', () => {
    const data = pages([1, 2], [3, 4]);
    const t = aTicket({ id: 4, status: 'pending', lastMessage: 'oi de novo', unreadMessages: 2 });
    const change = onNewMessage(t, pending, ME, true);
    expect(change).toEqual({ kind: 'upsert', ticket: t, toTop: true });
    const next = applyListChange(data, change);
    expect(ids(next)).toEqual([4, 1, 2, 3]);
    expect(flattenTickets(next)[0].unreadMessages).toBe(2);
  });

  it('adds a new conversation at the top', () => {
    expect(ids(applyListChange(pages([1]), onNewMessage(aTicket({ id: 5 }), pending, ME, false)))).toEqual([5, 1]);
  });

  it('starts a list that was empty', () => {
    const empty: TicketPages = { pages: [{ tickets: [], hasMore: false, nextCursor: null }], pageParams: [{ cursor: null, page: 1 }] };
    expect(ids(applyListChange(empty, onNewMessage(aTicket({ id: 5 }), pending, ME, false)))).toEqual([5]);
  });
});

describe('delete and unread events', () => {
  it('removes a deleted ticket from whichever page holds it', () => {
    expect(ids(applyListChange(pages([1, 2], [3]), { kind: 'remove', ticketId: 3 }))).toEqual([1, 2]);
  });

  it('leaves the list as it is when the deleted ticket is not in it', () => {
    const data = pages([1, 2]);
    expect(applyListChange(data, { kind: 'remove', ticketId: 9 })).toBe(data);
  });

  it('clears the unread count on updateUnread', () => {
    const next = applyListChange(pages([1, 2]), { kind: 'unread-cleared', ticketId: 2 });
    expect(flattenTickets(next).map((t) => t.unreadMessages)).toEqual([1, 0]);
  });
});
