import { describe, expect, it } from '@jest/globals';
import { aTicket } from '../../../test/fixtures';
import { aTag } from '../../tags/__tests__/a-tag';
import {
  belongsOnKanban,
  cardDragId,
  dropMove,
  groupKanban,
  kanbanTicketChange,
  kanbanViewerOf,
  laneDropId,
  laneOf,
  moveRequests,
  parseCardDragId,
  parseLaneDropId,
  tagsForLane,
} from '../kanban-rules';

const novo = aTag(5, 'Novo', { kanban: 1, color: '#1976D2' });
const proposta = aTag(6, 'Proposta', { kanban: 1, color: '#C62828' });
const lanes = [novo, proposta];
const ref = (t: { id: number; name: string; color: string }) => ({ id: t.id, name: t.name, color: t.color });
const other = { id: 99, name: 'Interno', color: '#000' };

describe('kanban lanes (spec 02 "Kanban")', () => {
  it("a ticket goes to the first lane (in the board's order) whose tag it carries, else 'Em aberto'", () => {
    expect(laneOf(aTicket({ tags: [] }), lanes)).toBe('open');
    expect(laneOf(aTicket({ tags: [ref(proposta)] }), lanes)).toBe(6);
    expect(laneOf(aTicket({ tags: [ref(proposta), ref(novo)] }), lanes)).toBe(5);
    // tags that are no lane do not count
    expect(laneOf(aTicket({ tags: [other] }), lanes)).toBe('open');
    expect(laneOf(aTicket({ tags: [other, ref(proposta)] }), lanes)).toBe(6);
    expect(laneOf(aTicket({ tags: [ref(novo)] }), [])).toBe('open');
  });

  it("groups the tickets: 'Em aberto' first, then a lane per kanban tag in order, each ticket once, in list order", () => {
    const tickets = [
      aTicket({ id: 1, tags: [] }),
      aTicket({ id: 2, tags: [ref(novo)] }),
      aTicket({ id: 3, tags: [ref(proposta), ref(novo)] }),
      aTicket({ id: 4, tags: [other] }),
      aTicket({ id: 5, tags: [ref(proposta)] }),
    ];
    const board = groupKanban(tickets, lanes);
    expect(board.map((l) => [l.key, l.tag?.name ?? null, l.tickets.map((t) => t.id)])).toEqual([
      ['open', null, [1, 4]],
      [5, 'Novo', [2, 3]],
      [6, 'Proposta', [5]],
    ]);
    expect(groupKanban([], [])).toEqual([{ key: 'open', tag: null, tickets: [] }]);
  });

  it("a move to 'Em aberto' removes the tags; to a tag lane removes them, then sets the lane's tag", () => {
    expect(moveRequests(7, 'open')).toEqual([{ method: 'DELETE', url: '/ticket-tags/7' }]);
    expect(moveRequests(7, 6)).toEqual([
      { method: 'DELETE', url: '/ticket-tags/7' },
      { method: 'PUT', url: '/ticket-tags/7/6' },
    ]);
    expect(tagsForLane('open', lanes)).toEqual([]);
    expect(tagsForLane(6, lanes)).toEqual([{ id: 6, name: 'Proposta', color: '#C62828' }]);
    expect(tagsForLane(42, lanes)).toBeNull();
  });

  it('reads a drop: the card and the lane it was dropped on; nothing outside the lanes or on its own lane', () => {
    const tickets = [aTicket({ id: 1, tags: [] }), aTicket({ id: 2, tags: [ref(novo)] })];
    expect(parseLaneDropId(laneDropId('open'))).toBe('open');
    expect(parseLaneDropId(laneDropId(6))).toBe(6);
    expect(parseLaneDropId('x')).toBeNull();
    expect(parseCardDragId(cardDragId(12))).toBe(12);
    expect(parseCardDragId(undefined)).toBeNull();

    expect(dropMove('ticket-1', 'lane-6', tickets, lanes)).toEqual({ ticket: tickets[0], to: 6 });
    expect(dropMove('ticket-2', 'lane-open', tickets, lanes)).toEqual({ ticket: tickets[1], to: 'open' });
    expect(dropMove('ticket-2', 'lane-5', tickets, lanes)).toBeNull();
    expect(dropMove('ticket-1', 'lane-open', tickets, lanes)).toBeNull();
    expect(dropMove('ticket-1', undefined, tickets, lanes)).toBeNull();
    expect(dropMove('ticket-1', 'lane-42', tickets, lanes)).toBeNull();
    expect(dropMove('ticket-9', 'lane-6', tickets, lanes)).toBeNull();
  });
});

describe('kanban live updates', () => {
  const agent = kanbanViewerOf({ id: 7, profile: 'user', super: false });
  const admin = kanbanViewerOf({ id: 1, profile: 'admin', super: false });

  it('knows who sees every open ticket', () => {
    expect(admin.seesAll).toBe(true);
    expect(kanbanViewerOf({ id: 2, profile: 'supervisor', super: false }).seesAll).toBe(true);
    expect(agent.seesAll).toBe(false);
  });

  it('a ticket belongs on the board while open or pending, in its queues, and for an agent their own or pending', () => {
    const args = { queueIds: [10] };
    expect(belongsOnKanban(aTicket({ status: 'pending' }), args, agent)).toBe(true);
    expect(belongsOnKanban(aTicket({ status: 'open', userId: 7 }), args, agent)).toBe(true);
    expect(belongsOnKanban(aTicket({ status: 'open', userId: 8 }), args, agent)).toBe(false);
    expect(belongsOnKanban(aTicket({ status: 'open', userId: 8 }), args, admin)).toBe(true);
    expect(belongsOnKanban(aTicket({ status: 'closed', userId: 7 }), args, agent)).toBe(false);
    expect(belongsOnKanban(aTicket({ status: 'pending', queueId: 11 }), args, agent)).toBe(false);
    expect(belongsOnKanban(aTicket({ status: 'pending', queueId: null }), args, agent)).toBe(true);
    expect(belongsOnKanban(aTicket({ status: 'pending', queueId: 11 }), { queueIds: [] }, agent)).toBe(true);
  });

  it('an update keeps or adds the card when it belongs, removes it when it no longer does', () => {
    const args = { queueIds: [] };
    const t = aTicket({ id: 3, status: 'open', userId: 7 });
    expect(kanbanTicketChange(t, args, agent, true)).toEqual({ kind: 'upsert', ticket: t, toTop: false });
    expect(kanbanTicketChange(t, args, agent, false, true)).toEqual({ kind: 'upsert', ticket: t, toTop: true });
    const closed = { ...t, status: 'closed' as const };
    expect(kanbanTicketChange(closed, args, agent, true)).toEqual({ kind: 'remove', ticketId: 3 });
    expect(kanbanTicketChange(closed, args, agent, false)).toEqual({ kind: 'none' });
  });
});
