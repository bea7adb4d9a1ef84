import {
  getContentType,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isJidStatusBroadcast,
  isLidUser,
  isPnUser,
  jidDecode,
  normalizeMessageContent,
  WAMessageStubType,
  type BaileysEventMap,
  type ConnectionState,
  type WACallEvent,
  type WAMessage,
  type WAMessageUpdate,
  type proto,
} from '@whiskeysockets/baileys';
import type { ChatPresence, MediaType, MessageContactCard, MessageLocation, WaAck, WaInboundMessage } from '@wa/contracts';
import { lidAddress, LID_DIGITS } from '@wa/domain';
import type { ChatAddress } from '../chat-address.js';
import type { ConnectionChange, IncomingCall } from '../provider.js';
import { safeInboundType } from '../received-file-type.js';

/**
 * Pure translations between Baileys' world (jids, `WAMessage`s, `connection.update`, `messages.update`)
 * and ours (contact numbers and ChatAddress, WaInboundMessage, WaAck, ConnectionChange): the Baileys provider
 * runs everything its socket says through these, so no jid leaves it.
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

/** The jid WhatsApp knows an address by: a phone number at `@s.whatsapp.net`, a group at `@g.us`, a LID at `@lid`. */
export function jidOf(to: ChatAddress): string {
  switch (to.kind) {
    case 'group':
      return `${to.id}@g.us`;
    case 'lid':
      return `${to.id}@lid`;
    default:
      return `${to.id}@s.whatsapp.net`;
  }
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
  if (msg.messageStubType === WAMessageStubType.CIPHERTEXT) return undecryptable(msg, ctx);
  if (msg.messageStubType) return null;
  const content = normalizeMessageContent(msg.message);
  if (!content) return null;
  const type = getContentType(content);
  const isGroup = isJidGroup(remoteJid) === true;
  const who = isGroup ? { from: jidToContact(remoteJid) } : customerOf(remoteJid, key.remoteJidAlt);
  // a reaction: no message of its own, an emoji on one of the chat ('' takes it away)
  if (type === 'reactionMessage') {
    const r = content.reactionMessage;
    const target = r?.key?.id;
    if (!target) return null;
    const emoji = r?.text ?? '';
    return {
      companyId: ctx.companyId,
      connectionId: ctx.connectionId,
      waMessageId,
      ...who,
      fromName: msg.pushName ?? '',
      body: emoji,
      mediaType: 'chat',
      fromMe: key.fromMe === true,
      isGroup,
      timestamp: timestampMs(msg.messageTimestamp),
      quotedWaMessageId: null,
      reaction: { waMessageId: target, emoji },
    };
  }
  const mediaType = type ? MEDIA_TYPES[type] : undefined;
  if (!type || !mediaType) return null;
  const body = bodyOf(content, type);
  if (mediaType === 'chat' && body.length === 0) return null;

  return {
    companyId: ctx.companyId,
    connectionId: ctx.connectionId,
    waMessageId,
    ...who,
    fromName: msg.pushName ?? '',
    body,
    mediaType,
    fromMe: key.fromMe === true,
    isGroup,
    timestamp: timestampMs(msg.messageTimestamp),
    quotedWaMessageId: quotedIdOf(content, type),
    ...contentsOf(content, type),
  };
}

/** What a message carries besides its text: a voice note (`audioMessage.ptt`), a place, contact cards. */
function contentsOf(content: proto.IMessage, type: keyof proto.IMessage): Pick<WaInboundMessage, 'voice' | 'location' | 'contacts'> {
  switch (type) {
    case 'audioMessage':
      return content.audioMessage?.ptt ? { voice: true } : {};
    case 'locationMessage':
    case 'liveLocationMessage': {
      const l = content[type] as proto.Message.ILocationMessage | proto.Message.ILiveLocationMessage | null | undefined;
      const latitude = Number(l?.degreesLatitude ?? NaN);
      const longitude = Number(l?.degreesLongitude ?? NaN);
      if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return {};
      const named = l as proto.Message.ILocationMessage;
      const location: MessageLocation = { latitude, longitude, name: named?.name || null, address: named?.address || null };
      return { location };
    }
    case 'contactMessage': {
      const c = content.contactMessage;
      return { contacts: [contactCardOf(c?.vcard ?? '', c?.displayName)] };
    }
    case 'contactsArrayMessage':
      return { contacts: (content.contactsArrayMessage?.contacts ?? []).map((c) => contactCardOf(c.vcard ?? '', c.displayName)) };
    default:
      return {};
  }
}

