import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Logger } from '@nestjs/common';
import type {
  AddressBookEntry,
  ChatPresence,
  MediaType,
  NumberCheckManyResult,
  NumberCheckResult,
  SandboxHistoryRequest,
  SandboxInboundMedia,
  SandboxInboundRequest,
  WaAckEntry,
  WaInboundMessage,
} from '@wa/contracts';
import { type MediaStorage } from '@wa/server-kit';
import { lidAddress, whatsappMessageId } from '@wa/domain';
import { numberForms } from '../../number-forms.js';
import type { KnownJids } from '../../number-jids.js';
import type { ChatAddress } from '../chat-address.js';
import {
  NotOnWhatsappError,
  ProviderClosedError,
  ProviderEvents,
  type MessageRef,
  type OutgoingContent,
  type ProviderContext,
  type ReceivedFile,
  type ReceivedMessage,
  type SandboxAbilities,
  type CallRef,
  type SendOptions,
  type SessionProvider,
} from '../provider.js';
import { safeInboundType } from '../received-file-type.js';
import { contactCardOf } from '../baileys/mapping.js';
import { CloseCodes } from '../../reconnect-backoff.js';
import type { SandboxCallsRepository } from './sandbox-calls.repository.js';
import type { SandboxHeldRepository, WrittenMessage } from './sandbox-held.repository.js';
import type { SandboxOutboxRepository } from './sandbox-outbox.repository.js';

/** Status changes due within this many ms of each other go out in one `messages.update`. */
const ACK_TICK_MS = 25;

/** Baileys' DisconnectReason.connectionLost: how a socket closes when the network is gone. */
const CONNECTION_LOST = 408;

/** Messages per delivery of an offline backlog (WhatsApp hands a long one over in several `append` upserts). */
export const BACKLOG_PER_DELIVERY = 50;

/**
 * How long a session's claim on handing a phone's backlog over lasts unless claimed again (at each delivery): a
 * process killed mid-way leaves a claim that lapses, and the session's next holder takes over then.
 */
const HAND_OVER_CLAIM_MS = 15_000;

/** How soon a backlog that could not be handed over is tried again, while the session is up. */
const HAND_OVER_RETRY_MS = 1000;

/** Connections whose sandbox phone is unpaired (`unpair`): their next start waits for a pairing, per process. */
const unpaired = new Set<number>();

/** The profile pictures the sandbox's WhatsApp answers, per connection, by number (PUT …/sandbox/profile-picture). */
const pictures = new Map<number, Map<string, string>>();

/** The presences a sandbox phone remembers having sent (GET …/sandbox/presence answers them). */
export const SANDBOX_PRESENCES_KEPT = 100;

/** How long after answering a pairing code the sandbox phone pairs, as if the admin typed the code on it. */
export const SANDBOX_PAIRING_TYPED_MS = 500;

/** The letters of WhatsApp's pairing codes (Crockford's base 32, as Baileys draws them). */
const PAIRING_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTVWXYZ';

/** The sandbox phone's pairing code for a connection and a number: deterministic, 8 letters of PAIRING_ALPHABET. */
export function sandboxPairingCode(connectionId: number, phoneNumber: string): string {
  const digest = createHash('sha256').update(`sandbox-pairing:${connectionId}:${phoneNumber}`).digest();
  return Array.from(digest.subarray(0, 8), (b) => PAIRING_ALPHABET[b % PAIRING_ALPHABET.length]).join('');
}

/**
 * A stand-in phone behind the same interface as the Baileys provider: it pairs at once (OPENING →
 * CONNECTED, no QR), delivers injected messages as one `messages` event, as WhatsApp hands them to Baileys
 * (and Baileys' mapping to us), records what it sends (the outbox) and reports each sent message as sent (1)
 * at once, then server (2), delivered (3) and read (4), one `ackStepMs` apart, as `acks` events. Like WhatsApp,
 * it reports the status changes that fall due together (within ACK_TICK_MS) in one event. Cut off (`offline`), it
 * drops the connection as a network loss does and its WhatsApp servers hold what customers write; whatever they hold
 * (written while cut off, or while no process ran the session: SandboxHeldRepository, in PostgreSQL) is handed over
 * when a session of the phone connects, in any process (the offline backlog: deliveries marked `backlog`, each
 * message with the time it was written).
 */
