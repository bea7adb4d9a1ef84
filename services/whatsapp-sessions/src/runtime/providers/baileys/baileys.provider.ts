import type { Readable } from 'node:stream';
import makeWASocket, {
  Browsers,
  downloadMediaMessage,
  isJidGroup,
  isLidUser,
  isPnUser,
  jidNormalizedUser,
  type AnyMessageContent,
  type UserFacingSocketConfig,
  type WAMessage,
  type WASocket,
} from '@whiskeysockets/baileys';
import type { AddressBookEntry, ChatPresence, NumberCheckManyResult, NumberCheckResult } from '@wa/contracts';
import { brazilianWhatsappForm, numberForms } from '../../number-forms.js';
import type { KnownJids } from '../../number-jids.js';
import type { ChatAddress } from '../chat-address.js';
import {
  NotOnWhatsappError,
  ProviderClosedError,
  ProviderEvents,
  type MessageRef,
  type OutgoingContent,
  type OutgoingMedia,
  type ProviderContext,
  type ProviderEvent,
  type ProviderEventMap,
  type ReceivedMessage,
  type CallRef,
  type SendOptions,
  type SessionProvider,
} from '../provider.js';
import { connectionIntent, jidOf, lidPair, lidPairsOf, mediaOf, toAcks, toIncomingCall, toInboundMessage, toPresences } from './mapping.js';
import { usePostgresAuthState, type AuthStateStore } from './postgres-auth-state.js';
import { NOTHING_KEPT, type SentMessages } from './sent-contents.js';
import { boundedKeyStore, boundedSocketCaches, DEFAULT_SOCKET_LIMITS, type BaileysSocketLimits } from './socket-caches.js';

/** The part of Baileys' socket the provider uses. */
export type BaileysSocket = Pick<
  WASocket,
  | 'ev'
  | 'sendMessage'
  | 'end'
  | 'logout'
  | 'user'
  | 'onWhatsApp'
  | 'updateMediaMessage'
  | 'requestPairingCode'
  | 'profilePictureUrl'
  | 'rejectCall'
  | 'sendPresenceUpdate'
  | 'presenceSubscribe'
>;

/** Baileys' logger interface (pino's). */
export type BaileysLogger = UserFacingSocketConfig['logger'] & {};

/** Makes a socket; Baileys' `makeWASocket` unless a test drives a scripted one. */
export type SocketFactory = (config: UserFacingSocketConfig) => BaileysSocket;

export const defaultSocketFactory: SocketFactory = (config) => makeWASocket(config);

/** Attempts at handing a received message to the session runner before it is logged as lost. */
const UPSERT_ATTEMPTS = 8;

/** Calls whose caller's jid the provider keeps (to reject them as WhatsApp named the caller): the latest ones. */
const CALLS_KEPT = 500;
/** Chats whose presence this session asked WhatsApp to tell (presenceSubscribe), remembered so each is asked once. */
const PRESENCE_SUBSCRIPTIONS_KEPT = 5000;

/** A jid remembered longer than this is asked for again before a send (kept when WhatsApp cannot be asked). */
export const JID_RECHECK_MS = 30 * 24 * 60 * 60_000;

/** A number's jid for a send, and whether it came from what was remembered (then a failed send asks WhatsApp again). */
interface Target {
  jid: string;
  remembered: boolean;
}

/**
 * A real WhatsApp Web session through Baileys: auth state in PostgreSQL, socket events translated into provider
 * events (mapping.ts: jids become our ids here, and go no further). Each `start()` opens a new socket with the
 * stored auth state (reconnects); events of an older socket are dropped. Each message it sends is kept as Baileys
 * built it for a while (sent-contents.ts), so a contact who could not decrypt it gets it again on a retry receipt.
 */
export class BaileysProvider implements SessionProvider {
  readonly kind = 'baileys' as const;
  readonly ev = new ProviderEvents();
  private sock: BaileysSocket | undefined;
  private generation = 0;
  /** events are handed over in the order the socket emitted them */
  private queue: Promise<void> = Promise.resolve();
  /** the phone's contacts as WhatsApp synced them (`contacts.upsert` / `contacts.update`), by number */
  private readonly contacts = new Map<string, string>();
  /** the calls offered to this session, by id, with the caller's jid as WhatsApp named it (the latest CALLS_KEPT) */
  private readonly calls = new Map<string, string>();
  /** the chats whose presence WhatsApp was asked to tell this socket (it tells only those) */
  private readonly presenceSubscribed = new Set<string>();

