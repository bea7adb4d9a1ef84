import type { ConnectionProviderKind } from './whatsapp.types.js';

/*
 * What whatsapp-sessions' routes take (bodies and query strings; the sandbox's inbound messages are in
 * whatsapp.types.ts). Its class-validator DTOs implement these (`implements RequestDto<TheDto, TheRequest>`).
 */

/** The connection form's fields but the name (spec 01 §3, defaults §9); numbers may come as typed ("12"). */
export interface ConnectionSettingsRequest {
  /** the company has exactly one default connection */
  isDefault?: boolean;
  /** required when the connection has more than one queue */
  greetingMessage?: string;
  /** the product's own spelling */
  complationMessage?: string;
  outOfHoursMessage?: string;
  ratingMessage?: string;
  expiresInactiveMessage?: string;
  /** the public messages API's token. Empty or null: the server issues one; one of your own: 32 or more of letters, digits, - and _ */
  token?: string | null;
  expiresTicket?: number;
  timeToTransfer?: number;
  /** null (or an emptied select, "") for none */
  transferQueueId?: number | null;
  timeUseBotQueues?: number;
  maxUseBotQueues?: number;
  /** `beta` (the default) or `stable` */
  provider?: string;
  /** how the session is held (default: the server's DEFAULT_CHANNEL) */
  channel?: ConnectionProviderKind;
  /** null (or "") for none */
  promptId?: number | null;
  queueIds?: number[];
  /** campaign sends a day on this connection (0 or more; 0: no cap) */
  campaignDailyLimit?: number;
  /** a new number's campaign cap ramps up over its first weeks */
  campaignWarmup?: boolean;
  /** 'HH:MM-HH:MM' when campaigns may send, or '' for any hour */
  campaignHours?: string;
}

/** A connection's campaignHours: 'HH:MM-HH:MM' (24 h; the end before the start spans midnight), or '' for any hour. */
export const CAMPAIGN_HOURS_FORMAT = /^(?:(?:[01]\d|2[0-3]):[0-5]\d-(?:[01]\d|2[0-3]):[0-5]\d)?$/;

/** `POST /whatsapp`: a new connection, its name 2 to 50 characters. */
export interface CreateConnectionRequest extends ConnectionSettingsRequest {
  name: string;
}

/** `PUT /whatsapp/{id}`: any part of a connection. */
export interface UpdateConnectionRequest extends ConnectionSettingsRequest {
  name?: string;
}

/** One contact of the sandbox phone's address book. */
export interface SandboxContact {
  /** 8 to 20 digits, with the country code */
  number: string;
  name: string;
}

/** `PUT /whatsappsession/{id}/sandbox/contacts`: the address book the sandbox phone answers from now on. */
export interface SandboxContactsRequest {
  contacts: SandboxContact[];
}

/** `POST /whatsappsession/{id}/sandbox/leave`: a customer of the sandbox phone left WhatsApp. */
export interface SandboxLeaveRequest {
  /** digits with the country code */
  number: string;
}

/**
 * `POST /whatsappsession/{id}/sandbox/disconnect`: WhatsApp closes the sandbox phone's session with `code`, as Baileys'
 * socket closes (its DisconnectReason: 515 restart required, 401 logged out, 403 forbidden, 440 replaced, 500 bad
 * session; any other code, e.g. 408, is a drop).
 */
export interface SandboxDisconnectRequest {
  /** 400 to 599 */
  code: number;
}

/** Longest outage the sandbox phone plays (`POST /whatsappsession/{id}/sandbox/offline`), in seconds. */
export const SANDBOX_OFFLINE_MAX_SECONDS = 600;

/**
 * `POST /whatsappsession/{id}/sandbox/offline`: the sandbox phone loses its network for `seconds`, as a real one does
 * (the session drops and reconnects by the disconnect table); what customers write meanwhile is held and delivered on
 * the reconnect, as WhatsApp delivers a phone's offline backlog.
 */
export interface SandboxOfflineRequest {
  /** 1 to SANDBOX_OFFLINE_MAX_SECONDS */
  seconds: number;
}

/** `GET /whatsappsession/{id}/sandbox/outbox`: a page of what the sandbox phone sent. */
export interface SandboxOutboxQuery {
  pageNumber?: number;
}

/** `POST /internal/api-tokens/resolve` (other services only): whose is this public-API token. */
export interface ResolveApiTokenRequest {
  token: string;
}

/**
 * `POST /whatsappsession/{id}/pairing-code`: the pairing code, an alternative to the QR. The connection must be waiting
 * for a pairing (status qrcode); the admin types the answered code on the phone (WhatsApp > Linked devices > Link with
 * phone number).
 */
export interface PairingCodeRequest {
  /** the phone's number: digits with the country code, 10 to 15 */
  number: string;
}

/** What `POST /whatsappsession/{id}/pairing-code` answers: the code as WhatsApp shows it, `XXXX-XXXX`. */
export interface PairingCodeResponse {
  code: string;
}

/**
 * `PUT /whatsappsession/{id}/sandbox/profile-picture`: the profile picture the sandbox phone answers for a number
 * (none by default); `url` null: the number has none again (or hides it).
 */
export interface SandboxProfilePictureRequest {
  /** digits with the country code */
  number: string;
  url: string | null;
}

/**
 * `POST /whatsappsession/{id}/sandbox/call`: a customer calls the sandbox phone (Baileys' `call` event, status
 * `offer`); answered `{callId}` once the offer is on JetStream.
 */
export interface SandboxCallRequest {
  /** the caller: 8 to 20 digits, or a LID as `<digits>@lid` (WhatsApp hides the number) */
  from: string;
  /** a video call (default: voice) */
  isVideo?: boolean;
}

/** `GET /whatsappsession/{id}/sandbox/calls`: a page of the calls the sandbox phone got, newest first. */
export interface SandboxCallsQuery {
  pageNumber?: number;
}

/** Most contacts, and most messages, one sandbox history sync carries (`POST /whatsappsession/{id}/sandbox/history`). */
export const SANDBOX_HISTORY_MAX = 1000;

/** A contact of the phone's address book as WhatsApp's history sync carries it. */
export interface SandboxHistoryContact {
  /** the number: 8 to 20 digits with the country code */
  number: string;
  name: string;
  /** the contact's LID (its digits), when WhatsApp tells it: the company's LID map learns the pair */
  lid?: string;
}

/** A message of a conversation as WhatsApp's history sync carries it. */
export interface SandboxHistoryMessage {
  /** the customer's number (the conversation) */
  from: string;
  /** the customer's LID (digits): a LID-addressed conversation carrying the number */
  fromLid?: string;
  body: string;
  /** when it was sent, ms since epoch (WhatsApp's clock: whole seconds) */
  timestamp: number;
  /** sent from the phone to `from` */
  fromMe?: boolean;
  /** WhatsApp message id; drawn when absent */
  id?: string;
}

/**
 * `POST /whatsappsession/{id}/sandbox/history`: WhatsApp's history sync reaches the sandbox phone, as Baileys'
 * `messaging-history.set`: its contacts join the address book (a LID given: the company's LID map learns the pair),
 * its messages go on as history (only the recent ones are imported; see HISTORY_IMPORT_HOURS).
 */
export interface SandboxHistoryRequest {
  contacts?: SandboxHistoryContact[];
  messages?: SandboxHistoryMessage[];
}

/** What `POST /whatsappsession/{id}/sandbox/history` answers: the contacts taken and the messages' WhatsApp ids, in order. */
export interface SandboxHistoryResponse {
  contacts: number;
  ids: string[];
}