export class SandboxProvider implements SessionProvider, SandboxAbilities {
  readonly kind = 'sandbox' as const;
  readonly ev = new ProviderEvents();
  private readonly logger = new Logger(SandboxProvider.name);
  private readonly timers = new Set<NodeJS.Timeout>();
  /** status changes waiting for their tick, by the tick's time */
  private readonly acksDue = new Map<number, WaAckEntry[]>();
  private open = false;
  private book: AddressBookEntry[] = [];
  /** customers who left WhatsApp (POST …/sandbox/leave) */
  private readonly left = new Set<string>();
  /** numbers that wrote to this phone, in each of their forms, with the jid they wrote from */
  private readonly wrote = new Map<string, string>();
  /** the offline backlog being handed over: later deliveries wait for it (they were written after it) */
  private handingOver: Promise<void> | undefined;
  /** more was held while the backlog was being handed over: look again before finishing */
  private handOverAgain = false;
  /** nothing is held for the phone since its session connected here: live messages go straight through */
  private backlogClear = false;
  private handOverRetry: NodeJS.Timeout | undefined;
  /** this session, as claimant of the phone's backlog (SandboxHeldRepository.claimHandOver) */
  private readonly claimant = randomBytes(12).toString('hex');
  /** ended (`end`, `logout`): nothing more is held or delivered through it */
  private ended = false;
  /** started unpaired: waiting for a pairing (a QR shown, or a pairing code asked) */
  private awaitingPairing = false;
  /** what it told chats of its user's presence, oldest first (the last SANDBOX_PRESENCES_KEPT) */
  private readonly presences: Array<{ to: string; state: ChatPresence; at: number }> = [];

  /** `jids`: the company's remembered jids, where the numbers that wrote are kept across restarts (as Baileys keeps its senders) */
  constructor(
    private readonly ctx: ProviderContext,
    private readonly outbox: SandboxOutboxRepository,
    private readonly ackStepMs: number,
    private readonly storage: MediaStorage,
    private readonly jids: KnownJids,
    /** what its WhatsApp servers keep for it while it is not connected, and its outages */
    private readonly held: SandboxHeldRepository,
    /** a new pairing (the connection was DISCONNECTED): what was held for the old one is not for it */
    private newPairing = false,
    /** the calls it got (GET …/sandbox/calls): none kept without it */
    private readonly calls?: SandboxCallsRepository,
  ) {}

  async start(): Promise<void> {
    if (this.newPairing) {
      await this.held.forget(this.ctx.connectionId);
      this.newPairing = false;
    }
    const offlineUntil = await this.held.offlineUntil(this.ctx.connectionId);
    if (offlineUntil) {
      // no network yet: the attempt fails as a socket's does, and the runner tries again later
      this.closeSoon(CONNECTION_LOST);
      return;
    }
    if (unpaired.has(this.ctx.connectionId)) {
      // an unpaired phone: a QR to show (nothing scans it) until a pairing code is asked for; the pairing is new
      await this.held.forget(this.ctx.connectionId);
      this.awaitingPairing = true;
      await this.ev.emit('connection', { kind: 'status', status: 'qrcode', qrcode: `sandbox-qr:${this.ctx.connectionId}:${Date.now()}` });
      return;
    }
    this.open = true;
    this.backlogClear = false;
    await this.ev.emit('connection', { kind: 'status', status: 'CONNECTED', qrcode: '' });
    // whatever WhatsApp kept for the phone while it was not connected, here or in any other process
    void this.handOver();
  }

  unpair(): void {
    unpaired.add(this.ctx.connectionId);
  }

