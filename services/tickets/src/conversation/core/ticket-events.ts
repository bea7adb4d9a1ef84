import { createHash } from 'node:crypto';
import {
  Streams,
  TicketSubjects,
  type MessageBatchEvent,
  type MessageDto,
  type MessageEvent,
  type TicketDto,
  type TicketUpdatedEvent,
} from '@wa/contracts';
import type { EventBus } from '@wa/event-bus';
import type { OutgoingEvent } from '@wa/server-kit';

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

/**
 * A `message.batch`'s events at most, and its size at most as sizeOf bounds it: the bus takes 1 MB a message, and
 * one event too large alone goes alone, as it did before batches.
 */
const BATCH_MAX_EVENTS = 200;
const BATCH_MAX_BYTES = 768 * 1024;

const BATCHED = /^message\.(created|updated)\./;

/** The subjects of the stream the batches go on (TICKETS): one of its other events is a barrier no batch is gathered across. */
const TICKETS_SUBJECTS = Streams.TICKETS.subjects.map((s) => s.replace(/>$/, ''));
const onTickets = (subject: string) => TICKETS_SUBJECTS.some((prefix) => subject.startsWith(prefix));

/**
 * At least as many bytes as a message's event takes once JSON: 3 KB for its fields and its ticket's, 64 bytes a
 * tag, and its texts (the message's, the one it answers, the ticket's last) six times over, as JSON may write a
 * byte (`\u0001`). Measuring them exactly would cost a second JSON of the whole batch.
 */
function sizeOf(e: MessageEvent): number {
  const { message, ticket } = e;
  const texts =
    Buffer.byteLength(message.body ?? '') + Buffer.byteLength(message.quotedMsg?.body ?? '') + Buffer.byteLength(ticket.lastMessage ?? '');
  return (
    3072 +
    64 * (ticket.tags?.length ?? 0) +
    6 * texts +
    (message.contacts?.length ? 6 * Buffer.byteLength(JSON.stringify(message.contacts)) : 0)
  );
}

/** A `message.batch` being gathered, in the place of its first event among the published. */
interface Gathering {
  events: MessageBatchEvent['events'];
  originals: OutgoingEvent[];
  bytes: number;
}

/**
 * The events as they go onto the bus: the `message.created` / `message.updated` among them gathered per company
 * into `message.batch` events (in their order, at most BATCH_MAX_EVENTS and BATCH_MAX_BYTES each; a lone one
 * stays as it is), each where its first event was; the other events as they are, and one of them on the same stream
 * (a ticket's, a contact's) ends every batch being gathered: no message event is moved ahead of it (a ticket's state
 * in a message's event never older than an event before it, as the outbox writes them). One stream message, one
 * delivery and one ack for a stored batch instead of one per message (issue 44). A batch's msg id is a digest of
 * its events' own: a retry that announces the same messages again is dropped by the stream as a repeat, as each
 * event alone would be. What the outbox's taps (the webhooks) and the bot read are the events one by one.
 */
export function batchedForBus(events: readonly OutgoingEvent[]): OutgoingEvent[] {
  const out: Array<OutgoingEvent | Gathering> = [];
  const open = new Map<number, Gathering>();
  for (const e of events) {
    const verb = BATCHED.exec(e.subject)?.[1] as 'created' | 'updated' | undefined;
    if (!verb) {
      out.push(e);
      if (onTickets(e.subject)) open.clear();
      continue;
    }
    const payload = e.payload as MessageEvent;
    const bytes = sizeOf(payload);
    let g = open.get(payload.companyId);
    if (!g || g.events.length >= BATCH_MAX_EVENTS || g.bytes + bytes > BATCH_MAX_BYTES) {
      g = { events: [], originals: [], bytes: 0 };
      open.set(payload.companyId, g);
      out.push(g);
    }
    g.events.push({ ...payload, verb });
    g.originals.push(e);
    g.bytes += bytes;
  }
  return out.map((g) => ('originals' in g ? batchEvent(g) : g));
}

/** Publishes the events as {@link batchedForBus} gathers them, all in flight at once; resolves once the stream has each. */
export async function publishBatched(bus: EventBus, events: readonly OutgoingEvent[]): Promise<void> {
  await Promise.all(batchedForBus(events).map((e) => bus.publish(e.subject, e.payload, { msgId: e.msgId })));
}

function batchEvent(g: Gathering): OutgoingEvent {
  if (g.originals.length === 1) return g.originals[0];
  const digest = createHash('sha1');
  for (const e of g.originals) digest.update(`${e.msgId}\n`);
  const first = g.events[0];
  const payload: MessageBatchEvent = { companyId: first.companyId, events: g.events };
  return {
    subject: TicketSubjects.messageBatch(first.companyId, first.message.id),
    msgId: `message-batch:${digest.digest('hex')}`,
    payload,
  };
}