  /**
   * `jids`: the jid WhatsApp answered for each of the company's numbers, kept in PostgreSQL (see whatsappJid);
   * `sent`: what this connection sent, kept for a while to answer retry receipts (Baileys' `getMessage`);
   * `limits`: the bounds of each socket's caches (socket-caches.ts) and WhatsApp's address.
   */
  constructor(
    private readonly ctx: ProviderContext,
    private readonly authStore: AuthStateStore,
    private readonly makeSocket: SocketFactory,
    private readonly logger: BaileysLogger,
    private readonly jids: KnownJids,
    private readonly sent: SentMessages = NOTHING_KEPT,
    private readonly limits: BaileysSocketLimits = DEFAULT_SOCKET_LIMITS,
  ) {}

  async start(): Promise<void> {
    this.closeSocket();
    const generation = ++this.generation;
    const live = () => generation === this.generation;
    const { state, saveCreds } = await usePostgresAuthState(this.authStore, this.ctx.connectionId, this.ctx.holdsLease);
    if (!live()) return;
    const logger = this.logger.child({ connectionId: this.ctx.connectionId });
    // each socket gets caches of its own, bounded, gone with it: a cache kept across sockets could serve keys another
    // replica wrote while it held the session, or the pairing a logout forgot
    const sock = this.makeSocket({
      auth: { creds: state.creds, keys: boundedKeyStore(state.keys, logger, this.limits).store },
      ...boundedSocketCaches(this.limits),
      ...(this.limits.wsUrl ? { waWebSocketUrl: this.limits.wsUrl } : {}),
      logger,
      browser: Browsers.ubuntu('Chrome'),
      markOnlineOnConnect: false,
      syncFullHistory: false,
      // a contact's phone that could not decrypt a message we sent asks for it again (a retry receipt): Baileys
      // sends it again as we kept it, whichever process sent it (sent-contents.ts)
      getMessage: (key) => this.sent.answer(key),
      // a message we could not decrypt: Baileys sends the sender a retry receipt and asks our phone to resend it (a
      // placeholder resend) through its retry manager, on here (its default) on purpose; the mapping shows the
      // message waiting meanwhile, and the resend (a later upsert, same key) replaces it
      enableRecentMessageCache: true,
    });
    this.sock = sock;
    sock.ev.on('creds.update', () => {
      if (live()) saveCreds().catch((err: unknown) => logger.error({ err }, 'baileys: creds not saved'));
    });
    sock.ev.on('connection.update', (update) => {
      if (!live()) return;
      const me = update.connection === 'open' && sock.user ? { id: sock.user.id, name: sock.user.name } : undefined;
      const change = connectionIntent({ ...update, me });
      if (change.kind !== 'none') this.forward('connection', change, 1);
    });
    sock.ev.on('messages.upsert', ({ messages, type }) => {
      if (!live()) return;
      this.learnSenders(messages);
      this.learnLids(lidPairsOf(messages));
      // `append`: what WhatsApp held while the phone was away (the offline backlog), read like any other and counted
      const received = messages.flatMap((m): ReceivedMessage[] => {
        const message = toInboundMessage(m, this.ctx);
        return message ? [{ message, file: this.fileOf(m), backlog: type === 'append' }] : [];
      });
      if (received.length > 0) this.forward('messages', received, UPSERT_ATTEMPTS);
      // WhatsApp tells a chat's presence to the sockets that asked for it: those whose customers write
      if (type === 'notify')
        for (const m of messages) if (!m.key?.fromMe && m.key?.remoteJid) this.subscribePresence(sock, m.key.remoteJid);
    });
    sock.ev.on('messages.update', (updates) => {
      if (!live()) return;
      const acks = toAcks(updates, this.ctx).map(({ ack }) => ({ waMessageId: ack.waMessageId, ack: ack.ack }));
      if (acks.length > 0) this.forward('acks', acks, 3);
    });
    // a call's offer, told once per call (WhatsApp may tell it again, offline offers on a reconnect); its later states tell nothing
    sock.ev.on('call', (events) => {
      if (!live()) return;
      for (const event of events) {
        const call = toIncomingCall(event);
        if (!call || this.calls.has(call.id)) continue;
        this.calls.set(call.id, event.from);
        if (this.calls.size > CALLS_KEPT) this.calls.delete(this.calls.keys().next().value as string);
        this.forward('call', call, 3);
      }
    });
    const keep = (
      list: Array<{
        id?: string | null;
        phoneNumber?: string | null;
        name?: string | null;
        notify?: string | null;
        verifiedName?: string | null;
      }>,
    ) => {
      for (const c of list) {
        const jid = c.phoneNumber ?? c.id ?? '';
        const m = /^(\d{8,15})(?::\d+)?@s\.whatsapp\.net$/.exec(jid);
        if (!m?.[1]) continue;
        const name = c.name ?? c.notify ?? c.verifiedName ?? this.contacts.get(m[1]) ?? '';
        this.contacts.set(m[1], name);
      }
    };
    sock.ev.on('contacts.upsert', (list) => {
      if (!live()) return;
      keep(list);
      this.learnLids(lidPairsOf([], list));
    });
    sock.ev.on('contacts.update', (list) => {
      if (!live()) return;
      keep(list);
      this.learnLids(lidPairsOf([], list));
    });
    // history sync (what the phone hands a newly linked session; `syncFullHistory: false` leaves the recent part):
    // its contacts join the address book as contacts.upsert's do, its LID pairs (lidPnMappings, its chats' and
    // messages') go to the company's LID map, then its messages as history, with their own times and without their
    // files (none is downloaded): which are recent enough to import is the runtime's rule (runtime/history.ts)
    sock.ev.on('messaging-history.set', ({ contacts, messages, lidPnMappings }) => {
      if (!live()) return;
      keep(contacts);
      const mapped = (lidPnMappings ?? []).flatMap(({ lid, pn }) => lidPair(lid, pn) ?? []);
      const pairs = new Map([...mapped, ...lidPairsOf(messages, contacts)].map((p) => [p.lid, p.pn]));
      this.learnLids([...pairs].map(([lid, pn]) => ({ lid, pn })));
      const received = messages.flatMap((m): ReceivedMessage[] => {
        const message = toInboundMessage(m, this.ctx);
        return message ? [{ message, file: null, history: true }] : [];
      });
      if (received.length > 0) this.forward('messages', received, UPSERT_ATTEMPTS);
    });
    // WhatsApp tells which number a LID stands for (a chat that moved to LID addressing, a sync action)
    sock.ev.on('lid-mapping.update', ({ lid, pn }) => {
      if (!live()) return;
      const pair = lidPair(lid, pn);
      if (pair) this.learnLids([pair]);
    });
    // customers typing or recording (told only for chats subscribed to: those that wrote, or that an agent types in)
    sock.ev.on('presence.update', (update) => {
      if (!live()) return;
      const presences = toPresences(update);
      if (presences.length > 0) this.forward('presence', presences, 1);
    });
  }