  /**
   * A pairing code for `phoneNumber`, as WhatsApp hands one out: 8 characters of Crockford's base 32, here the same
   * for the same connection and number (sandboxPairingCode: a test can know it). The stand-in phone "types" it
   * SANDBOX_PAIRING_TYPED_MS later: the session goes PAIRING, then CONNECTED with that number.
   */
  async requestPairingCode(phoneNumber: string): Promise<string> {
    if (!this.awaitingPairing) throw new ProviderClosedError(this.kind);
    const code = sandboxPairingCode(this.ctx.connectionId, phoneNumber);
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.awaitingPairing) return;
      this.awaitingPairing = false;
      unpaired.delete(this.ctx.connectionId);
      this.open = true;
      void (async () => {
        await this.ev.emit('connection', { kind: 'status', status: 'PAIRING', qrcode: '' });
        await this.ev.emit('connection', { kind: 'status', status: 'CONNECTED', qrcode: '', number: phoneNumber });
      })().catch((err: unknown) => this.logger.warn({ err, connectionId: this.ctx.connectionId }, 'sandbox pairing not handled'));
    }, SANDBOX_PAIRING_TYPED_MS);
    this.timers.add(t);
    return code;
  }

  /** What a test set for the number (PUT …/sandbox/profile-picture); none by default. */
  async profilePicture(address: ChatAddress): Promise<string | null> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    return pictures.get(this.ctx.connectionId)?.get(address.id) ?? null;
  }

  setProfilePicture(number: string, url: string | null): void {
    let book = pictures.get(this.ctx.connectionId);
    if (!book) pictures.set(this.ctx.connectionId, (book = new Map()));
    // as WhatsApp: either form of a Brazilian mobile is the same account
    for (const form of numberForms(number)) {
      if (url) book.set(form, url);
      else book.delete(form);
    }
  }

  /**
   * The phone loses its network for `seconds`: the connection drops as on a network loss (408, connection lost: the
   * runner reconnects by the disconnect table, and every attempt before the time is up fails the same way, in any
   * process). What customers write meanwhile is held and handed over on the reconnect. Resolves once the outage is
   * kept (a process killed during it does not end it).
   */
  async offline(seconds: number): Promise<void> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    await this.held.offline(this.ctx.connectionId, new Date(Date.now() + seconds * 1000));
    if (this.open) this.disconnect(CONNECTION_LOST);
  }

  /**
   * A paired phone not connected (cut off, dropped and reconnecting, or its session not up yet): as WhatsApp, its
   * servers keep what customers write until it connects. Not while it waits for a pairing, nor once ended.
   */
  isOffline(): boolean {
    return !this.open && !this.awaitingPairing && !this.ended;
  }

  /**
   * The offline backlog, as WhatsApp hands it to a phone that comes back: what its servers hold for it, in the order
   * written, BACKLOG_PER_DELIVERY at a time, each delivery once the last one was handled (published) and kept until
   * then (a process killed in between hands it over again: its ids make it a repeat downstream). Only the session
   * holding the phone's claim hands it over, so two never deliver the same messages. One that fails stays held, with
   * what follows it, and is tried again a second later while the session is up. Called while one runs, it looks
   * again once that one is done (more was held meanwhile).
   */
  private handOver(): Promise<void> {
    if (this.handingOver) {
      this.handOverAgain = true;
      return this.handingOver;
    }
    this.handingOver = (async () => {
      try {
        do {
          this.handOverAgain = false;
          await this.handOverOnce();
        } while (this.handOverAgain && this.open);
      } catch (err) {
        this.backlogClear = false;
        this.logger.warn({ err, connectionId: this.ctx.connectionId }, 'sandbox backlog not handed over; trying again');
        this.handOverLater();
      } finally {
        this.handingOver = undefined;
      }
    })();
    return this.handingOver;
  }

  private async handOverOnce(): Promise<void> {
    const id = this.ctx.connectionId;
    if (!this.open) return;
    // most connects find nothing held: one query, no claim
    if ((await this.held.first(id, 1)).length === 0) {
      this.backlogClear = true;
      return;
    }
    if (!(await this.held.claimHandOver(id, this.claimant, HAND_OVER_CLAIM_MS))) {
      // another session is being handed it (one of a process that lost the phone and has not let go yet)
      this.backlogClear = false;
      this.handOverLater();
      return;
    }
    try {
      for (let n = 0; ; n++) {
        const delivery = await this.held.first(id, BACKLOG_PER_DELIVERY);
        if (delivery.length === 0) {
          this.backlogClear = true;
          return;
        }
        if (!this.open) return;
        // claimed again for each later delivery's time, or another session may take it over
        if (n > 0 && !(await this.held.claimHandOver(id, this.claimant, HAND_OVER_CLAIM_MS)))
          throw new Error('sandbox backlog claimed by another session');
        const received = await this.received(
          delivery.map((h) => h.message),
          delivery.map((h) => h.writtenAt.getTime()),
        );
        await this.ev.emit(
          'messages',
          received.map((m) => ({ ...m, backlog: true })),
        );
        await this.held.delivered(
          id,
          delivery.map((h) => h.seq),
        );
      }
    } finally {
      await this.held
        .releaseHandOver(id, this.claimant)
        .catch((err: unknown) => this.logger.warn({ err, connectionId: id }, 'sandbox backlog claim not released'));
    }
  }

  /** The backlog is tried again HAND_OVER_RETRY_MS from now, while the session is up (once, however often asked). */
  private handOverLater(): void {
    if (this.handOverRetry) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.handOverRetry = undefined;
      if (this.open) void this.handOver();
    }, HAND_OVER_RETRY_MS);
    this.handOverRetry = t;
    this.timers.add(t);
  }

  /**
   * Delivers messages as WhatsApp would, in one delivery (one message live, several like the backlog a phone
   * hands over when it comes online); resolves once every listener handled them (the session runner published
   * them to JetStream). Answers their WhatsApp message ids, in order. Not connected (isOffline), its WhatsApp servers
   * hold them for the reconnect, with the time they were written. None: a nudge that something was held for the phone
   * while its session seemed to run nowhere (the command router's), handed over now.
   */
  async deliverInbound(requests: SandboxInboundRequest[]): Promise<string[]> {
    if (!this.open && !this.isOffline()) throw new ProviderClosedError(this.kind);
    if (requests.length === 0) {
      if (this.open) {
        this.backlogClear = false;
        await this.handOver();
      }
      return [];
    }
    const written = requests.map((req): WrittenMessage => ({ ...req, id: req.id ?? whatsappMessageId() }));
    const ids = written.map((m) => m.id);
    if (!this.open) {
      // not connected: WhatsApp keeps them for the phone, with the time they were written
      await this.held.hold(this.ctx.connectionId, this.ctx.companyId, written, new Date(wholeSecond(Date.now())));
      // connected meanwhile: its hand-over may have looked before these were kept
      if (this.open) void this.handOver();
      return ids;
    }
    // written after the backlog still being handed over: they follow it (held behind it while it cannot be handed over)
    if (!this.backlogClear) {
      await this.handOver();
      if (!this.backlogClear) {
        await this.held.hold(this.ctx.connectionId, this.ctx.companyId, written, new Date(wholeSecond(Date.now())));
        void this.handOver();
        return ids;
      }
    }
    const timestamp = wholeSecond(Date.now());
    await this.ev.emit(
      'messages',
      await this.received(
        written,
        written.map(() => timestamp),
      ),
    );
    return ids;
  }

  /**
   * Messages as the phone receives them, each written at its time (ms, whole seconds): mapped as Baileys' mapping
   * gives them, their senders remembered as on WhatsApp.
   */
  private async received(written: readonly WrittenMessage[], timestamps: readonly number[]): Promise<ReceivedMessage[]> {
    // as WhatsApp: whoever writes is on it (a customer who had left came back), whatever the number's length
    const senders = new Map<string, string>();
    for (const req of written) {
      // a bare LID (`fromLid` alone) shows no number: nothing to remember
      if (!req.from) continue;
      this.left.delete(req.from);
      for (const form of numberForms(req.from)) senders.set(form, `${req.from}@s.whatsapp.net`);
    }
    for (const [number, jid] of senders) this.wrote.set(number, jid);
    await this.jids
      .remember([...senders].map(([number, jid]) => ({ number, jid })))
      .catch((err: unknown) => this.logger.warn({ err, connectionId: this.ctx.connectionId }, 'sandbox senders not remembered'));
    return written.flatMap((req, i): ReceivedMessage[] => {
      const content = req.undecryptable
        ? UNDECRYPTABLE
        : req.media
          ? mediaContent(req.media, req.body)
          : (specialContent(req) ?? { mediaType: 'chat' as const, body: req.body, file: null });
      // as WhatsApp: a text without text is no message
      if (!req.undecryptable && !req.media && !req.body && !('extra' in content)) return [];
      const message = {
        companyId: this.ctx.companyId,
        connectionId: this.ctx.connectionId,
        waMessageId: req.id,
        // a group's message is the group's conversation, as Baileys maps a `@g.us` remoteJid; a bare LID is its address
        // (`<lid>@lid`) and a LID-addressed message with the number (`remoteJidAlt`) the number's, with its LID
        from: req.groupId ?? req.from ?? lidAddress(req.fromLid ?? ''),
        ...(req.fromLid && req.from && !req.groupId ? { fromLid: req.fromLid } : {}),
        fromName: req.name ?? '',
        body: content.body,
        mediaType: content.mediaType,
        fromMe: false,
        isGroup: req.groupId !== undefined,
        timestamp: timestamps[i] as number,
        quotedWaMessageId: null,
        // as Baileys' mapping of a CIPHERTEXT stub: waiting for the phone's resend (a later message with this id)
        ...(req.undecryptable ? { resend: 'waiting' as const } : {}),
        // as Baileys' mapping: a voice note (`audioMessage.ptt`), a place, contact cards, a reaction
        ...(req.voice && content.mediaType === 'audio' ? { voice: true } : {}),
        ...('extra' in content ? content.extra : {}),
      };
      const file = content.file;
      return [{ message, file: file && { mimetype: file.mimetype, fileName: file.fileName, open: () => this.openMedia(file.key) } }];
    });
  }

  async sendMessage(to: ChatAddress, content: OutgoingContent, options: SendOptions): Promise<void> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    // as WhatsApp: a number that is not on it cannot be sent to (the stand-in's rule: 12 or 13 digits)
    if (to.kind === 'phone' && !(await this.checkNumber(to.id)).exists) throw new NotOnWhatsappError(to.id);
    // the moment the phone was asked to send (what pacing is about), not when its record was written
    const sentAt = new Date();
    // a file goes over the wire as its bytes: what the phone received is recorded by size and digest
    const media =
      'media' in content
        ? {
            mimetype: content.media.mimetype,
            fileName: content.media.fileName,
            ...(await digest(content.media.stream)),
            ...(content.media.ptt ? { ptt: true } : {}),
          }
        : null;
    await this.outbox.record({
      connectionId: this.ctx.connectionId,
      companyId: this.ctx.companyId,
      waMessageId: options.messageId,
      to: recipient(to),
      body: sentBody(content),
      media,
      ...('location' in content ? { location: content.location } : {}),
      ...('contact' in content ? { contact: content.contact } : {}),
      ...('reaction' in content ? { reaction: { waMessageId: content.reaction.message.id, emoji: content.reaction.emoji } } : {}),
      sentAt,
    });
    [1, 2, 3, 4].forEach((ack, i) => this.ackLater(i * this.ackStepMs, { waMessageId: options.messageId, ack }));
  }

  /** An edit reaches the phone: recorded (kind `edit`, the new text) under the message's id. */
  async editMessage(to: ChatAddress, message: MessageRef, text: string): Promise<void> {
    await this.change(to, message, 'edit', text);
  }

  /** A deletion for everyone reaches the phone: recorded (kind `delete`) under the message's id. */
  async deleteMessage(to: ChatAddress, message: MessageRef): Promise<void> {
    await this.change(to, message, 'delete', '');
  }

  private async change(to: ChatAddress, message: MessageRef, kind: 'edit' | 'delete', body: string): Promise<void> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    // as WhatsApp: only one's own messages can be changed
    if (!message.fromMe || !message.id) throw new Error(`sandbox: only messages sent from this phone can be changed (${kind})`);
    await this.outbox.record({
      connectionId: this.ctx.connectionId,
      companyId: this.ctx.companyId,
      waMessageId: message.id,
      to: recipient(to),
      body,
      kind,
    });
  }

  /** A received file: where the sandbox's WhatsApp keeps it (the media storage, under its key). */
  private async openMedia(key: string): Promise<Readable> {
    const found = await this.storage.get(key);
    if (!found) throw new Error('sandbox: no such media');
    return found.stream;
  }

  /** The stand-in phone's address book: what a test gave it (POST …/sandbox/contacts). */
  async addressBook(): Promise<AddressBookEntry[]> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    return this.book;
  }

  setAddressBook(entries: AddressBookEntry[]): void {
    this.book = entries.map((e) => ({ number: e.number, name: e.name }));
  }

  leaveWhatsapp(number: string): void {
    this.left.add(number);
  }

  /**
   * A customer calls the phone (Baileys' `call` event of status `offer`): the call rings (kept as `ringing`) and its
   * offer is told once; resolves once the listeners handled it (the offer is on JetStream). Answers the call's id,
   * 32 hex digits as WhatsApp's.
   */
  async offerCall(call: { from: string; isVideo: boolean }): Promise<string> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    const id = randomBytes(16).toString('hex').toUpperCase();
    const at = Math.floor(Date.now() / 1000) * 1000;
    await this.calls?.offered({ ...this.ctx, callId: id, from: call.from, isVideo: call.isVideo, offeredAt: new Date(at) });
    await this.ev.emit('call', { id, from: call.from, isVideo: call.isVideo, isGroup: false, at });
    return id;
  }

  /** The phone declines the call (kept as `rejected`); a call it no longer rings is declined without complaint, as WhatsApp does. */
  async rejectCall(call: CallRef): Promise<void> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    await this.calls?.rejected(this.ctx.connectionId, call.id);
  }

  /** The phone's user types or records in a chat, or stops: kept for GET …/sandbox/presence, as the customer would see it. */
  async sendPresence(to: ChatAddress, state: ChatPresence): Promise<void> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    this.presences.push({ to: recipient(to), state, at: Date.now() });
    if (this.presences.length > SANDBOX_PRESENCES_KEPT) this.presences.splice(0, this.presences.length - SANDBOX_PRESENCES_KEPT);
  }

  presencesSent(): Array<{ to: string; state: ChatPresence; at: number }> {
    return this.presences.map((p) => ({ ...p }));
  }

  /** A customer types or records in their chat with the phone, or stops (Baileys' `presence.update` of a one-to-one chat). */
  async presenceFrom(from: string, state: ChatPresence): Promise<void> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    await this.ev.emit('presence', [{ from, state }]);
  }

  /**
   * WhatsApp's history sync, as Baileys' `messaging-history.set` reaches us: its contacts join the address book (a
   * number already in it takes the new name), the LID pairs it tells (a contact's LID, a LID-addressed conversation's)
   * are one `lids` event, then its messages are one delivery marked history, each with its own time (WhatsApp's clock:
   * whole seconds) and no file; which of them are imported is the runtime's rule (history.ts), as for Baileys'.
   */
  async historySync(sync: SandboxHistoryRequest): Promise<string[]> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    const contacts = sync.contacts ?? [];
    const book = new Map(this.book.map((e) => [e.number, e]));
    for (const c of contacts) book.set(c.number, { number: c.number, name: c.name });
    this.book = [...book.values()];
    const pairs = new Map<string, string>();
    for (const c of contacts) if (c.lid) pairs.set(c.lid, c.number);
    for (const m of sync.messages ?? []) if (m.fromLid) pairs.set(m.fromLid, m.from);
    if (pairs.size > 0)
      await this.ev.emit(
        'lids',
        [...pairs].map(([lid, pn]) => ({ lid, pn })),
      );
    const ids = (sync.messages ?? []).map((m) => m.id ?? whatsappMessageId());
    const messages = (sync.messages ?? []).map((m, i): ReceivedMessage => ({
      message: {
        companyId: this.ctx.companyId,
        connectionId: this.ctx.connectionId,
        waMessageId: ids[i] as string,
        from: m.from,
        ...(m.fromLid ? { fromLid: m.fromLid } : {}),
        fromName: '',
        body: m.body,
        mediaType: 'chat',
        fromMe: m.fromMe === true,
        isGroup: false,
        timestamp: Math.floor(m.timestamp / 1000) * 1000,
        quotedWaMessageId: null,
      },
      file: null,
      history: true,
    }));
    if (messages.length > 0) await this.ev.emit('messages', messages);
    return ids;
  }

  /** WhatsApp tells the phone which number a LID stands for: one `lids` event, as Baileys' `lid-mapping.update`. */
  async lidMapping(lid: string, pn: string): Promise<void> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    await this.ev.emit('lids', [{ lid, pn }]);
  }

  /**
   * The stand-in phone's WhatsApp: every number that wrote to the connection is on it (under the jid it wrote from,
   * in either form of a Brazilian mobile; remembered across restarts), and every number of 12 or 13 digits, no
   * other, but those who left it.
   */
  async checkNumber(number: string): Promise<NumberCheckResult> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    if (this.left.has(number)) return { exists: false, jid: null };
    const wrote = this.wrote.get(number);
    if (wrote) return { exists: true, jid: wrote };
    if (/^\d{12,13}$/.test(number)) return { exists: true, jid: `${number}@s.whatsapp.net` };
    const remembered = await this.jids.find(number).catch((err: unknown) => {
      this.logger.warn({ err, connectionId: this.ctx.connectionId }, 'sandbox senders not read');
      return null;
    });
    return remembered ? { exists: true, jid: remembered.jid } : { exists: false, jid: null };
  }

  /** The same rule, for many numbers at once. */
  async checkNumbers(numbers: string[]): Promise<NumberCheckManyResult['results']> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    return Promise.all(numbers.map(async (number) => ({ number, ...(await this.checkNumber(number)) })));
  }

  /**
   * WhatsApp bans the number: the session closes as Baileys' closes on a 403 (forbidden; the runner ends it
   * logged out, with the reason `banned`). Told after the caller's answer, as a socket's close comes on its own.
   */
  ban(): void {
    this.disconnect(CloseCodes.forbidden);
  }

  /**
   * WhatsApp closes the session with `code`, as Baileys' socket closes (the runner decides what follows: a new
   * start reopens it). Told after the caller's answer, as a socket's close comes on its own.
   */
  disconnect(code: number): void {
    if (!this.open) throw new ProviderClosedError(this.kind);
    this.open = false;
    this.closeSoon(code);
  }

  /** The socket's close, told after the caller's answer (as a socket's close comes on its own). */
  private closeSoon(code: number): void {
    setImmediate(() => {
      this.ev
        .emit('connection', { kind: 'close', code })
        .catch((err: unknown) => this.logger.warn({ err, connectionId: this.ctx.connectionId, code }, 'sandbox close not handled'));
    });
  }

  async end(): Promise<void> {
    this.open = false;
    this.ended = true;
    this.awaitingPairing = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.handOverRetry = undefined;
    this.acksDue.clear();
  }

  async logout(): Promise<void> {
    await this.end();
    // unpaired: what WhatsApp held for this phone is not for a new pairing (a hand-over under way stops at its next delivery)
    await this.held.forget(this.ctx.connectionId);
  }

  /** A status change reported `ms` from now, with the others that fall due in the same tick. */
  private ackLater(ms: number, update: WaAckEntry): void {
    const due = Math.ceil((Date.now() + ms) / ACK_TICK_MS) * ACK_TICK_MS;
    const waiting = this.acksDue.get(due);
    if (waiting) {
      waiting.push(update);
      return;
    }
    const updates = [update];
    this.acksDue.set(due, updates);
    this.later(Math.max(0, due - Date.now()), async () => {
      this.acksDue.delete(due);
      await this.ev.emit('acks', updates);
    });
  }

  private later(ms: number, fn: () => Promise<void>): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.open) return;
      fn().catch((err: unknown) => this.logger.warn({ err, connectionId: this.ctx.connectionId }, 'sandbox ack not handled'));
    }, ms);
    this.timers.add(t);
  }
}

