import type { TagDto, TicketDto, UserDto } from '@wa/contracts';
import { queueSelected, type ListChange } from '../tickets/ticket-list-rules';

/** A lane of the board: 'open' ('Em aberto', tickets without a kanban tag) or the id of a kanban tag. */
export type LaneKey = 'open' | number;

export type TicketTag = TicketDto['tags'][number];

export interface KanbanLane {
  key: LaneKey;
  /** null for 'Em aberto' */
  tag: TagDto | null;
  tickets: TicketDto[];
}

/** What the board asks GET /ticket/kanban for (the cache key of one board). */
export interface KanbanArgs {
  /** the user's queues; empty = no queue filter */
  queueIds: number[];
}

/** Who looks at the board, for the live updates. */
export interface KanbanViewer {
  id: number;
  /** admins, supervisors and super users see every open ticket; agents their own and the pending ones */
  seesAll: boolean;
}

export function kanbanViewerOf(user: Pick<UserDto, 'id' | 'profile' | 'super'> | null | undefined): KanbanViewer {
  return { id: user?.id ?? -1, seesAll: user?.profile === 'admin' || user?.profile === 'supervisor' || user?.super === true };
}

/**
 * The lane of a ticket (spec 02 "Kanban"): the first lane, in the board's order, whose tag the ticket
 * carries; 'Em aberto' when it carries none of the kanban tags (no tags, or only tags that are no lane).
 */
export function laneOf(ticket: Pick<TicketDto, 'tags'>, lanes: readonly Pick<TagDto, 'id'>[]): LaneKey {
  const carried = new Set((ticket.tags ?? []).map((t) => t.id));
  return lanes.find((l) => carried.has(l.id))?.id ?? 'open';
}

/** The board: 'Em aberto' first, then one lane per kanban tag in the given order; each ticket in exactly one lane, in list order. */
export function groupKanban(tickets: readonly TicketDto[], lanes: readonly TagDto[]): KanbanLane[] {
  const board: KanbanLane[] = [
    { key: 'open', tag: null, tickets: [] },
    ...lanes.map((tag) => ({ key: tag.id, tag, tickets: [] as TicketDto[] })),
  ];
  const byKey = new Map<LaneKey, KanbanLane>(board.map((l) => [l.key, l]));
  for (const ticket of tickets) byKey.get(laneOf(ticket, lanes))?.tickets.push(ticket);
  return board;
}

/** The tags a ticket carries once moved to a lane: none for 'Em aberto', else exactly the lane's tag. */
export function tagsForLane(to: LaneKey, lanes: readonly TagDto[]): TicketTag[] | null {
  if (to === 'open') return [];
  const tag = lanes.find((l) => l.id === to);
  return tag ? [{ id: tag.id, name: tag.name, color: tag.color }] : null;
}

/** The requests of a move (spec 02 §4): to 'Em aberto' the tags are removed; to a tag lane they are removed, then the tag is set. */
export function moveRequests(ticketId: number, to: LaneKey): Array<{ method: 'DELETE' | 'PUT'; url: string }> {
  const clear = { method: 'DELETE' as const, url: `/ticket-tags/${ticketId}` };
  return to === 'open' ? [clear] : [clear, { method: 'PUT', url: `/ticket-tags/${ticketId}/${to}` }];
}

/** Drop-target ids of the lanes and drag ids of the cards (dnd-kit). */
export const laneDropId = (key: LaneKey) => `lane-${key}`;
export const cardDragId = (ticketId: number) => `ticket-${ticketId}`;

export function parseLaneDropId(id: unknown): LaneKey | null {
  const m = /^lane-(open|\d+)$/.exec(String(id ?? ''));
  if (!m) return null;
  return m[1] === 'open' ? 'open' : Number(m[1]);
}

export function parseCardDragId(id: unknown): number | null {
  const m = /^ticket-(\d+)$/.exec(String(id ?? ''));
  return m ? Number(m[1]) : null;
}

/**
 * What a drop asks for: the ticket and its new lane; null when it was dropped outside the lanes, on the lane
 * it is already in, on a lane that is gone, or the ticket is not on the board.
 */
export function dropMove(
  activeId: unknown,
  overId: unknown,
  tickets: readonly TicketDto[],
  lanes: readonly TagDto[],
): { ticket: TicketDto; to: LaneKey } | null {
  const ticketId = parseCardDragId(activeId);
  const to = parseLaneDropId(overId);
  if (ticketId === null || to === null) return null;
  const ticket = tickets.find((t) => t.id === ticketId);
  if (!ticket) return null;
  if (to !== 'open' && !lanes.some((l) => l.id === to)) return null;
  if (laneOf(ticket, lanes) === to) return null;
  return { ticket, to };
}

/**
 * Whether a ticket belongs on a board, as GET /ticket/kanban reads it: open or pending, in one of the
 * board's queues (or none), and, for an agent, held by them or still pending.
 */
export function belongsOnKanban(ticket: TicketDto, args: KanbanArgs, viewer: KanbanViewer): boolean {
  if (ticket.status !== 'open' && ticket.status !== 'pending') return false;
  if (!viewer.seesAll && ticket.userId !== viewer.id && ticket.status !== 'pending') return false;
  return queueSelected(ticket, args.queueIds);
}

/**
 * A live ticket (a `ticket` update, or a new message's ticket with `toTop`): kept current or added when it
 * belongs on the board, removed when it no longer does (closed, taken by someone else, another queue).
 */
export function kanbanTicketChange(ticket: TicketDto, args: KanbanArgs, viewer: KanbanViewer, present: boolean, toTop = false): ListChange {
  if (belongsOnKanban(ticket, args, viewer)) return { kind: 'upsert', ticket, toTop };
  return present ? { kind: 'remove', ticketId: ticket.id } : { kind: 'none' };
}
