import {
  DisconnectReason,
  getContentType,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isJidStatusBroadcast,
  isLidUser,
  isPnUser,
  jidDecode,
  normalizeMessageContent,
  type WAMessage,
  type WAMessageUpdate,
  type proto,
} from '@whiskeysockets/baileys';
import type { ConnectionStatus, MediaType, WaAck, WaInboundMessage } from '@wa/contracts';
import type { ProviderEventMap } from '../provider.js';

/**
 * Pure translations between Baileys' world (jids, `WAMessage`s, `connection.update`, `messages.update`)
 * and ours (contact numbers, WaInboundMessage, WaAck, connection status). Both providers emit Baileys'
 * shapes, so the session runtime runs every message through these functions.
 */

export interface MappingContext {
  companyId: number;
  connectionId: number;
}

/** The user part of a jid without device or agent: `5511999990001:12@s.whatsapp.net` → `5511999990001`. */
export function jidToContact(jid: string): string {
  const decoded = jidDecode(jid);
  if (decoded?.user) return decoded.user;
  const [user = ''] = jid.split('@');
  const [bare = ''] = user.split(':');
  return bare;
}

/**
 * The jid to send to: a full jid is kept; a group id (old `<number>-<time>` or new 18+ digit ids) goes
 * to `@g.us`; anything else is a phone number (digits kept) at `@s.whatsapp.net`.
 */
export function contactToJid(to: string): string {
  const t = to.trim();
  if (t.includes('@')) return t;
  if (t.includes('-') || /^\d{18,}$/.test(t)) return `${t}@g.us`;
  return `${t.replace(/\D/g, '')}@s.whatsapp.net`;
}

/** A token usable inside a NATS subject (no dots, wildcards or blanks). */
export function subjectToken(value: string): string {
  const t = value.replace(/[.*>\s]/g, '_');
  return t.length > 0 ? t : '_';
}

/** Which of our media types a message content is; undefined for what is not a chat message (reactions, protocol, polls…). */
const MEDIA_TYPES: Partial<Record<keyof proto.IMessage, MediaType>> = {
  conversation: 'chat',
  extendedTextMessage: 'chat',
  imageMessage: 'image',
  stickerMessage: 'image',
  videoMessage: 'video',
  ptvMessage: 'video',
  audioMessage: 'audio',
  documentMessage: 'application',
  documentWithCaptionMessage: 'application',
  locationMessage: 'locationMessage',
  liveLocationMessage: 'locationMessage',
  contactMessage: 'vcard',
  contactsArrayMessage: 'contactMessage',
};

function bodyOf(content: proto.IMessage, type: keyof proto.IMessage): string {
  switch (type) {
    case 'conversation':
      return content.conversation ?? '';
    case 'extendedTextMessage':
      return content.extendedTextMessage?.text ?? '';
    case 'imageMessage':
      return content.imageMessage?.caption ?? '';
    case 'videoMessage':
      return content.videoMessage?.caption ?? '';
    case 'ptvMessage':
      return content.ptvMessage?.caption ?? '';
    case 'documentMessage':
      return content.documentMessage?.caption ?? content.documentMessage?.fileName ?? '';
    case 'documentWithCaptionMessage': {
      const doc = content.documentWithCaptionMessage?.message?.documentMessage;
      return doc?.caption ?? doc?.fileName ?? '';
    }
    case 'locationMessage': {
      const l = content.locationMessage;
      return l ? `${l.degreesLatitude ?? 0},${l.degreesLongitude ?? 0}` : '';
    }
    case 'liveLocationMessage': {
      const l = content.liveLocationMessage;
      return l ? `${l.degreesLatitude ?? 0},${l.degreesLongitude ?? 0}` : '';
    }
    case 'contactMessage':
      return content.contactMessage?.vcard ?? content.contactMessage?.displayName ?? '';
    case 'contactsArrayMessage':
      return (content.contactsArrayMessage?.contacts ?? []).map((c) => c.vcard ?? c.displayName ?? '').join('\n');
    default:
      return '';
  }
}

