import { shownNumber } from '@wa/domain';
import { isMediaKey } from '@wa/server-kit';
import type { MessageDto, TicketDto } from '@wa/contracts';
import type { MessageEntity } from '../../database/entities/index.js';

/** One row of the ticket query (the ticket with its contact, queue and connection). */
export interface TicketRow {
  id: number;
  uuid: string;
  companyId: number;
  status: TicketDto['status'];
  contactId: number;
  whatsappId: number;
  queueId: number | null;
  userId: number | null;
  lastMessage: string;
  unreadMessages: number;
  isGroup: boolean;
  chatbot: boolean;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** exact updatedAt (microseconds) for keyset paging */
  sortKey: string;
  contactName: string;
  contactNumber: string;
  contactPic: string;
  queueName: string | null;
  queueColor: string | null;
  whatsappName: string | null;
  /** the ticket's tags, by name (every read of a ticket carries them, so every event does too) */
  tags?: Array<{ id: number; name: string; color: string }>;
}

export function ticketView(row: TicketRow, userName: (id: number) => string): TicketDto {
  return {
    id: row.id,
    uuid: row.uuid,
    companyId: row.companyId,
    status: row.status,
    userId: row.userId,
    user: row.userId ? { id: row.userId, name: userName(row.userId) } : null,
    queueId: row.queueId,
    queue: row.queueId && row.queueName !== null ? { id: row.queueId, name: row.queueName, color: row.queueColor ?? '' } : null,
    whatsappId: row.whatsappId,
    whatsapp: { id: row.whatsappId, name: row.whatsappName ?? '' },
    contactId: row.contactId,
    contact: { id: row.contactId, name: row.contactName, number: shownNumber(row.contactNumber), profilePicUrl: row.contactPic },
    tags: row.tags ?? [],
    lastMessage: row.lastMessage,
    unreadMessages: row.unreadMessages,
    isGroup: row.isGroup,
    chatbot: row.chatbot,
    useIntegration: row.useIntegration,
    promptId: row.promptId,
    integrationId: row.integrationId,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

/** Where the API serves a stored file (`GET /media/<key>`, signed-in users of its company only). */
export function mediaUrlOf(key: string | null): string | null {
  if (!key) return null;
  return isMediaKey(key) ? `/media/${key}` : key;
}

/**
 * The message another answers (its quotedMsgId), with its contact (for our own messages: the ticket's), as
 * quotedMessages reads it: what the view shows as `quotedMsg`.
 */
export interface QuotedMessage {
  message: MessageEntity;
  contact: { id: number; name: string; number: string } | null;
}

/** A stored message as its view takes it: with the message it answers, when it answers one (withQuotes reads them). */
export type MessageRead = MessageEntity & { quoted?: QuotedMessage | null };

/**
 * A message as it leaves the service (an answer, a page, an event): `quotedMsg` is the message it answers with
 * its contact (as the original client reads it: body, fromMe, mediaType, contact.name…), null when it answers
 * none or the one it answers is not read.
 */
export function messageView(m: MessageRead): MessageDto {
  return {
    id: Number(m.id),
    wid: m.wid,
    ticketId: m.ticketId,
    companyId: m.companyId,
    contactId: m.contactId,
    body: m.body,
    fromMe: m.fromMe,
    mediaType: m.mediaType,
    mediaUrl: mediaUrlOf(m.mediaUrl),
    quotedMsgId: m.quotedMsgId === null ? null : Number(m.quotedMsgId),
    quotedMsg: m.quotedMsgId !== null && m.quoted ? { ...messageView(m.quoted.message), contact: m.quoted.contact } : null,
    ack: m.ack,
    failedReason: m.failedReason ?? null,
    read: m.read,
    isDeleted: m.isDeleted,
    isEdited: m.isEdited ?? false,
    isBot: m.isBot ?? false,
    // a voice note, a location, contact cards, reactions: only when the message has them (older clients see the rest)
    ...(m.contents?.voice ? { voice: true } : {}),
    ...(m.contents?.location ? { location: m.contents.location } : {}),
    ...(m.contents?.contacts ? { contacts: m.contents.contacts } : {}),
    // once reacted to, the list is always there (empty when taken away): clients merge a changed message into theirs
    ...(m.contents?.reactions ? { reactions: m.contents.reactions } : {}),
    createdAt: new Date(m.sentAt).toISOString(),
    updatedAt: new Date(m.updatedAt).toISOString(),
  };
}

/** Opaque list cursor: the last row's sort key. */
export function encodeCursor(parts: Array<string | number>): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): Array<string | number> | undefined {
  if (!cursor) return undefined;
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    return Array.isArray(parts) ? parts : undefined;
  } catch {
    return undefined;
  }
}
