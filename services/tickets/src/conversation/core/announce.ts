import type { TicketDto } from '@wa/contracts';
import type { OutgoingEvent } from '../../outbox/outbox.service.js';
import { messageEvent, ticketUpdatedEvent } from './ticket-events.js';
import { messageView, ticketView, type MessageRead, type TicketRow } from './ticket-view.js';

/**
 * What stored messages are announced with, wherever they were stored (an inbound batch, an agent's send,
 * an ack): one `message.created` (new messages) or `message.updated` (a changed one, e.g. its ack rose) per
 * message, each carrying its ticket; then, for new messages, one `ticket.updated` per ticket they landed on
 * (a new message changes its ticket's last message, unread count and updatedAt; an ack changes no ticket).
 * A message whose ticket is not among `tickets` is not announced (it cannot be routed to the right rooms).
 * Events come in the order of `messages`, ticket events after them in order of first appearance. A message carries
 * the message it answers when it was read with it (withQuotes): the events show it as `quotedMsg`.
 */
export function announceStored(
  kind: 'created' | 'updated',
  messages: readonly MessageRead[],
  tickets: readonly TicketRow[],
  userName: (companyId: number, userId: number) => string,
): OutgoingEvent[] {
  const views = new Map<string, TicketDto>();
  for (const row of tickets)
    views.set(
      `${row.companyId}|${row.id}`,
      ticketView(row, (id) => userName(row.companyId, id)),
    );
  const events: OutgoingEvent[] = [];
  const touched = new Map<string, TicketDto>();
  for (const m of messages) {
    const key = `${m.companyId}|${m.ticketId}`;
    const ticket = views.get(key);
    if (!ticket) continue;
    events.push(messageEvent(messageView(m), ticket, kind));
    touched.set(key, ticket);
  }
  if (kind === 'created') for (const ticket of touched.values()) events.push(ticketUpdatedEvent(ticket));
  return events;
}
