import type { ConnectionState, MessageUpsertType, WAMessage, WAMessageKey, WAMessageUpdate } from '@whiskeysockets/baileys';
import type { Readable } from 'node:stream';
import type { AddressBookEntry, ConnectionProviderKind, NumberCheckResult, SandboxInboundRequest } from '@wa/contracts';

/**
 * What a provider reports, in Baileys' own vocabulary (its socket's `ev` events), so the Baileys
 * provider forwards its socket's events as they are and the sandbox speaks the same language.
 */
export interface ProviderEventMap {
  /** `connection: connecting | open | close`, a new `qr`, `isNewLogin` (QR scanned), `lastDisconnect` */
  'connection.update': Partial<ConnectionState> & { me?: { id: string; name?: string } };
  /** messages received (or sent from the phone itself): Baileys `WAMessage`s */
  'messages.upsert': { messages: WAMessage[]; type: MessageUpsertType };
  /** status changes of messages: `update.status` 1 pending/sent, 2 server, 3 delivered, 4 read, 5 played */
  'messages.update': WAMessageUpdate[];
}

export type ProviderEvent = keyof ProviderEventMap;
type Listener<K extends ProviderEvent> = (payload: ProviderEventMap[K]) => unknown;

/**
 * Baileys' `ev` with one difference: `emit` resolves when every listener has finished, so a caller
 * that must know an event was handled (the sandbox answering an injected message only after it
 * reached JetStream) can wait for it. The Baileys provider does not wait.
 */
export class ProviderEvents {
  private readonly listeners = new Map<ProviderEvent, Set<Listener<any>>>();

  on<K extends ProviderEvent>(event: K, listener: Listener<K>): void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
  }

  off<K extends ProviderEvent>(event: K, listener: Listener<K>): void {
    this.listeners.get(event)?.delete(listener);
  }

  removeAllListeners(): void {
    this.listeners.clear();
  }

  async emit<K extends ProviderEvent>(event: K, payload: ProviderEventMap[K]): Promise<void> {
    const set = this.listeners.get(event);
    if (!set || set.size === 0) return;
    await Promise.all([...set].map(async (l) => l(payload)));
  }
}

export interface SendOptions {
  /** the WhatsApp message id to send with (chosen by tickets) */
  messageId: string;
  /** WhatsApp id of the message this one answers */
  quotedMessageId?: string | null;
}

/** A file to send: its bytes as a stream (never a buffer of the whole file), `caption` shown under it. */
export interface OutgoingMedia {
  mediaType: 'image' | 'audio' | 'video' | 'application';
  stream: Readable;
  mimetype: string;
  fileName: string;
  caption: string;
}

/** What a message carries: a text, or a file. */
export type OutgoingContent = { text: string } | { media: OutgoingMedia };

/**
 * One live WhatsApp session of one connection, shaped after Baileys' socket. `start()` may be called
 * again after a close to reconnect with the stored auth state.
 */
export interface SessionProvider {
  readonly kind: ConnectionProviderKind;
  readonly ev: ProviderEvents;
  start(): Promise<void>;
  sendMessage(jid: string, content: OutgoingContent, options: SendOptions): Promise<{ key: WAMessageKey }>;
  /** Changes the text of a message already sent (WhatsApp shows it edited). */
  editMessage(jid: string, key: WAMessageKey, text: string): Promise<void>;
  /** Revokes a message for everyone. */
  deleteMessage(jid: string, key: WAMessageKey): Promise<void>;
  /** The file of a received media message, as a stream; rejects when WhatsApp will not give it. */
  downloadMedia(message: WAMessage): Promise<Readable>;
  /** whether a number (digits with the country code) is on WhatsApp, and WhatsApp's id for it */
  checkNumber(number: string): Promise<NumberCheckResult>;
  /** the phone's address book: its WhatsApp contacts with the names it keeps for them */
  addressBook(): Promise<AddressBookEntry[]>;
  /** closes the session, keeping the pairing (another process may resume it) */
  end(): Promise<void>;
  /** unpairs the phone and forgets the auth state */
  logout(): Promise<void>;
  /**
   * Optional capability of a stand-in phone (the sandbox): delivers messages as if customers had sent
   * them, as one `messages.upsert`, and resolves once the listeners handled them; answers their WhatsApp
   * ids, in order. Rejects with ProviderClosedError when the session is not open. A provider without it
   * (a real phone) cannot be handed messages.
   */
  deliverInbound?(messages: SandboxInboundRequest[]): Promise<string[]>;
  /** Optional capability of a stand-in phone: the address book it then answers (replaces the one it had). */
  setAddressBook?(entries: AddressBookEntry[]): void;
  /** Optional capability of a stand-in phone: `number` left WhatsApp (sends to it are refused, as WhatsApp refuses them). */
  leaveWhatsapp?(number: string): void;
}

/**
 * WhatsApp's final answer to a send: the number is not on WhatsApp. Trying again changes nothing: the
 * message is marked failed at once (ERR_WAPP_INVALID_CONTACT) and the number remembered.
 */
export class NotOnWhatsappError extends Error {
  constructor(readonly number: string) {
    super(`${number} is not on WhatsApp`);
    this.name = 'NotOnWhatsappError';
  }
}

/** Raised when a provider is asked to deliver or send while its session is not open. */
export class ProviderClosedError extends Error {
  constructor(kind: ConnectionProviderKind) {
    super(`${kind} session is not open`);
    this.name = 'ProviderClosedError';
  }
}

/** What a provider gets to work with. */
export interface ProviderContext {
  connectionId: number;
  companyId: number;
}