  /**
   * A message to the jid WhatsApp knows the number by (whatsappJid). When a send to a remembered jid fails, the
   * jid may be stale: it is forgotten and WhatsApp asked again, once; a text goes out again at once when WhatsApp
   * names the number otherwise, a file (its stream is spent) on the send's next try, to the jid just learned.
   */
  async sendMessage(to: ChatAddress, content: OutgoingContent, options: SendOptions): Promise<void> {
    const sock = this.sock;
    if (!sock) throw new Error('baileys: session not started');
    const jid = jidOf(to);
    const quoted = options.quotedMessageId
      ? { key: { remoteJid: jid, id: options.quotedMessageId, fromMe: false }, message: { conversation: '' } }
      : undefined;
    const target = await this.whatsappJid(sock, jid, { refuseUnknown: true });
    const message = baileysContent(content, target.jid);
    try {
      await this.sent.keep(await sock.sendMessage(target.jid, message, { messageId: options.messageId, quoted }));
    } catch (err) {
      if (!target.remembered) throw err;
      const number = phoneOf(jid) as string;
      this.logger.warn(
        { err, connectionId: this.ctx.connectionId, jid: target.jid },
        'baileys: send to a remembered jid failed; asking WhatsApp again',
      );
      await this.jids.forget(numberForms(number), target.jid).catch((e: unknown) => this.memoryFailed(e, 'forgotten'));
      const fresh = await this.whatsappJid(sock, jid, { refuseUnknown: true, ask: true, fallback: false }).catch((e: unknown) => {
        if (e instanceof NotOnWhatsappError) throw e;
        return null;
      });
      if (!fresh || fresh.jid === target.jid || 'media' in content) throw err;
      await this.sent.keep(await sock.sendMessage(fresh.jid, message, { messageId: options.messageId, quoted }));
    }
  }

