import type { AllTicket, Profile } from '@wa/contracts';

/**
 * Who may see which ticket: the one rule tickets (its HTTP API) and realtime-gateway (its socket rooms and
 * chat-box joins) both apply. Pure, so any service can use it; each turns a "no" into its own answer.
 */

/** What decides which tickets a user sees. */
export interface TicketViewer {
  profile: Profile;
  /** a super user (the provider's staff) */
  super: boolean;
  /** the queues the user works in */
  queueIds: readonly number[];
  /** `enabled`: also sees the tickets no queue and no one holds yet (spec 01 §3 User.allTicket) */
  allTicket?: AllTicket;
}

/** Where a ticket is: its queue and the user who holds it. */
export interface TicketPlace {
  queueId: number | null;
  userId: number | null;
}

/**
 * Admins, supervisors and super users see (and manage) every ticket of their company. The supervisor's rights
 * (the spec leaves them open; README "Profiles"): every conversation, the dashboard, tags and the kanban mark;
 * not users, connections, queues or the company's settings, which stay the admins'.
 */
export function seesAllTickets(viewer: Pick<TicketViewer, 'profile' | 'super'>): boolean {
  return viewer.profile === 'admin' || viewer.profile === 'supervisor' || viewer.super;
}

/** Admins and supervisors (and super users): the dashboard, the kanban mark of tags (spec 02 §6). */
export function supervises(viewer: Pick<TicketViewer, 'profile' | 'super'>): boolean {
  return seesAllTickets(viewer);
}

/** An agent whose allTicket is `enabled` also sees the tickets waiting without a queue. */
export function seesQueuelessTickets(viewer: Pick<TicketViewer, 'allTicket'>): boolean {
  return viewer.allTicket === 'enabled';
}

/**
 * May this user see the ticket? Admins, supervisors and super users: every ticket of their company. Agents:
 * a ticket in one of their queues, and a ticket they hold whatever its queue; a ticket with
 * neither queue nor holder only admins see, and agents whose allTicket is `enabled`. The caller has already
 * scoped the ticket to the user's company.
 */
export function maySeeTicket(userId: number, viewer: TicketViewer, place: TicketPlace): boolean {
  if (seesAllTickets(viewer)) return true;
  if (place.userId !== null && place.userId === userId) return true;
  if (place.queueId === null && place.userId === null) return seesQueuelessTickets(viewer);
  return place.queueId !== null && viewer.queueIds.includes(place.queueId);
}

/**
 * A connection's API token and QR code reach admins and super users only: with the token an agent could
 * send as the company through the public API, with the QR code pair the company's number to their own phone.
 */
export function seesConnectionSecrets(viewer: Pick<TicketViewer, 'profile' | 'super'>): boolean {
  return viewer.profile === 'admin' || viewer.super;
}

/** A connection as everyone else sees it: the same fields, its token null and its QR code empty. */
export function withoutConnectionSecrets<T extends { token: string | null; qrcode: string }>(connection: T): T {
  return { ...connection, token: null, qrcode: '' };
}
