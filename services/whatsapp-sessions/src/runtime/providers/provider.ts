import type { Readable } from 'node:stream';
import type {
  AddressBookEntry,
  ChatPresence,
  ConnectionProviderKind,
  ConnectionStatus,
  NumberCheckManyResult,
  NumberCheckResult,
  SandboxHistoryRequest,
  SandboxInboundRequest,
  WaAckEntry,
  WaInboundMessage,
} from '@wa/contracts';
import type { ChatAddress } from './chat-address.js';

/** What to do after the session's connection to WhatsApp closed (decided by reconnect-backoff.ts' decideClose). */
export type CloseAction =
  /** unpaired from the phone, banned, or the pairing is unusable: forget the auth state, DISCONNECTED */
  | 'logged-out'
  /** another client opened this session: stop without reconnecting (two holders would fight), pairing kept */
  | 'replaced'
  /** WhatsApp asks for a new connection at once (after pairing): reconnect, not a failure */
  | 'restart'
  /** the connection dropped: reconnect with back-off, counting retries */
  | 'retry';

/** A change of the session's connection: a status to store (a QR code to show, pairing, connected with the phone's number) or its close. */
export type ConnectionChange =
  | { kind: 'status'; status: ConnectionStatus; qrcode: string; number?: string }
  /**
   * `code`: WhatsApp's close code (Baileys' DisconnectReason: 401 logged out, 403 forbidden, 440 replaced, 500 bad
   * session, 515 restart required…); none for a close without one (a socket error). What it means is the runner's.
   */
  | { kind: 'close'; code?: number };

/** A received file, fetched only when asked (`open`: rejects when WhatsApp will not give it). */
export interface ReceivedFile {
  /** the type it is kept and served as (see safeInboundType) */
  mimetype: string;
  /** a document's name; null for pictures, videos and audio */
  fileName: string | null;
  open(): Promise<Readable>;
}

/** A message received (or sent from the phone itself), in our shape, with its file when it has one. */
export interface ReceivedMessage {
  message: WaInboundMessage;
  file: ReceivedFile | null;
  /**
   * written while the phone was offline and delivered on its reconnect (the offline backlog: Baileys' `messages.upsert`
   * of type `append`); counted in whatsapp_sessions_backlog_messages_total once published
   */
  backlog?: boolean;
  /**
   * a message of WhatsApp's history sync (Baileys' `messaging-history.set`), with its own timestamp and without its
   * file: published as history only when recent (runtime/history.ts), never handed to a ticket's opening
   */
  history?: boolean;
}

/** A call offered to the phone (Baileys' `call` event of status `offer`), in our ids. */
export interface IncomingCall {
  /** WhatsApp's id of the call */
  id: string;
  /** the caller: their number (digits with the country code), or `<lid>@lid` when WhatsApp hides it */
  from: string;
  isVideo: boolean;
  /** a group call (`from`: the member calling) */
  isGroup: boolean;
  /** when WhatsApp says it was offered (ms since epoch) */
  at: number;
}

/** A call to reject: its id and its caller, as IncomingCall names them. */
export type CallRef = Pick<IncomingCall, 'id' | 'from'>;

/**
 * What a provider reports, in our vocabulary (our ids: phone numbers, group ids, LIDs; never WhatsApp's jids):
 * each provider translates its own world (Baileys' socket events, the sandbox's stand-in phone) into these.
 */
export interface ProviderEventMap {
  /** the session's connection changed */
  connection: ConnectionChange;
  /** messages received (or sent from the phone itself), one delivery: what is not a conversation's message is left out */
  messages: ReceivedMessage[];
  /** status changes of messages this connection sent: 1 sent, 2 server, 3 delivered, 4 read, 5 played */
  acks: WaAckEntry[];
  /** a call offered to the phone, told once per call (whether to reject it is the company's `call` setting, tickets') */
  call: IncomingCall;
  /**
   * WhatsApp told which phone numbers LIDs stand for (digits both: `lid-mapping.update`, a message's
   * `remoteJidAlt`/`participantAlt`, a contact's phone number, history sync): kept in the company's LID map
   */
  lids: Array<{ lid: string; pn: string }>;
  /**
   * customers typing or recording in their one-to-one chats, or stopping (Baileys' `presence.update`): `from` as a
   * message's (the number, or `<lid>@lid`); worth a few seconds, never stored
   */
  presence: Array<{ from: string; state: ChatPresence }>;
}

