import { TicketSubjects, type MessageDto, type MessageEvent, type TicketDto, type TicketUpdatedEvent } from '@wa/contracts';
import type { OutgoingEvent } from '../../outbox/outbox.service.js';

/** `ticket.updated`: its msg id changes with every change of the ticket, and repeats with a replay. */
export function ticketUpdatedEvent(ticket: TicketDto): OutgoingEvent {
  const payload: TicketUpdatedEvent = { companyId: ticket.companyId, ticket };
  return {
    subject: TicketSubjects.ticketUpdated(ticket.companyId, ticket.id),
    msgId: `ticket-updated:${ticket.id}:${ticket.updatedAt}:${ticket.status}:${ticket.userId}:${ticket.unreadMessages}`,
    payload,
  };
}

export function messageEvent(message: MessageDto, ticket: TicketDto, kind: 'created' | 'updated'): OutgoingEvent {
  const payload: MessageEvent = { companyId: ticket.companyId, message, ticket, contact: ticket.contact };
  return {
    subject:
      kind === 'created'
        ? TicketSubjects.messageCreated(ticket.companyId, ticket.id)
        : TicketSubjects.messageUpdated(ticket.companyId, ticket.id),
    msgId: kind === 'created' ? `message-created:${message.id}` : `message-updated:${message.id}:${message.ack}:${message.updatedAt}`,
    payload,
  };
}
