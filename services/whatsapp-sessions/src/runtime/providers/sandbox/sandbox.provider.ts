import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Logger } from '@nestjs/common';
import type {
  AddressBookEntry,
  MediaType,
  NumberCheckManyResult,
  NumberCheckResult,
  SandboxInboundMedia,
  SandboxInboundRequest,
  WaAckEntry,
} from '@wa/contracts';
import { type MediaStorage } from '@wa/server-kit';
import { whatsappMessageId } from '@wa/domain';
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
  type SendOptions,
  type SessionProvider,
} from '../provider.js';
import { safeInboundType } from '../received-file-type.js';
import { CloseCodes } from '../../reconnect-backoff.js';
import type { SandboxOutboxRepository } from './sandbox-outbox.repository.js';

/** Status changes due within this many ms of each other go out in one `messages.update`. */
const ACK_TICK_MS = 25;

/** Baileys' DisconnectReason.connectionLost: how a socket closes when the network is gone. */
const CONNECTION_LOST = 408;

/** Messages per delivery of an offline backlog (WhatsApp hands a long one over in several `append` upserts). */
const BACKLOG_PER_DELIVERY = 50;

/** A phone cut off (`offline`): until when, and what customers wrote meanwhile, in the order written. */
interface Outage {
  until: number;
  held: ReceivedMessage[];
}

/**
 * The sandbox's WhatsApp servers, per connection in this process: an outage outlives the provider that began it (a
 * "try again" during it launches a new one), as WhatsApp keeps a phone's messages until it comes back. Forgotten on a
 * logout (a new pairing does not get them); a session that moves to another process meanwhile does not get them.
 */
const outages = new Map<number, Outage>();