  /**
   * The jid WhatsApp knows a number by: contacts are kept with the Brazilian 9th digit, while WhatsApp still names
   * many older accounts without it. Read first from what the company's processes learned (`whatsapp.number_jids`:
   * WhatsApp's answers, and the jids numbers wrote from), else asked (Baileys' `onWhatsApp`, a usync query) and
   * remembered; a jid remembered longer than JID_RECHECK_MS is asked again. Baileys sends to a number without
   * WhatsApp as to any other (its device list is empty: the message goes to our own devices only and never
   * arrives, no error), and `onWhatsApp` leaves a number WhatsApp does not know out of its answer: that answer is
   * the only "not on WhatsApp" there is, so `refuseUnknown` (a new message) raises NotOnWhatsappError on it, and
   * what was remembered for the number is forgotten. When WhatsApp cannot be asked (the query fails or answers
   * nothing): the jid remembered, however old, else the Brazilian rule (brazilianWhatsappForm: a mobile of area
   * code 31 and up without its 9th digit, below with it), else the jid as given. `ask`: the memory is not read.
   */
  private async whatsappJid(
    sock: BaileysSocket,
    jid: string,
    opts: { refuseUnknown?: boolean; ask?: boolean; fallback?: boolean } = {},
  ): Promise<Target> {
    const number = phoneOf(jid);
    if (!number) return { jid, remembered: false };
    const known = opts.ask
      ? null
      : await this.jids.find(number).catch((err: unknown) => {
          this.memoryFailed(err, 'read');
          return null;
        });
    if (known && Date.now() - known.checkedAt < JID_RECHECK_MS) return { jid: known.jid, remembered: true };
    const unasked = (err?: unknown): Target => {
      if (opts.fallback === false) throw err ?? new Error('baileys: WhatsApp answered nothing');
      const guess = known?.jid ?? `${brazilianWhatsappForm(number)}@s.whatsapp.net`;
      this.logger.warn({ err, connectionId: this.ctx.connectionId, jid: guess }, 'baileys: number not looked up; sending to it as guessed');
      return { jid: guess, remembered: known !== null };
    };
    let answer: Awaited<ReturnType<BaileysSocket['onWhatsApp']>>;
    try {
      answer = await sock.onWhatsApp(number);
    } catch (err) {
      return unasked(err);
    }
    if (!Array.isArray(answer)) return unasked();
    const found = answer.find((a) => a?.exists);
    if (!found) {
      if (known) await this.jids.forget(numberForms(number), known.jid).catch((e: unknown) => this.memoryFailed(e, 'forgotten'));
      if (opts.refuseUnknown) throw new NotOnWhatsappError(number);
      return { jid, remembered: false };
    }
    await this.jids.remember([{ number, jid: found.jid }]).catch((err: unknown) => this.memoryFailed(err, 'written'));
    return { jid: found.jid, remembered: false };
  }

  /** The company's jids could not be read or written (PostgreSQL away): the send goes on as if none were remembered. */
  private memoryFailed(err: unknown, what: 'read' | 'written' | 'forgotten'): void {
    this.logger.warn({ err, connectionId: this.ctx.connectionId }, `baileys: remembered jids not ${what}`);
  }

  /**
   * Whoever writes is on WhatsApp, under the jid it wrote from: each sender's phone jid (a LID-addressed message's
   * `remoteJidAlt`) is remembered for its number in every form (numberForms: the contact is kept with the 9th
   * digit), so a reply goes to it without asking WhatsApp and is never refused as not on WhatsApp. Not waited
   * for: a received message never waits for this.
   */
  private learnSenders(messages: WAMessage[]): void {
    const entries = new Map<string, string>();
    for (const m of messages) {
      const key = m.key;
      if (!key?.remoteJid || key.fromMe || isJidGroup(key.remoteJid)) continue;
      const pn = isPnUser(key.remoteJid) ? key.remoteJid : isLidUser(key.remoteJid) && isPnUser(key.remoteJidAlt) ? key.remoteJidAlt : null;
      const jid = pn ? jidNormalizedUser(pn) : '';
      const number = phoneOf(jid);
      if (!number) continue;
      for (const form of numberForms(number)) entries.set(form, jid);
    }
    if (entries.size === 0) return;
    this.jids.remember([...entries].map(([number, jid]) => ({ number, jid }))).catch((err: unknown) => this.memoryFailed(err, 'written'));
  }

