import type { TicketDto } from '@wa/contracts';

/** Who looks: the signed-in user as the session holds them. */
interface Viewer {
  profile?: string;
  super?: boolean;
  queueIds?: number[];
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
 * queues and the user is not an admin (a ticket without a queue is theirs to look at, as their list shows it).
 */
export function mayPreview(viewer: Viewer | null | undefined, ticket: Pick<TicketDto, 'queueId'>): boolean {
  if (isAdmin(viewer)) return true;
  return ticket.queueId == null || (viewer?.queueIds ?? []).includes(ticket.queueId);
}
