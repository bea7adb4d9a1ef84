import type { ConnectionStatus, SessionEndReason, WhatsappDto } from '../whatsapp/whatsapp.types.js';
import type { MediaType, MessageContactCard, MessageLocation } from '../tickets/tickets.types.js';

/**
 * WhatsApp traffic on the WA stream. The inbound subject carries the conversation
 * (`wa.inbound.<companyId>.<connectionId>.<contact>`), so one conversation is handled in order
 * while many run in parallel; its msg id `<connectionId>:<waMessageId>` makes a replay harmless.
 */
export const WaSubjects = {
  inbound: (companyId: number, connectionId: number, contact: string) => `wa.inbound.${companyId}.${connectionId}.${contact}`,
  inboundMsgId: (connectionId: number, waMessageId: string) => `${connectionId}:${waMessageId}`,
  /**
   * Several received messages of one connection published together (WaInboundBatch: what one turn of its session
   * received), on `wa.inbound.<companyId>.<connectionId>.batch` (no contact's token is `batch`: numbers, groups and
   * LIDs are digits): one stream message for a backlog or a burst instead of one per message. Its consumers take a
   * connection's inbound in stream order (one lane per connection: `inboundLaneKey`), so its messages keep their place
   * among the connection's single ones.
   */
  inboundBatch: (companyId: number, connectionId: number) => `wa.inbound.${companyId}.${connectionId}.batch`,
  /** a batch's msg id: its messages' own msg ids, digested (the same messages published again are a repeat) */
  inboundBatchMsgId: (connectionId: number, digest: string) => `${connectionId}:batch:${digest}`,
  /**
   * The msg id of a phone's resend of a message published undecryptable (`resend: 'replaces'`): the waiting
   * message took `inboundMsgId`, so the resend needs its own, or the bus would drop it as a repeat
   */
  resentMsgId: (connectionId: number, waMessageId: string) => `${connectionId}:${waMessageId}:resent`,
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
  /** a call offered to a connection's phone (WaCall), by caller: `wa.call.<companyId>.<connectionId>.<caller>` */
  call: (companyId: number, connectionId: number, caller: string) => `wa.call.${companyId}.${connectionId}.${caller}`,
  /** one event per call, however often WhatsApp tells of its offer */
  callMsgId: (connectionId: number, callId: string) => `${connectionId}:call:${callId}`,
  allCalls: 'wa.call.>',
  /** WhatsApp told a connection of the company which phone number a LID stands for (WaLidMapped) */
  lidMapped: (companyId: number) => `wa.lid.${companyId}`,
  allLidMapped: 'wa.lid.>',
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

/**
 * The `profilePicture` command: the URL of a contact's profile picture as WhatsApp answers it for the session's phone
 * (a link to WhatsApp's CDN that expires after a while), or null when the contact has none or hides it.
 */
export interface ProfilePictureCommand {
  action: 'profilePicture';
  /** the contact's number (digits with the country code), a group's id, or `<lid>@lid` */
  to: string;
}

export interface ProfilePictureResult {
  url: string | null;
}

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

/**
 * The lane of a `wa.inbound.*` message: its connection (company and connection), whether it carries one message
 * (`wa.inbound.<companyId>.<connectionId>.<contact>`) or a batch (`wa.inbound.<companyId>.<connectionId>.batch`), so
 * a conversation's messages are taken in the order the connection published them, in batches or one by one.
 */
export function inboundLaneKey(subject: string): string {
  return subject.split('.').slice(2, 4).join('.');
}

/** Received messages of one connection published together on `WaSubjects.inboundBatch`, in the order received. */
export interface WaInboundBatch {
  companyId: number;
  connectionId: number;
  messages: WaInboundMessage[];
}

/** The messages a `wa.inbound.*` event carries: itself, or a batch's (an event of neither shape carries none). */
export function inboundMessagesOf(data: WaInboundMessage | WaInboundBatch | null | undefined): WaInboundMessage[] {
  if (!data || typeof data !== 'object') return [];
  if ('messages' in data) return Array.isArray(data.messages) ? data.messages.filter((m) => !!m && typeof m === 'object') : [];
  return [data];
}

export interface WaInboundMessage {
  companyId: number;
  connectionId: number;
  waMessageId: string;
  /**
   * the contact's number (digits only), or the group id for groups; `<lid>@lid` for a customer WhatsApp names only
   * by a LID (linked identity) whose number is not known yet (never the LID's digits alone: they are no number)
   */
  from: string;
  /** the LID WhatsApp addressed the customer by (digits), when it is known which number it stands for (`from`) */
  fromLid?: string;
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
  /**
   * An undecryptable message and its resend. `waiting`: WhatsApp delivered a message the session could not decrypt
   * (mediaType 'ciphertext', empty body), the phone is asked to send it again; `replaces`: the phone's resend, the
   * content of the waiting message of the same waMessageId, which it replaces (published under `resentMsgId`).
   * Absent for any other message.
   */
  resend?: InboundResend | null;
  /**
   * A message of WhatsApp's history sync (Baileys' `messaging-history.set`: what the phone hands a newly linked session),
   * recent enough to import (whatsapp-sessions' HISTORY_IMPORT_HOURS), published with its own timestamp and without
   * its file. Tickets stores it only into its conversation's ticket that is not closed, read, without the bot; it opens
   * no ticket and makes no contact. Absent for a message received live.
   */
  history?: boolean;
  /** an audio recorded as a voice note (Baileys' `audioMessage.ptt`) */
  voice?: boolean;
  /** a location or live location (mediaType 'locationMessage') */
  location?: MessageLocation | null;
  /** the cards of a contact message (mediaType 'vcard' or 'contactMessage') */
  contacts?: MessageContactCard[] | null;
  /**
   * a reaction (Baileys' `reactionMessage`), no message of its own: `emoji` on the message `waMessageId` of this chat;
   * an empty emoji takes the sender's reaction away. `body` is the emoji, mediaType 'chat'.
   */
  reaction?: { waMessageId: string; emoji: string } | null;
}

/** See WaInboundMessage.resend. */
export type InboundResend = 'waiting' | 'replaces';

/** A media file in the shared media storage (`<companyId>/<folder>/<file name>`). */
export interface WaMedia {
  key: string;
  mimetype: string;
  /** the name shown and offered for download */
  fileName: string;
  size: number;
}

/**
 * On `wa.lid.<companyId>`: WhatsApp told one of the company's connections that the LID (linked identity, digits)
 * stands for the phone number `pn`; announced once per new or changed pair. Tickets makes the LID's contact and
 * the number's contact one.
 */
export interface WaLidMapped {
  companyId: number;
  lid: string;
  pn: string;
  at: number;
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
  /** a file to send with `body` as its caption (documents: their name); `voice`: an OGG/Opus audio sent as a voice note (ptt) */
  media?: (WaMedia & { mediaType: 'image' | 'audio' | 'video' | 'application'; voice?: boolean }) | null;
  /** a place to send (instead of a text) */
  location?: MessageLocation | null;
  /** a contact card to send (instead of a text) */
  contact?: { name: string; number: string } | null;
  /** a reaction to send: `emoji` on the chat's message `waMessageId` (`fromMe`: one this phone sent); '' removes ours */
  reaction?: { waMessageId: string; fromMe: boolean; emoji: string } | null;
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

export interface ConnectionSessionEvent {
  companyId: number;
  connectionId: number;
  status: ConnectionStatus;
  qrcode: string;
  session: WhatsappDto;
  /** set when WhatsApp ended the session (status DISCONNECTED): a logout, a ban or a takeover; null for any other change */
  reason?: SessionEndReason | null;
}

/**
 * On `WaSubjects.call`: a customer calls the connection's phone (Baileys' `call` event of status `offer`, once per
 * call). tickets answers it by the company's `call` setting: when disabled, it has the call rejected (`rejectCall`).
 */
export interface WaCall {
  companyId: number;
  connectionId: number;
  /** WhatsApp's id of the call */
  callId: string;
  /** the caller: their number (digits with the country code), or `<lid>@lid` when WhatsApp hides it */
  from: string;
  isVideo: boolean;
  /** a group call (`from` is the member calling) */
  isGroup: boolean;
  /** when WhatsApp says the call was offered (ms since epoch) */
  at: number;
}

/**
 * The `rejectCall` command: the session's phone rejects a call still ringing (Baileys' `rejectCall`), as a user
 * declining it; answered `{ok: true}` once WhatsApp took it.
 */
export interface CallRejectCommand {
  action: 'rejectCall';
  callId: string;
  /** the caller, as WaCall.from names them */
  from: string;
}
