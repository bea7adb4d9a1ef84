import type { ConnectionStatus, WhatsappDto } from '../whatsapp/whatsapp.types.js';
import type { MediaType } from '../tickets/tickets.types.js';

/**
 * WhatsApp traffic on the WA stream. The inbound subject carries the conversation
 * (`wa.inbound.<companyId>.<connectionId>.<contact>`), so one conversation is handled in order
 * while many run in parallel; its msg id `<connectionId>:<waMessageId>` makes a replay harmless.
 */
export const WaSubjects = {
  inbound: (companyId: number, connectionId: number, contact: string) => `wa.inbound.${companyId}.${connectionId}.${contact}`,
  inboundMsgId: (connectionId: number, waMessageId: string) => `${connectionId}:${waMessageId}`,
  ack: (companyId: number, connectionId: number, contact: string) => `wa.ack.${companyId}.${connectionId}.${contact}`,
  ackMsgId: (connectionId: number, waMessageId: string, ack: number) => `${connectionId}:${waMessageId}:ack${ack}`,
  /** status changes of a connection's sends reported together (WaAcks): one event for what one receipt brought */
  acks: (companyId: number, connectionId: number) => `wa.ack.${companyId}.${connectionId}.all`,
  /** consumed only by the process that holds the connection's session */
  outbound: (connectionId: number) => `wa.outbound.send.${connectionId}`,
  /** sends paced by the public API's limit: a lane of their own, so a paced queue never holds back an agent's reply */
  outboundPaced: (connectionId: number) => `wa.outbound.send.${connectionId}.paced`,
  outboundMsgId: (waMessageId: string) => `send:${waMessageId}`,
  allInbound: 'wa.inbound.>',
  allAcks: 'wa.ack.>',
} as const;

/**
 * Core NATS subject (no stream) on which the process holding a connection's session takes commands
 * (request/reply); nobody answering means no process runs that session now.
 */
export const sessionCommandSubject = (connectionId: number) => `whatsapp-sessions.cmd.${connectionId}`;

/** The `check` command: is this number on WhatsApp, and under which id (jid)? */
export interface NumberCheckCommand {
  action: 'check';
  number: string;
}

export interface NumberCheckResult {
  exists: boolean;
  /** WhatsApp's own id for the number (may differ from the number asked: the Brazilian 9th digit) */
  jid: string | null;
}

/**
 * The `edit` and `delete` commands: change or revoke (for everyone) a message already on WhatsApp, through
 * the session that holds the connection; answered once WhatsApp took it.
 */
export type MessageChangeCommand =
  | { action: 'edit'; to: string; waMessageId: string; fromMe: boolean; text: string }
  | { action: 'delete'; to: string; waMessageId: string; fromMe: boolean };

/** The `contacts` command: a page of the phone's address book (POST /contacts/import). */
export interface AddressBookCommand {
  action: 'contacts';
  page: number;
  pageSize: number;
}

export interface AddressBookEntry {
  /** digits with the country code */
  number: string;
  name: string;
}

export interface AddressBookPage {
  contacts: AddressBookEntry[];
  hasMore: boolean;
}

/** Most entries one address-book page carries (a NATS reply stays well under 1 MB). */
export const ADDRESS_BOOK_PAGE_MAX = 2000;

/** Conversation key of a WA subject: company, connection and contact. */
export function conversationKey(subject: string): string {
  return subject.split('.').slice(2, 5).join('.');
}

export interface WaInboundMessage {
  companyId: number;
  connectionId: number;
  waMessageId: string;
  /** the contact's number (digits only), or the group id for groups */
  from: string;
  /** the name the contact shows (push name) */
  fromName: string;
  body: string;
  mediaType: MediaType;
  fromMe: boolean;
  isGroup: boolean;
  /** when WhatsApp says it was sent (ms since epoch): keeps a conversation's order */
  timestamp: number;
  quotedWaMessageId?: string | null;
  /** the file of an image, audio, video or document, stored before this event was published */
  media?: WaMedia | null;
  /** why a media message carries no file (ERR_WAPP_DOWNLOAD_MEDIA: WhatsApp would not give it) */
  mediaError?: string | null;
}

/** A media file in the shared media storage (`<companyId>/<folder>/<file name>`). */
export interface WaMedia {
  key: string;
  mimetype: string;
  /** the name shown and offered for download */
  fileName: string;
  size: number;
}

export interface WaAck {
  companyId: number;
  connectionId: number;
  waMessageId: string;
  /** 1 sent, 2 server, 3 delivered, 4 read, 5 played; 0 with `failed`: given up */
  ack: number;
  at: number;
  /** the send was given up after its tries (why): it never reached WhatsApp */
  failed?: string;
}

/**
 * Status changes of a connection's sends that came together (a receipt of WhatsApp's, the sends of one
 * batch), in one event on `WaSubjects.acks`: acks only rise, so their order and a repeat do not matter.
 */
export interface WaAcks {
  companyId: number;
  connectionId: number;
  at: number;
  acks: WaAckEntry[];
}

/** One send's new status in a `WaAcks` event. */
export interface WaAckEntry {
  waMessageId: string;
  ack: number;
}

export interface WaOutboundSend {
  companyId: number;
  connectionId: number;
  /** chosen by tickets when it stored the message, so acks find it and a redelivery is recognised */
  waMessageId: string;
  to: string;
  body: string;
  ticketId: number;
  messageId: number;
  quotedWaMessageId?: string | null;
  /** a file to send with `body` as its caption (documents: their name) */
  media?: (WaMedia & { mediaType: 'image' | 'audio' | 'video' | 'application' }) | null;
  /**
   * Paced (public API): not sent before `notBefore` (ms since the epoch, its slot in the connection's pace),
   * nor sooner than `intervalMs` after the connection's previous paced send.
   */
  pace?: { notBefore: number; intervalMs: number } | null;
}

export const ConnectionSubjects = {
  /** the connection record changed (name, queues, default…) */
  updated: (companyId: number, connectionId: number) => `connection.updated.${companyId}.${connectionId}`,
  deleted: (companyId: number, connectionId: number) => `connection.deleted.${companyId}.${connectionId}`,
  /** the session moved between states */
  session: (companyId: number, connectionId: number) => `connection.session.${companyId}.${connectionId}`,
} as const;

export interface ConnectionChangedEvent {
  companyId: number;
  connection: WhatsappDto;
}

export interface ConnectionDeletedEvent {
  companyId: number;
  connectionId: number;
}

/**
 * Why WhatsApp ended a session: the phone unpaired it (401, or a pairing WhatsApp no longer takes), WhatsApp banned
 * the number (403), or another client took the session (440; the pairing is kept, starting again takes it back).
 */
export type SessionEndReason = 'logged_out' | 'banned' | 'replaced';

export interface ConnectionSessionEvent {
  companyId: number;
  connectionId: number;
  status: ConnectionStatus;
  qrcode: string;
  session: WhatsappDto;
  /** set when WhatsApp ended the session (status DISCONNECTED): a logout, a ban or a takeover; null for any other change */
  reason?: SessionEndReason | null;
}
