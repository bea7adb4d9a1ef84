import type { WaInboundMessage } from '@wa/contracts';
import { inboundContactNumber } from '@wa/domain';

/**
 * The rules of storing inbound WhatsApp messages. `storeInbound` builds the arguments of
 * `tickets.store_inbound` with these functions, and the PL/pgSQL function (migration 1732240000002) is
 * their fast, set-based implementation: each rule names the statement of that function that carries it
 * out. `test/integration/inbound-rules.int-spec.ts` checks that the function still does what these say.
 */

/** Longest contact name stored (the column's width). */
export const CONTACT_NAME_MAX = 100;

export interface InboundContact {
  companyId: number;
  number: string;
  /** the name this batch gives the contact; '' when it gives none */
  name: string;
  isGroup: boolean;
}

/**
 * The name a message gives its contact: the customer's push name, trimmed and cut to the column's width.
 * A message we sent (fromMe) carries our own name, never the contact's, so it gives none ('').
 */
export function contactNameOf(message: Pick<WaInboundMessage, 'fromMe' | 'fromName'>): string {
  if (message.fromMe) return '';
  return (message.fromName ?? '').trim().slice(0, CONTACT_NAME_MAX);
}

/**
 * The number a message's contact is kept under: the canonical phone number (so the Brazilian 9th-digit
 * variants WhatsApp uses for one person are one contact), a group's id as it is.
 */
export function contactNumberOf(message: Pick<WaInboundMessage, 'from' | 'isGroup'>): string {
  return inboundContactNumber(message.from, message.isGroup);
}

/**
 * The contacts a batch upserts: one per company and number. The last name given in the batch wins (a
 * message that gives none keeps the one before it); groups are contacts too, flagged by the last message.
 * Sorted by company, then number, so parallel batches lock contact rows in the same order.
 *
 * store_inbound step 1 (`INSERT INTO tickets.contacts … ON CONFLICT DO UPDATE`) applies them: a new contact
 * is named by its name, or by its number when it has none; a known one is renamed only when a name came and
 * differs from the stored one (no name keeps the stored name); the group flag of a known contact stays.
 */
