import { DomainError } from '@wa/server-kit';
import type { Caller } from '../identity/caller.service.js';

/** Admins see every ticket of their company; agents those of their queues and those they hold. */
export function canSee(caller: Caller, ticket: { queueId: number | null; userId: number | null }): boolean {
  if (caller.isAdmin) return true;
  if (ticket.userId === caller.id) return true;
  return ticket.queueId !== null && caller.queueIds.includes(ticket.queueId);
}

export function assertCanSee(caller: Caller, ticket: { queueId: number | null; userId: number | null }): void {
  if (!canSee(caller, ticket)) throw new DomainError('ERR_NO_PERMISSION', {}, 'Acesso não permitido');
}