function quotedIdOf(content: proto.IMessage, type: keyof proto.IMessage): string | null {
  const inner = content[type] as { contextInfo?: proto.IContextInfo | null } | null | undefined;
  return (typeof inner === 'object' && inner?.contextInfo?.stanzaId) || null;
}

/** Seconds (number or protobuf Long) to ms; now when absent. */
function timestampMs(ts: WAMessage['messageTimestamp']): number {
  if (ts === null || ts === undefined) return Date.now();
  const seconds = typeof ts === 'number' ? ts : Number(ts.toString());
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : Date.now();
}

/**
 * A Baileys message as our inbound event, or null for what is not a conversation message:
 * status updates (`status@broadcast`), broadcast lists, newsletters, stubs and protocol messages,
 * reactions and other content without a chat meaning.
 * With LID addressing (`…@lid`) the phone number comes from `remoteJidAlt` when WhatsApp gives it.
 */
export function toInboundMessage(msg: WAMessage, ctx: MappingContext): WaInboundMessage | null {
  const key = msg.key;
  const remoteJid = key?.remoteJid;
  const waMessageId = key?.id;
  if (!remoteJid || !waMessageId) return null;
  if (isJidStatusBroadcast(remoteJid) || isJidBroadcast(remoteJid) || isJidNewsletter(remoteJid)) return null;
  if (msg.messageStubType) return null;
  const content = normalizeMessageContent(msg.message);
  if (!content) return null;
  const type = getContentType(content);
  const mediaType = type ? MEDIA_TYPES[type] : undefined;
  if (!type || !mediaType) return null;
  const body = bodyOf(content, type);
  if (mediaType === 'chat' && body.length === 0) return null;

  const isGroup = isJidGroup(remoteJid) === true;
  let contactJid = remoteJid;
  if (!isGroup && isLidUser(remoteJid) && key.remoteJidAlt && isPnUser(key.remoteJidAlt)) contactJid = key.remoteJidAlt;
  return {
    companyId: ctx.companyId,
    connectionId: ctx.connectionId,
    waMessageId,
    from: jidToContact(contactJid),
    fromName: msg.pushName ?? '',
    body,
    mediaType,
    fromMe: key.fromMe === true,
    isGroup,
    timestamp: timestampMs(msg.messageTimestamp),
    quotedWaMessageId: quotedIdOf(content, type),
  };
}

/** Types a received picture, video or voice note is kept as; anything else declared falls back to the first. */
const SAFE_TYPES = {
  image: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
  video: ['video/mp4', 'video/3gpp', 'video/quicktime', 'video/webm'],
  audio: ['audio/ogg', 'audio/mpeg', 'audio/mp4', 'audio/aac', 'audio/amr', 'audio/webm', 'audio/wav'],
} as const;

/** Document types a browser would run (pages, scripts, vector images with scripts): kept as plain bytes. */
const ACTIVE_TYPES = /html|xhtml|svg|javascript|ecmascript|xml-dtd|x-shockwave|x-msdownload/i;

/**
 * The type a received file is kept and served as. The sender declares it and nothing checks the bytes,
 * so pictures, videos and audio keep only a type of their kind, and a document declared as something a
 * browser would run (HTML, SVG, script) is kept as `application/octet-stream`.
 */
export function safeInboundType(kind: 'image' | 'video' | 'audio' | 'document', declared: string): string {
  const type = declared.split(';')[0].trim().toLowerCase();
  if (kind === 'document') return !type || ACTIVE_TYPES.test(type) ? 'application/octet-stream' : type;
  const allowed: readonly string[] = SAFE_TYPES[kind];
  return allowed.includes(type) ? type : allowed[0];
}

