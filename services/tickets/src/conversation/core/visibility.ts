import { maySeeTicket, type TicketPlace } from '@wa/auth';
import { DomainError } from '@wa/server-kit';
import type { Caller } from '../../identity/caller.service.js';

/** The shared rule (`maySeeTicket` in @wa/auth) applied to a caller of this service. */
export function canSee(caller: Caller, ticket: TicketPlace): boolean {
  return maySeeTicket(caller.id, caller, ticket);
}

export function assertCanSee(caller: Caller, ticket: TicketPlace): void {
  if (!canSee(caller, ticket)) throw new DomainError('ERR_NO_PERMISSION', {}, 'Acesso não permitido');
}
