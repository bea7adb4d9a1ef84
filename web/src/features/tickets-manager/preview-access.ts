import type { AllTicket, TicketDto } from '@wa/contracts';

/** Who looks: the signed-in user as the session holds them. */
interface Viewer {
  id?: number;
  profile?: string;
  super?: boolean;
  queueIds?: number[];
  /** `enabled`: also sees the tickets no queue and no one holds (spec 01 §3 User.allTicket) */
  allTicket?: AllTicket;
}

const isAdmin = (viewer: Viewer | null | undefined): boolean => viewer?.profile === 'admin' || viewer?.super === true;

/**
 * spec 01 §2 and §6: the preview ("spy on conversation") of a ticket from its card. Admins spy on any ticket;
 * everyone may look at a pending one before taking it.
 */
export function showsPreview(viewer: Viewer | null | undefined, ticket: Pick<TicketDto, 'status'>): boolean {
  return isAdmin(viewer) || ticket.status === 'pending';
}

/**
 * spec 01 §6: the preview is denied with "Acesso não permitido" when the ticket's queue is not among the user's
 * queues and the user is not an admin. As the server decides (libs/auth `maySeeTicket`): a ticket the user holds
 * is theirs; one with neither queue nor holder only a user who sees queueless tickets (`allTicket` enabled,
 * `seesQueuelessTickets`) may look at, so no one else is offered a preview the server refuses.
 */
export function mayPreview(viewer: Viewer | null | undefined, ticket: Pick<TicketDto, 'queueId' | 'userId'>): boolean {
  if (isAdmin(viewer)) return true;
  if (!viewer) return false;
  if (ticket.userId != null && ticket.userId === viewer.id) return true;
  if (ticket.queueId == null) return ticket.userId == null && viewer.allTicket === 'enabled';
  return (viewer.queueIds ?? []).includes(ticket.queueId);
}
