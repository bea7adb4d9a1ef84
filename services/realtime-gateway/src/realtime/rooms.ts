import { seesAllTickets, seesQueuelessTickets, type TicketPlace, type TicketViewer } from '@wa/auth';
import type { TicketStatus } from '@wa/contracts';

/**
 * socket.io rooms. Every room carries the company, and a socket's rooms are computed on the server
 * from its verified token and the user directory, never from what the client sends: a socket can only
 * ever be in rooms of its own company.
 */
export const Rooms = {
  /** every socket of every company: the platform's announcements */
  platform: () => 'platform',
  /** the super users' sockets: announcements not (or no longer) active */
  supers: () => 'platform:super',
  /** company-wide events: connections, sessions, contacts */
  company: (companyId: number) => `c:${companyId}`,
  /** every socket of one user (ticket owner) */
  user: (companyId: number, userId: number) => `c:${companyId}:user:${userId}`,
  /** the sockets of one login session */
  session: (companyId: number, sessionId: string) => `c:${companyId}:sid:${sessionId}`,
  /** admins, supervisors and super users: every ticket of the company */
  allTickets: (companyId: number) => `c:${companyId}:all`,
  /** admins and super users (not supervisors): connections' API tokens and QR codes */
  admins: (companyId: number) => `c:${companyId}:admins`,
  /** agents whose allTicket is enabled: tickets no queue and no one holds */
  queueless: (companyId: number) => `c:${companyId}:queueless`,
  /** agents of one queue */
  queue: (companyId: number, queueId: number) => `c:${companyId}:queue:${queueId}`,
  /** the chat box of one ticket (joinChatBox) */
  ticket: (companyId: number, ticketId: number) => `c:${companyId}:ticket:${ticketId}`,
  /** a ticket list the client shows (joinTickets) */
  status: (companyId: number, status: TicketStatus) => `c:${companyId}:status:${status}`,
  notification: (companyId: number) => `c:${companyId}:notification`,
} as const;

/** What decides which tickets a user sees (the shared rule's viewer). */
export type TicketVisibility = TicketViewer;
export type { TicketPlace };

/**
 * The ticket-permission rooms of a user: `all` for admins and super users, one room per queue otherwise
 * (with the user's own room, which every socket joins, this is `maySeeTicket` of @wa/auth as rooms).
 */
export function permissionRooms(companyId: number, v: TicketVisibility): string[] {
  if (seesAllTickets(v)) return [Rooms.allTickets(companyId)];
  const rooms = [...new Set(v.queueIds)].filter((q) => Number.isInteger(q)).map((q) => Rooms.queue(companyId, q));
  if (seesQueuelessTickets(v)) rooms.push(Rooms.queueless(companyId));
  return rooms;
}

/**
 * The rooms a socket holds by its profile (a profile change ends the socket): its company's admins' room for
 * admins and super users, the platform's super users' room for super users.
 */
export function profileRooms(companyId: number, v: Pick<TicketVisibility, 'profile' | 'super'>): string[] {
  const rooms: string[] = [];
  if (v.profile === 'admin' || v.super) rooms.push(Rooms.admins(companyId));
  if (v.super) rooms.push(Rooms.supers());
  return rooms;
}

/** The rooms a ticket's events go to: admins, the agents of its queue, its owner (none of both: the queueless room). */
export function ticketRooms(companyId: number, place: TicketPlace): string[] {
  const rooms = [Rooms.allTickets(companyId)];
  if (place.queueId !== null) rooms.push(Rooms.queue(companyId, place.queueId));
  if (place.userId !== null) rooms.push(Rooms.user(companyId, place.userId));
  if (place.queueId === null && place.userId === null) rooms.push(Rooms.queueless(companyId));
  return rooms;
}