/** WhatsApp's clock: whole seconds (in ms). */
function wholeSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

/** A message Baileys could not decrypt (a CIPHERTEXT stub), as its mapping gives it: no text, no file. */
const UNDECRYPTABLE = { mediaType: 'ciphertext' as const, body: '', file: null };

/**
 * A file a customer sends, as WhatsApp delivers it: its family by the file's type (a picture, a video, an audio,
 * or else a document), the caption as the body (a document without one: its name; an audio has none), the type it
 * is kept as (safeInboundType) and, for a document, its name.
 */
function mediaContent(
  media: SandboxInboundMedia,
  caption: string,
): { mediaType: MediaType; body: string; file: Omit<ReceivedFile, 'open'> & { key: string } } {
  const family = media.mimetype.split('/')[0];
  const kind = family === 'image' || family === 'video' || family === 'audio' ? family : 'document';
  const file = {
    key: media.key,
    mimetype: safeInboundType(kind, media.mimetype),
    fileName: kind === 'document' ? (media.fileName ?? null) : null,
  };
  if (kind === 'audio') return { mediaType: 'audio', body: '', file };
  if (kind === 'document') return { mediaType: 'application', body: caption || (media.fileName ?? ''), file };
  return { mediaType: kind, body: caption || '', file };
}

/** The text a send shows: a text's, a file's caption, a place's "lat,long", a contact's vCard, a reaction's emoji. */
function sentBody(content: OutgoingContent): string {
  if ('media' in content) return content.media.caption;
  if ('location' in content) return `${content.location.latitude},${content.location.longitude}`;
  if ('contact' in content) return content.contact.vcard;
  if ('reaction' in content) return content.reaction.emoji;
  return content.text;
}

