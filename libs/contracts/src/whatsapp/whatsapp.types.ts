/**
 * Why WhatsApp ended a session: the phone unpaired it (401, or a pairing WhatsApp no longer takes), WhatsApp banned
 * the number (403), or another client took the session (440; the pairing is kept, starting again takes it back).
 */
export type SessionEndReason = 'logged_out' | 'banned' | 'replaced';

/** Connection states (spec 01 §4 "Connection status"). */
export type ConnectionStatus = 'OPENING' | 'qrcode' | 'PAIRING' | 'CONNECTED' | 'DISCONNECTED' | 'TIMEOUT';

/** Which implementation holds the session: the real WhatsApp Web client or the stand-in phone. */
export type ConnectionProviderKind = 'baileys' | 'sandbox';

/** A connection (`/whatsapp` record), spec 01 §3. */
export interface WhatsappDto {
  id: number;
  companyId: number;
  name: string;
  status: ConnectionStatus;
  qrcode: string;
  retries: number;
  isDefault: boolean;
  token: string | null;
  greetingMessage: string;
  /** the product's own spelling */
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  expiresTicket: number;
  timeToTransfer: number;
  transferQueueId: number | null;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  /** spec's form field: `beta` (the default) or `stable` */
  provider: string;
  /** how the session is held */
  channel: ConnectionProviderKind;
  promptId: number | null;
  number: string | null;
  queues: Array<{ id: number; name?: string; color?: string }>;
  queueIds: number[];
  /** campaign sends a day on this connection; 0: no cap (CampaignPaceFields) */
  campaignDailyLimit: number;
  /** a new number's campaign cap ramps up over its first weeks */
  campaignWarmup: boolean;
  /** 'HH:MM-HH:MM' when campaigns may send, or '' for any hour */
  campaignHours: string;
  /** why WhatsApp ended the session (a ban, a logout, another client took it), until it is back; null otherwise */
  endReason?: SessionEndReason | null;
  updatedAt: string;
  createdAt: string;
}

/** What the sandbox phone sent (GET /whatsappsession/{id}/sandbox/outbox). */
export interface SandboxOutboxItem {
  waMessageId: string;
  to: string;
  body: string;
  ack: number;
  sentAt: string;
  /** a message sent, an edit of one (body: the new text) or its deletion for everyone */
  kind: 'send' | 'edit' | 'delete';
  /** the file that went with it: what the customer's phone received (`ptt`: sent as a voice note) */
  media: { mimetype: string; fileName: string; size: number; sha256: string; ptt?: boolean } | null;
  /** a place sent */
  location?: { latitude: number; longitude: number; name?: string | null; address?: string | null } | null;
  /** a contact card sent: its name and the vCard the phone received */
  contact?: { name: string; vcard: string } | null;
  /** a reaction sent: the emoji ('' removes) on the message of that id */
  reaction?: { waMessageId: string; emoji: string } | null;
}

export interface SandboxInboundRequest {
  /** the customer's phone number; omitted for a bare-LID message (`fromLid` alone: WhatsApp hides the number) */
  from?: string;
  /**
   * WhatsApp addressed the message by the customer's LID (its digits): with `from`, a LID-addressed message carrying
   * the phone number (Baileys' `remoteJidAlt`); without `from`, a bare LID
   */
  fromLid?: string;
  name?: string;
  body: string;
  /** WhatsApp message id; give the same one again to replay a message */
  id?: string;
  /** a group message: the group's id (its jid's digits, before @g.us); `from` is the member who wrote it */
  groupId?: string;
  /** a photo, audio, video or document, as a phone sends it (`body` is its caption) */
  media?: SandboxInboundMedia;
  /** with an audio `media`: recorded as a voice note (ptt) */
  voice?: boolean;
  /** a location the customer shares (instead of a text; `body` unused) */
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  /** contact cards the customer shares, as vCard texts (instead of a text; `body` unused) */
  vcards?: string[];
  /** a reaction: `emoji` on the message `waMessageId` of the chat ('' removes it; `body` unused) */
  reaction?: { waMessageId: string; emoji: string };
  /**
   * what Baileys emits for a message it could not decrypt (a CIPHERTEXT stub: no content, `body` unused); a later
   * inbound with the same `id` and a body is the phone's resend, replacing it
   */
  undecryptable?: boolean;
}

/**
 * The file of a sandbox message: the HTTP form's file (multipart `media`), checked and put where WhatsApp
 * would keep it (the media storage, under the message's inbound key) by the process that took the call.
 */
export interface SandboxInboundMedia {
  key: string;
  mimetype: string;
  fileName: string;
  size: number;
}

/** WhatsApp tells the sandbox phone which number a LID stands for (POST /whatsappsession/{id}/sandbox/lid-mapping). */
export interface SandboxLidMappingRequest {
  /** the LID's digits */
  lid: string;
  /** the phone number's digits */
  pn: string;
}

/** Most messages one sandbox delivery may carry (POST /whatsappsession/{id}/sandbox/inbound/batch). */
export const SANDBOX_INBOUND_BATCH_MAX = 500;

/** Several messages reaching the sandbox phone at once, as one Baileys `messages.upsert` (an offline backlog). */
export interface SandboxInboundBatchRequest {
  messages: SandboxInboundRequest[];
}

/** Whose a connection's API token is: whatsapp-sessions' answer on its internal route (tickets asks it). */
export interface ApiTokenOwner {
  connectionId: number;
  companyId: number;
  status: ConnectionStatus;
}

/** A call the sandbox phone got (GET /whatsappsession/{id}/sandbox/calls): still ringing, or rejected by the session. */
export interface SandboxCallItem {
  callId: string;
  /** the caller: digits, or `<lid>@lid` */
  from: string;
  isVideo: boolean;
  state: 'ringing' | 'rejected';
  offeredAt: string;
  rejectedAt: string | null;
}