/**
 * A vCard as the chat shows it: its name (FN, else N, else the name WhatsApp gave) and phone numbers (WhatsApp's
 * `waid` when the TEL carries one, else the TEL's digits).
 */
export function contactCardOf(vcard: string, displayName?: string | null): MessageContactCard {
  // folded lines (RFC 6350: a line starting with a space continues the one before) unfolded first
  const lines = vcard.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  const value = (line: string) => line.slice(line.indexOf(':') + 1).trim();
  const fn = lines.find((l) => /^(item\d+\.)?FN[;:]/i.test(l));
  const n = lines.find((l) => /^(item\d+\.)?N[;:]/i.test(l));
  const name = (fn && value(fn)) || (n && value(n).split(';').filter(Boolean).reverse().join(' ')) || displayName || '';
  const numbers: string[] = [];
  for (const l of lines) {
    if (!/^(item\d+\.)?TEL[;:]/i.test(l)) continue;
    const waid = /waid=(\d+)/i.exec(l)?.[1];
    const digits = waid ?? value(l).replace(/\D/g, '');
    if (digits && !numbers.includes(digits)) numbers.push(digits);
  }
  return { name: name.slice(0, 200), numbers: numbers.slice(0, 20) };
}

/**
 * Who a one-to-one chat is with, in our ids: the phone number when WhatsApp gives it (the chat's jid, or a
 * LID-addressed chat's `remoteJidAlt`), with the LID when it gives that too (then the company's LID map learns the
 * pair); a bare LID as its address `<lid>@lid` — never its digits alone, which are no phone number.
 */
export function customerOf(jid: string, alt: string | null | undefined): { from: string; fromLid?: string } {
  if (isLidUser(jid)) {
    const lid = jidToContact(jid);
    return alt && isPnUser(alt) ? { from: jidToContact(alt), fromLid: lid } : { from: lidAddress(lid) };
  }
  if (alt && isLidUser(alt) && isPnUser(jid)) return { from: jidToContact(jid), fromLid: jidToContact(alt) };
  return { from: jidToContact(jid) };
}

/** A LID and the phone number it stands for, as digits, when both jids are what they say; null otherwise. */
export function lidPair(lid: string | null | undefined, pn: string | null | undefined): { lid: string; pn: string } | null {
  if (!lid || !pn || !isLidUser(lid) || !isPnUser(pn)) return null;
  const pair = { lid: jidToContact(lid), pn: jidToContact(pn) };
  return LID_DIGITS.test(pair.lid) && /^\d{8,20}$/.test(pair.pn) ? pair : null;
}

/**
 * The LID ↔ number pairs WhatsApp's events carry besides `lid-mapping.update` itself: a message's chat and its
 * `remoteJidAlt`, a group member's `participant` and `participantAlt` (either way round), a contact's id, `lid` and
 * `phoneNumber`.
 */
export function lidPairsOf(
  messages: ReadonlyArray<Pick<WAMessage, 'key'>>,
  contacts: ReadonlyArray<{ id?: string | null; lid?: string | null; phoneNumber?: string | null }> = [],
): Array<{ lid: string; pn: string }> {
  const pairs = new Map<string, string>();
  const add = (a: string | null | undefined, b: string | null | undefined) => {
    const pair = lidPair(a, b) ?? lidPair(b, a);
    if (pair) pairs.set(pair.lid, pair.pn);
  };
  for (const { key } of messages) {
    if (!key) continue;
    add(key.remoteJid, key.remoteJidAlt);
    add(key.participant, key.participantAlt);
  }
  for (const c of contacts) {
    add(c.id, c.phoneNumber);
    add(c.lid, c.phoneNumber);
    add(c.lid, c.id);
  }
  return [...pairs].map(([lid, pn]) => ({ lid, pn }));
}

/**
 * A CIPHERTEXT stub: a message Baileys could not decrypt (no content; `messageStubParameters` says why). Baileys
 * itself sends the sender a retry receipt and asks our phone to resend it (a placeholder resend); when the content
 * comes, it is a later upsert with the same key. Until then the conversation shows it waiting (`resend: 'waiting'`,
 * mediaType 'ciphertext', empty body), under the same id, so the resend replaces it. Addressed as any message.
 */