  /** LID ↔ number pairs for the company's LID map, in turn with the socket's other events (a message after them finds them kept). */
  private learnLids(pairs: Array<{ lid: string; pn: string }>): void {
    if (pairs.length > 0) this.forward('lids', pairs, UPSERT_ATTEMPTS);
  }

  /** Baileys' edit: the message's key at the chat's jid, the new text. */
  async editMessage(to: ChatAddress, message: MessageRef, text: string): Promise<void> {
    const sock = this.sock;
    if (!sock) throw new ProviderClosedError(this.kind);
    const { jid: target } = await this.whatsappJid(sock, jidOf(to));
    await this.sent.keep(await sock.sendMessage(target, { text, edit: { remoteJid: target, id: message.id, fromMe: message.fromMe } }));
  }

  /** Baileys' revoke ("delete for everyone"). */
  async deleteMessage(to: ChatAddress, message: MessageRef): Promise<void> {
    const sock = this.sock;
    if (!sock) throw new ProviderClosedError(this.kind);
    const { jid: target } = await this.whatsappJid(sock, jidOf(to));
    await this.sent.keep(await sock.sendMessage(target, { delete: { remoteJid: target, id: message.id, fromMe: message.fromMe } }));
  }

  /** A received message's file, fetched when the runtime asks for it. */
  private fileOf(m: WAMessage): ReceivedMessage['file'] {
    const file = mediaOf(m);
    return file ? { ...file, open: () => this.download(m) } : null;
  }

  /**
   * A received file through Baileys (fetched from WhatsApp's media servers and decrypted as it streams);
   * an expired one is asked for again from the phone (`updateMediaMessage`).
   */
  private async download(message: WAMessage): Promise<Readable> {
    const sock = this.sock;
    if (!sock) throw new ProviderClosedError(this.kind);
    return downloadMediaMessage(message, 'stream', {}, { logger: this.logger, reuploadRequest: (m) => sock.updateMediaMessage(m) });
  }

  /**
   * WhatsApp's answer through Baileys' `onWhatsApp` (WhatsApp resolves the Brazilian 9th digit itself), remembered
   * for the sends that follow (a number WhatsApp does not know: forgotten).
   */
  async checkNumber(number: string): Promise<NumberCheckResult> {
    const sock = this.sock;
    if (!sock) throw new ProviderClosedError(this.kind);
    const answer = await sock.onWhatsApp(number);
    const found = answer?.find((a) => a?.exists);
    if (found) await this.jids.remember([{ number, jid: found.jid }]).catch((err: unknown) => this.memoryFailed(err, 'written'));
    else if (Array.isArray(answer)) await this.forgetUnknown([number]);
    return found ? { exists: true, jid: found.jid } : { exists: false, jid: null };
  }

  /** WhatsApp answered that it does not know these numbers: whatever was remembered for them is forgotten. */
  private async forgetUnknown(numbers: string[]): Promise<void> {
    for (const number of numbers) {
      const known = await this.jids.find(number).catch(() => null);
      if (known) await this.jids.forget(numberForms(number), known.jid).catch((err: unknown) => this.memoryFailed(err, 'forgotten'));
    }
  }

