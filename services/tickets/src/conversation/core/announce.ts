import type { TicketDto } from '@wa/contracts';
import type { OutgoingEvent } from '@wa/server-kit';
import { messageEvent } from './ticket-events.js';
import { messageView, ticketView, type MessageRead, type TicketRow } from './ticket-view.js';

/**
 * What stored messages are announced with, wherever they were stored (an inbound batch, an agent's send,
 * an ack): one `message.created` (new messages) or `message.updated` (a changed one, e.g. its ack rose) per
 * message, each carrying its ticket as it now is. That is the whole announcement: a new message changes its
 * ticket's last message, unread count and updatedAt, and `message.created` carries that ticket, so no
 * `ticket.updated` follows it (its readers, the realtime gateway and the webhooks, take the ticket from the
 * message: one event per stored message, issue 44). A change of the ticket made beside the message (a move by
 * the bot, a status) travels in the same payload; what changes a ticket without a message is `ticket.updated`.
 * A message whose ticket is not among `tickets` is not announced (it cannot be routed to the right rooms).
 * Events come in the order of `messages`. A message carries the message it answers when it was read with it
 * (withQuotes): the events show it as `quotedMsg`.
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
  for (const m of messages) {
    const ticket = views.get(`${m.companyId}|${m.ticketId}`);
    if (ticket) events.push(messageEvent(messageView(m), ticket, kind));
  }
  return events;
}
