import { SocketChannels, type TicketChannelPayload } from '@wa/contracts';
import type { RootState } from '../../app/store';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { applyTicketToCaches, changeTicketLists } from './tickets.api';

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

export const ticketsSocket: SocketHandler[] = [
  onChannel<TicketChannelPayload>(SocketChannels.ticket, (p, { state, dispatch }) => syncTicketEvent(p, state(), dispatch)),
];