  /**
   * Many numbers in one `onWhatsApp` query (one usync round trip). Its answer names WhatsApp's jids, not the
   * numbers asked, and leaves out those it does not know: a jid is the number it is, else the one number asked
   * that ends as it does (WhatsApp's own form of a number: a Brazilian mobile without its 9th digit, Mexico's and
   * Argentina's mobile prefixes). The jids found are remembered for the sends that follow, in one statement.
   */
  async checkNumbers(numbers: string[]): Promise<NumberCheckManyResult['results']> {
    const sock = this.sock;
    if (!sock) throw new ProviderClosedError(this.kind);
    if (numbers.length === 0) return [];
    const answered = await sock.onWhatsApp(...numbers);
    const answer = answered ?? [];
    const found = new Map<string, string>();
    const others: Array<{ digits: string; jid: string }> = [];
    for (const a of answer) {
      const digits = a?.exists ? /^(\d{8,15})(?::\d+)?@s\.whatsapp\.net$/.exec(a.jid)?.[1] : undefined;
      if (!digits) continue;
      if (numbers.includes(digits)) found.set(digits, a.jid);
      else others.push({ digits, jid: a.jid });
    }
    for (const other of others) {
      const tail = other.digits.slice(-8);
      const [only, ...more] = numbers.filter((n) => !found.has(n) && n.slice(-8) === tail);
      if (only !== undefined && more.length === 0) found.set(only, other.jid);
    }
    if (found.size > 0)
      await this.jids
        .remember([...found].map(([number, jid]) => ({ number, jid })))
        .catch((err: unknown) => this.memoryFailed(err, 'written'));
    return numbers.map((number) => {
      const jid = found.get(number) ?? null;
      return { number, exists: jid !== null, jid };
    });
  }

  /**
   * Baileys' `requestPairingCode` on the socket waiting to be paired: WhatsApp links the session to the phone whose
   * number is given once the code is typed on it (the socket's `connection.update` goes on as after a QR scan).
   */
  async requestPairingCode(phoneNumber: string): Promise<string> {
    const sock = this.sock;
    if (!sock) throw new ProviderClosedError(this.kind);
    return sock.requestPairingCode(phoneNumber);
  }

  /**
   * Baileys' `profilePictureUrl` (the full picture, not the preview), asked under the jid WhatsApp knows the number by.
   * WhatsApp refuses a contact without a picture (404 item-not-found) or one who hides it (401 not-authorized): none.
   */
  async profilePicture(address: ChatAddress): Promise<string | null> {
    const sock = this.sock;
    if (!sock) throw new ProviderClosedError(this.kind);
    const target = address.kind === 'phone' ? (await this.whatsappJid(sock, jidOf(address))).jid : jidOf(address);
    try {
      return (await sock.profilePictureUrl(target, 'image')) ?? null;
    } catch (err) {
      if (noPicture(err)) return null;
      throw err;
    }
  }

  /**
   * Baileys' `rejectCall`: the phone declines the call, addressed to the caller as WhatsApp named them in the offer
   * (a LID stays a LID), else by their address in our ids (an offer this process did not see: a session that moved).
   */
  async rejectCall(call: CallRef): Promise<void> {
    const sock = this.sock;
    if (!sock) throw new ProviderClosedError(this.kind);
    const at = call.from.indexOf('@');
    const address: ChatAddress = at >= 0 ? { kind: 'lid', id: call.from.slice(0, at) } : { kind: 'phone', id: call.from };
    await sock.rejectCall(call.id, this.calls.get(call.id) ?? jidOf(address));
  }

  /**
   * Baileys' `sendPresenceUpdate` to the chat (composing, recording or paused), after asking WhatsApp to tell this
   * socket the chat's own presence (once per chat): the customer sees "digitando…" / "gravando…" while the agent types.
   */
  async sendPresence(to: ChatAddress, state: ChatPresence): Promise<void> {
    const sock = this.sock;
    if (!sock) throw new ProviderClosedError(this.kind);
    const jid = to.kind === 'phone' ? (await this.whatsappJid(sock, jidOf(to))).jid : jidOf(to);
    this.subscribePresence(sock, jid);
    await sock.sendPresenceUpdate(state, jid);
  }

  /** WhatsApp tells a socket the presence of the one-to-one chats it subscribed to: each chat asked once per socket. */
  private subscribePresence(sock: BaileysSocket, jid: string): void {
    if (isJidGroup(jid) || this.presenceSubscribed.has(jid)) return;
    if (this.presenceSubscribed.size >= PRESENCE_SUBSCRIPTIONS_KEPT) this.presenceSubscribed.clear();
    this.presenceSubscribed.add(jid);
    const refused = (err: unknown) => {
      this.presenceSubscribed.delete(jid);
      this.logger.debug({ err, connectionId: this.ctx.connectionId }, 'baileys: presence subscription refused');
    };
    // a presence is never worth a received message: nothing it throws reaches the handler that called it
    try {
      sock.presenceSubscribe(jid).catch(refused);
    } catch (err) {
      refused(err);
    }
  }