export type ProviderEvent = keyof ProviderEventMap;
type Listener<K extends ProviderEvent> = (payload: ProviderEventMap[K]) => unknown;

/**
 * A provider's events: `emit` resolves when every listener has finished, so a caller that must know an event
 * was handled (the sandbox answering an injected message only after it reached JetStream) can wait for it.
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

/** A message already sent or received, as a change names it: its WhatsApp id and whether this phone sent it. */
export interface MessageRef {
  id: string;
  fromMe: boolean;
}

/** A file to send: its bytes as a stream (never a buffer of the whole file), `caption` shown under it. */
export interface OutgoingMedia {
  mediaType: 'image' | 'audio' | 'video' | 'application';
  stream: Readable;
  mimetype: string;
  fileName: string;
  caption: string;
  /** an OGG/Opus audio sent as a voice note (WhatsApp's `ptt`) */
  ptt?: boolean;
}

/** A place to send: WhatsApp's location message. */
export interface OutgoingLocation {
  latitude: number;
  longitude: number;
  name?: string | null;
  address?: string | null;
}

/**
 * What a message carries: a text, a file, a place, a contact card (its name and vCard), or a reaction (an emoji on a
 * message of the chat; '' takes ours away).
 */
export type OutgoingContent =
  | { text: string }
  | { media: OutgoingMedia }
  | { location: OutgoingLocation }
  | { contact: { name: string; vcard: string } }
  | { reaction: { message: MessageRef; emoji: string } };

/**
 * One live WhatsApp session of one connection. `start()` may be called again after a close to reconnect with
 * the stored auth state. Chats are named by our ids (ChatAddress); how WhatsApp names them is the provider's.
 */
export interface SessionProvider {
  readonly kind: ConnectionProviderKind;
  readonly ev: ProviderEvents;
  start(): Promise<void>;
  sendMessage(to: ChatAddress, content: OutgoingContent, options: SendOptions): Promise<void>;
  /** Changes the text of a message already sent (WhatsApp shows it edited). */
  editMessage(to: ChatAddress, message: MessageRef, text: string): Promise<void>;
  /** Revokes a message for everyone. */
  deleteMessage(to: ChatAddress, message: MessageRef): Promise<void>;
  /** whether a number (digits with the country code) is on WhatsApp, and WhatsApp's id for it */
  checkNumber(number: string): Promise<NumberCheckResult>;
  /** the same for many numbers in one query to WhatsApp, each answered in the order asked */
  checkNumbers(numbers: string[]): Promise<NumberCheckManyResult['results']>;
  /** the phone's address book: its WhatsApp contacts with the names it keeps for them */
  addressBook(): Promise<AddressBookEntry[]>;
  /**
   * A pairing code for `phoneNumber` (digits with the country code), the alternative to the QR: 8 characters the
   * admin types on the phone. Only while the session waits for a pairing (status qrcode).
   */
  requestPairingCode(phoneNumber: string): Promise<string>;
  /** The URL of a contact's profile picture; null when it has none or hides it from this phone (not a failure). */
  profilePicture(address: ChatAddress): Promise<string | null>;
  /** Declines a call still ringing, as the phone's user would (the caller sees it rejected). */
  rejectCall(call: CallRef): Promise<void>;
  /** Tells a chat that the phone's user is typing or recording a voice note, or stopped (the customer sees "digitando…"). */
  sendPresence(to: ChatAddress, state: ChatPresence): Promise<void>;
  /** closes the session, keeping the pairing (another process may resume it) */
  end(): Promise<void>;
  /** unpairs the phone and forgets the auth state */
  logout(): Promise<void>;
}

