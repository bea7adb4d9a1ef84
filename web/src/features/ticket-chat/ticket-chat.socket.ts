import { SocketChannels, type AppMessageChannelPayload } from '@wa/contracts';
import type { RootState } from '../../app/store';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { containsTicket, onNewMessage } from '../tickets/ticket-list-rules';
import { changeTicketLists, ticketsApi } from '../tickets/tickets.api';
import { changeMessages, messageAdded, messageChanged } from './chat.api';

/** `company-<id>-appMessage`: the open chat gets the message (or its new ack); the ticket moves to the top of its lists. */
export function syncMessageEvent(p: AppMessageChannelPayload, state: RootState, dispatch: Dispatch): void {
  const ticketId = p.message.ticketId;
  if (p.action === 'create') {
    changeMessages(state, dispatch, ticketId, messageAdded(p.message));
    if (p.ticket) {
      const userId = state.session.user?.id ?? -1;
      dispatch(ticketsApi.util.updateQueryData('ticketByUuid', p.ticket.uuid, () => p.ticket));
      changeTicketLists(state, dispatch, (args, data) => onNewMessage(p.ticket, args, userId, containsTicket(data, p.ticket.id)));
    }
  } else {
    changeMessages(state, dispatch, ticketId, messageChanged(p.message));
  }
}

export const ticketChatSocket: SocketHandler[] = [
  onChannel<AppMessageChannelPayload>(SocketChannels.appMessage, (p, { state, dispatch }) => syncMessageEvent(p, state(), dispatch)),
];