  /** The contacts WhatsApp synced to this session since it connected (its address book with their names). */
  async addressBook(): Promise<AddressBookEntry[]> {
    if (!this.sock) throw new ProviderClosedError(this.kind);
    return [...this.contacts].map(([number, name]) => ({ number, name: name || number }));
  }

  async end(): Promise<void> {
    this.generation++;
    this.closeSocket();
  }

  async logout(): Promise<void> {
    const sock = this.sock;
    this.generation++;
    this.sock = undefined;
    try {
      await sock?.logout();
    } catch (err) {
      this.logger.warn({ err, connectionId: this.ctx.connectionId }, 'baileys: logout failed; forgetting the pairing anyway');
      await sock?.end(undefined).catch(() => undefined);
    }
    await this.authStore.clear(this.ctx.connectionId);
  }

  private closeSocket(): void {
    const sock = this.sock;
    this.sock = undefined;
    if (sock) void sock.end(undefined).catch(() => undefined);
  }

  /**
   * Baileys does not wait for listeners: events are handed over one after the other (a conversation
   * keeps its order) and a failed hand-over (bus down) is retried here with back-off.
   */
  private forward<K extends ProviderEvent>(event: K, payload: ProviderEventMap[K], attempts: number): void {
    const run = async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await this.ev.emit(event, payload);
          return;
        } catch (err) {
          if (attempt >= attempts) {
            this.logger.error({ err, event, connectionId: this.ctx.connectionId }, 'baileys: event not handled; giving up');
            return;
          }
          await new Promise((r) => setTimeout(r, Math.min(30_000, 250 * 2 ** attempt)));
        }
      }
    };
    this.queue = this.queue.then(run);
  }
}

/** WhatsApp's answer for a picture there is none of, or that is hidden from us (Baileys' Boom: the iq's error code in `data`). */
function noPicture(err: unknown): boolean {
  const e = err as { data?: unknown; message?: unknown; output?: { statusCode?: unknown } } | null;
  const code = Number(e?.data ?? e?.output?.statusCode);
  return code === 404 || code === 401 || e?.message === 'item-not-found' || e?.message === 'not-authorized';
}

/** The number of a phone jid without device (`5511999990001@s.whatsapp.net` → `5511999990001`); null for anything else. */
function phoneOf(jid: string): string | null {
  return /^(\d{8,15})@s\.whatsapp\.net$/.exec(jid)?.[1] ?? null;
}

/** Our file as Baileys' message content: streamed, with its caption, type and (documents) name. */
/**
 * Our content as Baileys sends it: a text, a file (`baileysMedia`), a place (`location`), a contact card (`contacts`
 * with its vCard), a reaction (`react`, on the message's key in the chat `jid`).
 */
export function baileysContent(content: OutgoingContent, jid: string): AnyMessageContent {
  if ('media' in content) return baileysMedia(content.media);
  if ('location' in content) {
    const { latitude, longitude, name, address } = content.location;
    return {
      location: {
        degreesLatitude: latitude,
        degreesLongitude: longitude,
        ...(name ? { name } : {}),
        ...(address ? { address } : {}),
      },
    };
  }
  if ('contact' in content) return { contacts: { displayName: content.contact.name, contacts: [{ vcard: content.contact.vcard }] } };
  if ('reaction' in content) {
    const { message, emoji } = content.reaction;
    return { react: { text: emoji, key: { remoteJid: jid, id: message.id, fromMe: message.fromMe } } };
  }
  return { text: content.text };
}

export function baileysMedia(m: OutgoingMedia): AnyMessageContent {
  const file = { stream: m.stream };
  const caption = m.caption || undefined;
  switch (m.mediaType) {
    case 'image':
      return { image: file, caption, mimetype: m.mimetype };
    case 'video':
      return { video: file, caption, mimetype: m.mimetype };
    case 'audio':
      // a voice note goes as WhatsApp's own: OGG/Opus with ptt (tickets transcoded it)
      return { audio: file, mimetype: m.ptt ? 'audio/ogg; codecs=opus' : m.mimetype, ptt: m.ptt === true };
    default:
      return { document: file, mimetype: m.mimetype, fileName: m.fileName, caption };
  }
}