/** What only a stand-in phone (the sandbox) can do: be made to receive, given an address book, told who left WhatsApp. */
export interface SandboxAbilities {
  /**
   * Delivers messages as if customers had sent them, as one delivery, and resolves once the listeners handled
   * them; answers their WhatsApp ids, in order. Rejects with ProviderClosedError when the session is not open.
   */
  deliverInbound(messages: SandboxInboundRequest[]): Promise<string[]>;
  /** The address book it answers from now on (replaces the one it had). */
  setAddressBook(entries: AddressBookEntry[]): void;
  /** `number` left WhatsApp: sends to it are refused, as WhatsApp refuses them. */
  leaveWhatsapp(number: string): void;
  /** WhatsApp tells the phone which number a LID stands for (Baileys' `lid-mapping.update`); resolves once it is kept. */
  lidMapping(lid: string, pn: string): Promise<void>;
  /** A customer calls the phone: the call rings (answered its id) once the listeners handled its offer. */
  offerCall(call: { from: string; isVideo: boolean }): Promise<string>;
  /** WhatsApp bans the phone's number: the session closes as Baileys' does on a 403 (logged out, reason `banned`). */
  ban(): void;
  /** WhatsApp closes the session with `code` (Baileys' DisconnectReason), as Baileys' socket closes: told right after. */
  disconnect(code: number): void;
  /**
   * The phone loses its network for `seconds`: the session drops (connection lost) and its reconnects fail until then;
   * what customers write meanwhile is held and delivered on the reconnect, each with the time it was written. Resolves
   * once the outage is kept (it outlives the process).
   */
  offline(seconds: number): Promise<void>;
  /**
   * Whether the phone is paired but not connected (cut off, dropped and reconnecting, or its session not up yet): what
   * customers write is held for its connect, not refused.
   */
  isOffline(): boolean;
  /** The profile picture it answers for `number` from now on; null: none (the default). */
  setProfilePicture(number: string, url: string | null): void;
  /**
   * The phone is unpaired: the session's next start waits for a pairing (status qrcode with a QR to show) instead of
   * pairing at once; a pairing code asked for a number then pairs it with that number, as if typed on the phone.
   */
  unpair(): void;
  /**
   * WhatsApp's history sync reaches the phone, as Baileys' `messaging-history.set`: the contacts join its address book
   * (`lids` told for those with a LID), the messages are delivered as history (ReceivedMessage.history) with their own
   * times, resolving once handled; answers their WhatsApp ids, in order.
   */
  historySync(sync: SandboxHistoryRequest): Promise<string[]>;
  /** A customer types or records in their chat with the phone, or stops: resolves once the listeners handled it. */
  presenceFrom(from: string, state: ChatPresence): Promise<void>;
  /** What the phone told chats of its user's presence (sendPresence), oldest first: the last SANDBOX_PRESENCES_KEPT. */
  presencesSent(): Array<{ to: string; state: ChatPresence; at: number }>;
}

/** Whether a provider is a stand-in phone (a real phone cannot be handed messages). */
export function hasSandboxAbilities(provider: SessionProvider): provider is SessionProvider & SandboxAbilities {
  const p = provider as Partial<SandboxAbilities>;
  return (
    typeof p.deliverInbound === 'function' &&
    typeof p.setAddressBook === 'function' &&
    typeof p.leaveWhatsapp === 'function' &&
    typeof p.lidMapping === 'function' &&
    typeof p.offerCall === 'function' &&
    typeof p.ban === 'function' &&
    typeof p.disconnect === 'function' &&
    typeof p.offline === 'function' &&
    typeof p.isOffline === 'function' &&
    typeof p.setProfilePicture === 'function' &&
    typeof p.unpair === 'function' &&
    typeof p.historySync === 'function'
  );
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
  /**
   * Fencing: whether this session's lease is still this replica's, at the epoch it was started under. A provider
   * writes no credentials once it answers false (another replica runs the session now). Absent: always held (tests).
   */
  holdsLease?: () => Promise<boolean>;
}