export function contactsOfBatch(
  messages: ReadonlyArray<Pick<WaInboundMessage, 'companyId' | 'from' | 'fromMe' | 'fromName' | 'isGroup'>>,
): InboundContact[] {
  const contacts = new Map<string, InboundContact>();
  for (const m of messages) {
    const number = contactNumberOf(m);
    const key = `${m.companyId}|${number}`;
    const name = contactNameOf(m) || contacts.get(key)?.name || '';
    contacts.set(key, { companyId: m.companyId, number, name, isGroup: m.isGroup });
  }
  return [...contacts.values()].sort((a, b) => a.companyId - b.companyId || (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
}

/** The name a contact ends with after step 1, given the stored one (undefined: a new contact). */
export function contactNameAfter(stored: string | undefined, contact: Pick<InboundContact, 'number' | 'name'>): string {
  if (contact.name === '' || contact.name === contact.number) return stored ?? contact.number;
  return contact.name;
}

/**
 * The queue a new ticket starts in: the connection's queue when it has exactly one, none otherwise (with
 * several the customer picks one, or an agent does).
 *
 * store_inbound step 2 (`INSERT INTO tickets.tickets … ON CONFLICT … WHERE status <> 'closed' DO NOTHING`)
 * uses it only when it creates the ticket: each contact has at most one non-closed ticket per connection
 * (a partial unique index), a message joins that one, and a joined ticket keeps its queue. A new ticket
 * starts `pending`.
 */
export function queueForNewTicket(connectionQueueIds: readonly number[] | undefined): number | null {
  return connectionQueueIds?.length === 1 ? connectionQueueIds[0] : null;
}

/**
 * When WhatsApp says the message was sent: the conversation's clock (orders messages and picks the last
 * one). A message without a timestamp takes the time it is stored.
 */
export function sentAtOf(message: Pick<WaInboundMessage, 'timestamp'>, now = Date.now()): Date {
  return new Date(message.timestamp || now);
}

/**
 * How a message is stored: one we sent from the phone (fromMe) is already sent (ack 1) and read; a
 * customer's is unread with no ack. store_inbound step 3 (`INSERT INTO tickets.messages … ON CONFLICT
 * ("whatsappId", wid) DO NOTHING`), where the unique key also makes a replay store nothing.
 */
export function initialStateOf(message: Pick<WaInboundMessage, 'fromMe'>): { ack: number; read: boolean } {
  return message.fromMe ? { ack: 1, read: true } : { ack: 0, read: false };
}

/**
 * How much a ticket's unread count rises with the messages newly stored on it: each customer message
 * counts, ours (fromMe) do not, and a message that was already stored (a replay) counts nothing.
 * store_inbound step 4 (`UPDATE tickets.tickets SET "unreadMessages" = … count(*) FILTER (WHERE NOT
 * m."fromMe")` over the ids step 3 inserted).
 */
export function unreadIncrement(newMessages: ReadonlyArray<{ fromMe: boolean }>): number {
  return newMessages.filter((m) => !m.fromMe).length;
}

export interface OrderedMessage {
  sentAt: Date | string;
  /** JetStream sequence of the inbound event; null for a message stored otherwise (an agent's send) */
  seq: number | null;
  id: number | string;
}

/**
 * A ticket's last message among all its messages: the newest by WhatsApp's clock (sentAt); within the same
 * instant the later arrival (higher seq, a message without seq counting as the latest), then the higher id.
 * A message that arrives late with an older clock does not become the last one.
 * store_inbound step 4 (`"lastMessage" = (SELECT body … ORDER BY "sentAt" DESC, seq DESC NULLS FIRST,
 * id DESC LIMIT 1)`), run for each ticket that got new messages.
 */
export function lastMessageOf<T extends OrderedMessage>(messages: readonly T[]): T | undefined {
  let last: T | undefined;
  for (const m of messages) if (last === undefined || compareMessages(m, last) > 0) last = m;
  return last;
}

/** Conversation order: negative when a comes before b. */
export function compareMessages(a: OrderedMessage, b: OrderedMessage): number {
  const t = new Date(a.sentAt).getTime() - new Date(b.sentAt).getTime();
  if (t !== 0) return t;
  if (a.seq !== b.seq) {
    if (a.seq === null) return 1;
    if (b.seq === null) return -1;
    return a.seq - b.seq;
  }
  const ia = BigInt(a.id);
  const ib = BigInt(b.id);
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

export interface InboundItem {
  data: WaInboundMessage;
  /** the JetStream sequence: breaks ties between messages of the same second, in arrival order */
  seq: number;
}

/**
 * The arguments of `tickets.store_inbound`, in its parameter order: the batch's contacts (contactsOfBatch),
 * then one entry per message in batch order, with the queue a new ticket would get (queueForNewTicket) and
 * the conversation clock (sentAtOf). The batch travels as arrays, so the call is one prepared statement.
 */
export function storeInboundArgs(
  items: readonly InboundItem[],
  queueIdsOf: (connectionId: number) => readonly number[] | undefined,
  now = Date.now(),
): unknown[] {
  const contacts = contactsOfBatch(items.map((i) => i.data));
  return [
    contacts.map((c) => c.companyId),
    contacts.map((c) => c.number),
    contacts.map((c) => c.name),
    contacts.map((c) => c.isGroup),
    items.map(({ data }) => data.companyId),
    items.map(({ data }) => contactNumberOf(data)),
    items.map(({ data }) => data.connectionId),
    items.map(({ data }) => queueForNewTicket(queueIdsOf(data.connectionId))),
    items.map(({ data }) => data.isGroup),
    items.map(({ data }) => data.waMessageId),
    items.map(({ data }) => data.body ?? ''),
    items.map(({ data }) => data.fromMe),
    items.map(({ data }) => data.mediaType ?? 'chat'),
    items.map(({ data }) => sentAtOf(data, now).toISOString()),
    items.map(({ seq }) => seq),
  ];
}