/**
 * A stand-in phone behind the same interface as the Baileys provider: it pairs at once (OPENING →
 * CONNECTED, no QR), delivers injected messages as one `messages` event, as WhatsApp hands them to Baileys
 * (and Baileys' mapping to us), records what it sends (the outbox) and reports each sent message as sent (1)
 * at once, then server (2), delivered (3) and read (4), one `ackStepMs` apart, as `acks` events. Like WhatsApp,
 * it reports the status changes that fall due together (within ACK_TICK_MS) in one event. Cut off (`offline`), it
 * drops the connection as a network loss does, holds what customers write and hands it over on the reconnect (the
 * offline backlog: deliveries marked `backlog`, each message with the time it was written).
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

  /** `jids`: the company's remembered jids, where the numbers that wrote are kept across restarts (as Baileys keeps its senders) */
  constructor(
    private readonly ctx: ProviderContext,
    private readonly outbox: SandboxOutboxRepository,
    private readonly ackStepMs: number,
    private readonly storage: MediaStorage,
    private readonly jids: KnownJids,
  ) {}

  async start(): Promise<void> {
    const outage = outages.get(this.ctx.connectionId);
    if (outage && outage.until > Date.now()) {
      // no network yet: the attempt fails as a socket's does, and the runner tries again later
      this.closeSoon(CONNECTION_LOST);
      return;
    }
    this.open = true;
    await this.ev.emit('connection', { kind: 'status', status: 'CONNECTED', qrcode: '' });
    if (outage) void this.handOver();
  }

  /**
   * The phone loses its network for `seconds`: the connection drops as on a network loss (408, connection lost: the
   * runner reconnects by the disconnect table, and every attempt before the time is up fails the same way). What
   * customers write meanwhile is held and handed over on the reconnect.
   */
  offline(seconds: number): void {
    if (!this.open) throw new ProviderClosedError(this.kind);
    const held = outages.get(this.ctx.connectionId)?.held ?? [];
    outages.set(this.ctx.connectionId, { until: Date.now() + seconds * 1000, held });
    this.disconnect(CONNECTION_LOST);
  }

  isOffline(): boolean {
    return !this.open && outages.has(this.ctx.connectionId);
  }

  /**
   * The offline backlog, as WhatsApp hands it to a phone that comes back: in the order written, BACKLOG_PER_DELIVERY
   * at a time, each delivery once the last one was handled (published); one that fails stays held, with what follows
   * it, and is tried again a second later while the session is up.
   */
  private handOver(): Promise<void> {
    this.handingOver ??= (async () => {
      const outage = outages.get(this.ctx.connectionId);
      try {
        while (outage && this.open && outage.held.length > 0) {
          const delivery = outage.held.slice(0, BACKLOG_PER_DELIVERY);
          await this.ev.emit('messages', delivery);
          outage.held.splice(0, delivery.length);
        }
        if (outage && outage.held.length === 0 && outages.get(this.ctx.connectionId) === outage) outages.delete(this.ctx.connectionId);
      } catch (err) {
        this.logger.warn(
          { err, connectionId: this.ctx.connectionId, held: outage?.held.length },
          'sandbox backlog not handed over; trying again',
        );
        this.later(1000, () => this.handOver());
      } finally {
        this.handingOver = undefined;
      }
    })();
    return this.handingOver;
  }

  /**
   * Delivers messages as WhatsApp would, in one delivery (one message live, several like the backlog a phone
   * hands over when it comes online); resolves once every listener handled them (the session runner published
   * them to JetStream). Answers their WhatsApp message ids, in order.
   */
  async deliverInbound(requests: SandboxInboundRequest[]): Promise<string[]> {
    const outage = this.open ? undefined : outages.get(this.ctx.connectionId);
    if (!this.open && !outage) throw new ProviderClosedError(this.kind);
    // as WhatsApp: whoever writes is on it (a customer who had left came back), whatever the number's length
    const senders = new Map<string, string>();
    for (const req of requests) {
      this.left.delete(req.from);
      for (const form of numberForms(req.from)) senders.set(form, `${req.from}@s.whatsapp.net`);
    }
    for (const [number, jid] of senders) this.wrote.set(number, jid);
    await this.jids
      .remember([...senders].map(([number, jid]) => ({ number, jid })))
      .catch((err: unknown) => this.logger.warn({ err, connectionId: this.ctx.connectionId }, 'sandbox senders not remembered'));
    const timestamp = Math.floor(Date.now() / 1000) * 1000;
    const ids = requests.map((req) => req.id ?? whatsappMessageId());
    const messages = requests.flatMap((req, i): ReceivedMessage[] => {
      const content = req.media ? mediaContent(req.media, req.body) : { mediaType: 'chat' as const, body: req.body, file: null };
      // as WhatsApp: a text without text is no message
      if (!req.media && !req.body) return [];
      const message = {
        companyId: this.ctx.companyId,
        connectionId: this.ctx.connectionId,
        waMessageId: ids[i] as string,
        // a group's message is the group's conversation, as Baileys maps a `@g.us` remoteJid
        from: req.groupId ?? req.from,
        fromName: req.name ?? '',
        body: content.body,
        mediaType: content.mediaType,
        fromMe: false,
        isGroup: req.groupId !== undefined,
        timestamp,
        quotedWaMessageId: null,
      };
      const file = content.file;
      return [{ message, file: file && { mimetype: file.mimetype, fileName: file.fileName, open: () => this.openMedia(file.key) } }];
    });
    if (outage) {
      // cut off: WhatsApp keeps them for the phone, with the time they were written
      outage.held.push(...messages.map((m) => ({ ...m, backlog: true })));
      return ids;
    }
    // written after the backlog still being handed over: they follow it (held behind it while it cannot be handed over)
    if (outages.has(this.ctx.connectionId)) {
      await this.handOver();
      const behind = outages.get(this.ctx.connectionId);
      if (behind && behind.held.length > 0) {
        behind.held.push(...messages);
        return ids;
      }
    }
    await this.ev.emit('messages', messages);
    return ids;
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
        ? { mimetype: content.media.mimetype, fileName: content.media.fileName, ...(await digest(content.media.stream)) }
        : null;
    await this.outbox.record({
      connectionId: this.ctx.connectionId,
      companyId: this.ctx.companyId,
      waMessageId: options.messageId,
      to: to.id,
      body: 'media' in content ? content.media.caption : content.text,
      media,
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
      to: to.id,
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
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.acksDue.clear();
  }

  async logout(): Promise<void> {
    // unpaired: what WhatsApp held for this phone is not for a new pairing
    outages.delete(this.ctx.connectionId);
    await this.end();
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