/** The file of a received message: its type and (documents) name; null for a message without one. */
export function mediaOf(msg: WAMessage): { mimetype: string; fileName: string | null } | null {
  const content = normalizeMessageContent(msg.message);
  if (!content) return null;
  const doc = content.documentMessage ?? content.documentWithCaptionMessage?.message?.documentMessage;
  const file = content.imageMessage ?? content.stickerMessage ?? content.videoMessage ?? content.ptvMessage ?? content.audioMessage ?? doc;
  if (!file || !(file.url || file.directPath)) return null;
  const kind = content.audioMessage ? 'audio' : content.videoMessage || content.ptvMessage ? 'video' : doc ? 'document' : 'image';
  const declared = file.mimetype ?? (content.stickerMessage ? 'image/webp' : '');
  return { mimetype: safeInboundType(kind, declared), fileName: doc?.fileName ?? null };
}

/** An ack of one of our messages and the contact it belongs to (the subject's conversation). */
export interface AckOf {
  contact: string;
  ack: WaAck;
}

/**
 * `messages.update` as acks: only status changes (1 sent … 5 played) of messages we sent; the status
 * number is the ack (WebMessageInfo.Status: PENDING 1, SERVER_ACK 2, DELIVERY_ACK 3, READ 4, PLAYED 5).
 */
export function toAcks(updates: WAMessageUpdate[], ctx: MappingContext, at: number = Date.now()): AckOf[] {
  const out: AckOf[] = [];
  for (const { key, update } of updates) {
    const status = update?.status;
    if (typeof status !== 'number' || status < 1 || status > 5) continue;
    if (!key?.fromMe || !key.id || !key.remoteJid) continue;
    const contactJid = isLidUser(key.remoteJid) && key.remoteJidAlt && isPnUser(key.remoteJidAlt) ? key.remoteJidAlt : key.remoteJid;
    out.push({
      contact: jidToContact(contactJid),
      ack: { companyId: ctx.companyId, connectionId: ctx.connectionId, waMessageId: key.id, ack: status, at },
    });
  }
  return out;
}

/** What to do after the socket closed. */
export type CloseAction =
  /** unpaired from the phone (or the pairing is unusable): forget the auth state, DISCONNECTED */
  | 'logged-out'
  /** another client opened this session: stop without reconnecting (two holders would fight) */
  | 'replaced'
  /** WhatsApp asks for a new connection at once (after pairing): reconnect, not a failure */
  | 'restart'
  /** the connection dropped: reconnect with back-off, counting retries */
  | 'retry';

export function closeAction(lastDisconnect: ProviderEventMap['connection.update']['lastDisconnect']): CloseAction {
  const error = lastDisconnect?.error as { output?: { statusCode?: number } } | undefined;
  const code = error?.output?.statusCode;
  switch (code) {
    case DisconnectReason.loggedOut:
    case DisconnectReason.forbidden:
    case DisconnectReason.badSession:
    case DisconnectReason.multideviceMismatch:
      return 'logged-out';
    case DisconnectReason.connectionReplaced:
      return 'replaced';
    case DisconnectReason.restartRequired:
      return 'restart';
    default:
      return 'retry';
  }
}

/** What a `connection.update` means for the connection's status. */
export type ConnectionIntent =
  | { kind: 'status'; status: ConnectionStatus; qrcode: string; number?: string }
  | { kind: 'close'; action: CloseAction }
  | { kind: 'none' };

/**
 * `qr` → qrcode (with the QR string to show), `isNewLogin` → PAIRING (the QR was scanned),
 * `open` → CONNECTED (with the phone's number), `close` → what to do; `connecting` changes nothing
 * (the runner shows OPENING when it starts a session and TIMEOUT while it reconnects).
 */
export function connectionIntent(update: ProviderEventMap['connection.update']): ConnectionIntent {
  if (update.connection === 'close') return { kind: 'close', action: closeAction(update.lastDisconnect) };
  if (update.connection === 'open') {
    return { kind: 'status', status: 'CONNECTED', qrcode: '', number: update.me?.id ? jidToContact(update.me.id) : undefined };
  }
  if (update.qr) return { kind: 'status', status: 'qrcode', qrcode: update.qr };
  if (update.isNewLogin) return { kind: 'status', status: 'PAIRING', qrcode: '' };
  return { kind: 'none' };
}