function undecryptable(msg: WAMessage, ctx: MappingContext): WaInboundMessage {
  const key = msg.key;
  const remoteJid = key.remoteJid as string;
  const isGroup = isJidGroup(remoteJid) === true;
  const who = isGroup ? { from: jidToContact(remoteJid) } : customerOf(remoteJid, key.remoteJidAlt);
  return {
    companyId: ctx.companyId,
    connectionId: ctx.connectionId,
    waMessageId: key.id as string,
    ...who,
    fromName: msg.pushName ?? '',
    body: '',
    mediaType: 'ciphertext',
    fromMe: key.fromMe === true,
    isGroup,
    timestamp: timestampMs(msg.messageTimestamp),
    quotedWaMessageId: null,
    resend: 'waiting',
  };
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

/** What Baileys' `connection.update` carries, with the phone's own jid once open (`me`, from the socket's user). */
export type BaileysConnectionUpdate = Partial<ConnectionState> & { me?: { id: string; name?: string } };

/**
 * WhatsApp's close code: the status code of the Boom Baileys closes with (`lastDisconnect.error.output.statusCode`,
 * one of its DisconnectReason values, or a stream error's own code); undefined for a close without one.
 * What each code leads to is the disconnect table's (reconnect-backoff.ts, decideClose).
 */
export function closeCode(lastDisconnect: BaileysConnectionUpdate['lastDisconnect']): number | undefined {
  const error = lastDisconnect?.error as { output?: { statusCode?: unknown } } | undefined;
  const code = error?.output?.statusCode;
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
}

/** What a `connection.update` means for the connection: a change, or nothing to tell. */
export type ConnectionIntent = ConnectionChange | { kind: 'none' };

/**
 * `qr` → qrcode (with the QR string to show), `isNewLogin` → PAIRING (the QR was scanned),
 * `open` → CONNECTED (with the phone's number), `close` → its close code; `connecting` changes nothing
 * (the runner shows OPENING when it starts a session and TIMEOUT while it reconnects).
 */
export function connectionIntent(update: BaileysConnectionUpdate): ConnectionIntent {
  if (update.connection === 'close') {
    const code = closeCode(update.lastDisconnect);
    return code === undefined ? { kind: 'close' } : { kind: 'close', code };
  }
  if (update.connection === 'open') {
    return { kind: 'status', status: 'CONNECTED', qrcode: '', number: update.me?.id ? jidToContact(update.me.id) : undefined };
  }
  if (update.qr) return { kind: 'status', status: 'qrcode', qrcode: update.qr };
  if (update.isNewLogin) return { kind: 'status', status: 'PAIRING', qrcode: '' };
  return { kind: 'none' };
}

/**
 * Baileys' `presence.update` as customers' presences we tell of: a one-to-one chat's (groups' are left out: a
 * group ticket has many people typing), typing (`composing`), recording a voice note (`recording`), or neither any
 * more (`paused`, and `available`/`unavailable`, which end whatever they were doing); the customer as a message's
 * sender is named (the number, or `<lid>@lid` for a bare LID). Empty for anything else.
 */
export function toPresences(update: BaileysPresenceUpdate): Array<{ from: string; state: ChatPresence }> {
  if (!update.id || !(isPnUser(update.id) || isLidUser(update.id))) return [];
  return Object.entries(update.presences ?? {}).flatMap(([participant, data]) => {
    const jid = participant || update.id;
    if (!(isPnUser(jid) || isLidUser(jid))) return [];
    const last = data?.lastKnownPresence;
    const state: ChatPresence = last === 'composing' || last === 'recording' ? last : 'paused';
    return [{ from: customerOf(jid, undefined).from, state }];
  });
}

/** Baileys' `presence.update` payload. */
export type BaileysPresenceUpdate = BaileysEventMap['presence.update'];

/**
 * Baileys' `call` event as a call we tell of: only its offer (the phone starts ringing; `ringing`, `accept`, `reject`,
 * `timeout` and `terminate` follow it and tell nothing new), the caller by their number when WhatsApp gives it (the
 * caller's phone jid, or `callerPn` beside a LID), else by their LID as `<lid>@lid`. Null for anything else.
 */
export function toIncomingCall(call: WACallEvent): IncomingCall | null {
  if (call.status !== 'offer' || !call.id || !call.from) return null;
  const pn = isPnUser(call.from) ? call.from : call.callerPn && isPnUser(call.callerPn) ? call.callerPn : undefined;
  const bareDigits = call.callerPn && /^\d{8,15}$/.test(call.callerPn) ? call.callerPn : undefined;
  const from = pn ? jidToContact(pn) : (bareDigits ?? (isLidUser(call.from) ? `${jidToContact(call.from)}@lid` : jidToContact(call.from)));
  const at = call.date instanceof Date ? call.date.getTime() : Number.NaN;
  return { id: call.id, from, isVideo: call.isVideo === true, isGroup: call.isGroup === true, at: at > 0 ? at : Date.now() };
}
