import { SocketChannels, type ContactChannelPayload, type ContactDto, type TicketChannelPayload, type TicketDto } from '@wa/contracts';
import { plain } from '../../app/cache';
import type { RootState } from '../../app/store';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { showsContact, withContact } from './ticket-list-rules';
import { applyTicketToCaches, changeTicketLists, ticketsApi } from './tickets.api';

/** `company-<id>-ticket`: lists follow the rules of spec 01 §4 "Live updates"; the chat header follows its ticket. */
export function syncTicketEvent(p: TicketChannelPayload, state: RootState, dispatch: Dispatch): void {
  switch (p.action) {
    case 'update':
      applyTicketToCaches(p.ticket, state, dispatch);
      return;
    case 'delete':
      changeTicketLists(state, dispatch, () => ({ kind: 'remove', ticketId: p.ticketId }));
      return;
    case 'updateUnread':
      changeTicketLists(state, dispatch, () => ({ kind: 'unread-cleared', ticketId: p.ticketId }));
      return;
  }
}

/**
 * `company-<id>-contact`: a contact changed (its profile picture fetched after its first message, a name edited): the
 * tickets that show it, in the lists and the chat header, show it as it is now.
 */
export function syncContactOnTickets(contact: ContactDto, state: RootState, dispatch: Dispatch): void {
  // as every list change: also played again on a list's answer read before it (changeTicketLists)
  changeTicketLists(state, dispatch, (_args, data) => (showsContact(data, contact.id) ? { kind: 'contact', contact } : { kind: 'none' }));
  const queries = (
    state as unknown as { api: { queries: Record<string, { endpointName?: string; originalArgs?: unknown; data?: unknown }> } }
  ).api.queries;
  for (const q of Object.values(queries)) {
    if (q?.endpointName !== 'ticketByUuid' || (q.data as TicketDto | undefined)?.contact?.id !== contact.id) continue;
    dispatch(ticketsApi.util.updateQueryData('ticketByUuid', q.originalArgs as string, (draft) => withContact(plain(draft), contact)));
  }
}

export const ticketsSocket: SocketHandler[] = [
  onChannel<TicketChannelPayload>(SocketChannels.ticket, (p, { state, dispatch }) => syncTicketEvent(p, state(), dispatch)),
  onChannel<ContactChannelPayload>(SocketChannels.contact, (p, { state, dispatch }) => {
    if (p.action === 'update') syncContactOnTickets(p.contact, state(), dispatch);
  }),
];