/**
 * A sandbox message that is a place, contact cards or a reaction, as Baileys' mapping gives its
 * `locationMessage`, `contactMessage`/`contactsArrayMessage` and `reactionMessage`; null for any other.
 */
function specialContent(req: SandboxInboundRequest): {
  mediaType: MediaType;
  body: string;
  file: null;
  extra: Pick<WaInboundMessage, 'location' | 'contacts' | 'reaction'>;
} | null {
  if (req.location) {
    const { latitude, longitude, name, address } = req.location;
    return {
      mediaType: 'locationMessage',
      body: `${latitude},${longitude}`,
      file: null,
      extra: { location: { latitude, longitude, name: name || null, address: address || null } },
    };
  }
  if (req.vcards?.length) {
    const one = req.vcards.length === 1;
    return {
      mediaType: one ? 'vcard' : 'contactMessage',
      body: req.vcards.join('\n'),
      file: null,
      extra: { contacts: req.vcards.map((v) => contactCardOf(v)) },
    };
  }
  if (req.reaction) {
    return { mediaType: 'chat', body: req.reaction.emoji, file: null, extra: { reaction: { ...req.reaction } } };
  }
  return null;
}

/** Whom the outbox names as a send's recipient: the number or group id, a LID as its address (`<lid>@lid`). */
function recipient(to: ChatAddress): string {
  return to.kind === 'lid' ? lidAddress(to.id) : to.id;
}

/** Size and SHA-256 of a stream, read to its end. */
async function digest(stream: Readable): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    const buf = chunk as Buffer;
    size += buf.length;
    hash.update(buf);
  }
  return { size, sha256: hash.digest('hex') };
}
