import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Logger } from '@nestjs/common';
import type { WAMessage, WAMessageKey, WAMessageUpdate } from '@whiskeysockets/baileys';
import type { AddressBookEntry, NumberCheckResult, SandboxInboundMedia, SandboxInboundRequest } from '@wa/contracts';
import { whatsappMessageId, type MediaStorage } from '@wa/server-kit';
import { jidToContact } from '../baileys/mapping.js';
import { NotOnWhatsappError, ProviderClosedError, ProviderEvents, type OutgoingContent, type ProviderContext, type SendOptions, type SessionProvider } from '../provider.js';
import type { SandboxOutboxStore } from './sandbox-outbox.store.js';

/** Status changes due within this many ms of each other go out in one `messages.update`. */
const ACK_TICK_MS = 25;

/**
 * A stand-in phone behind the same interface as the Baileys provider: it pairs at once (OPENING →
 * CONNECTED, no QR), delivers injected messages as Baileys `messages.upsert` events, records what it
 * sends (the outbox) and reports each sent message as sent (1) at once, then server (2), delivered (3)
 * and read (4), one `ackStepMs` apart, as `messages.update` events. Like WhatsApp, it reports the status
 * changes that fall due together (within ACK_TICK_MS) in one event.
 */
export class SandboxProvider implements SessionProvider {
  readonly kind = 'sandbox' as const;
  readonly ev = new ProviderEvents();
  private readonly logger = new Logger(SandboxProvider.name);
  private readonly timers = new Set<NodeJS.Timeout>();
  /** status changes waiting for their tick, by the tick's time */
  private readonly acksDue = new Map<number, WAMessageUpdate[]>();
  private open = false;
  private book: AddressBookEntry[] = [];
  /** customers who left WhatsApp (POST …/sandbox/leave) */
  private readonly left = new Set<string>();

  constructor(
    private readonly ctx: ProviderContext,
    private readonly outbox: SandboxOutboxStore,
    private readonly ackStepMs: number,
    private readonly storage: MediaStorage,
  ) {}

  async start(): Promise<void> {
    await this.ev.emit('connection.update', { connection: 'connecting' });
    this.open = true;
    await this.ev.emit('connection.update', { connection: 'open', isOnline: true });
  }

  /**
   * Delivers messages as WhatsApp would, in one `messages.upsert` (one message live, several like the
   * backlog a phone hands over when it comes online); resolves once every listener handled them (the
   * session runner published them to JetStream). Answers their WhatsApp message ids, in order.
   */
  async deliverInbound(requests: SandboxInboundRequest[]): Promise<string[]> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    // as WhatsApp: whoever writes is on it (a customer who had left came back)
    for (const req of requests) this.left.delete(req.from);
    const timestamp = Math.floor(Date.now() / 1000);
    const messages: WAMessage[] = requests.map((req) => ({
      key: { remoteJid: `${req.from}@s.whatsapp.net`, fromMe: false, id: req.id ?? whatsappMessageId() },
      pushName: req.name ?? null,
      messageTimestamp: timestamp,
      message: req.media ? mediaContent(req.media, req.body) : { conversation: req.body },
    }));
    await this.ev.emit('messages.upsert', { messages, type: 'notify' });
    return messages.map((m) => m.key.id as string);
  }

  async sendMessage(jid: string, content: OutgoingContent, options: SendOptions): Promise<{ key: WAMessageKey }> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    // as WhatsApp: a number that is not on it cannot be sent to (the stand-in's rule: 12 or 13 digits)
    if (jid.endsWith('@s.whatsapp.net') && !(await this.checkNumber(jidToContact(jid))).exists) {
      throw new NotOnWhatsappError(jidToContact(jid));
    }
    const key: WAMessageKey = { remoteJid: jid, fromMe: true, id: options.messageId };
    // the moment the phone was asked to send (what pacing is about), not when its record was written
    const sentAt = new Date();
    // a file goes over the wire as its bytes: what the phone received is recorded by size and digest
    const media = 'media' in content ? { mimetype: content.media.mimetype, fileName: content.media.fileName, ...(await digest(content.media.stream)) } : null;
    await this.outbox.record({
      connectionId: this.ctx.connectionId,
      companyId: this.ctx.companyId,
      waMessageId: options.messageId,
      to: jidToContact(jid),
      body: 'media' in content ? content.media.caption : content.text,
      media,
      sentAt,
    });
    [1, 2, 3, 4].forEach((status, i) => this.ackLater(i * this.ackStepMs, { key, update: { status } }));
    return { key };
  }

  /** An edit reaches the phone: recorded (kind `edit`, the new text) under the message's id. */
  async editMessage(jid: string, key: WAMessageKey, text: string): Promise<void> {
    await this.change(jid, key, 'edit', text);
  }

  /** A deletion for everyone reaches the phone: recorded (kind `delete`) under the message's id. */
  async deleteMessage(jid: string, key: WAMessageKey): Promise<void> {
    await this.change(jid, key, 'delete', '');
  }

  private async change(jid: string, key: WAMessageKey, kind: 'edit' | 'delete', body: string): Promise<void> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    // as WhatsApp: only one's own messages can be changed
    if (!key.fromMe || !key.id) throw new Error(`sandbox: only messages sent from this phone can be changed (${kind})`);
    await this.outbox.record({ connectionId: this.ctx.connectionId, companyId: this.ctx.companyId, waMessageId: key.id, to: jidToContact(jid), body, kind });
  }

  /** A received file: where the sandbox's WhatsApp keeps it (the message's `url`, a media storage key). */
  async downloadMedia(message: WAMessage): Promise<Readable> {
    const content = message.message ?? {};
    const url = (content.imageMessage ?? content.videoMessage ?? content.audioMessage ?? content.documentMessage)?.url ?? '';
    const found = url.startsWith(SANDBOX_MEDIA_URL) ? await this.storage.get(url.slice(SANDBOX_MEDIA_URL.length)) : null;
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

  /** The stand-in phone's WhatsApp: every number of 12 or 13 digits is on it, no other, but those who left it. */
  async checkNumber(number: string): Promise<NumberCheckResult> {
    if (!this.open) throw new ProviderClosedError(this.kind);
    const exists = /^\d{12,13}$/.test(number) && !this.left.has(number);
    return { exists, jid: exists ? `${number}@s.whatsapp.net` : null };
  }

  async end(): Promise<void> {
    this.open = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.acksDue.clear();
  }

  async logout(): Promise<void> {
    await this.end();
  }

  /** A status change reported `ms` from now, with the others that fall due in the same tick. */
  private ackLater(ms: number, update: WAMessageUpdate): void {
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
      await this.ev.emit('messages.update', updates);
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

/** How a sandbox message names its file: the scheme, then the media storage key. */
export const SANDBOX_MEDIA_URL = 'sandbox-media:';

/** A media message as WhatsApp delivers it: the content type by the file's family, the caption, the file's url. */
function mediaContent(media: SandboxInboundMedia, caption: string): NonNullable<WAMessage['message']> {
  const common = { url: `${SANDBOX_MEDIA_URL}${media.key}`, mimetype: media.mimetype, fileLength: media.size };
  const family = media.mimetype.split('/')[0];
  if (family === 'image') return { imageMessage: { ...common, caption: caption || null } };
  if (family === 'video') return { videoMessage: { ...common, caption: caption || null } };
  if (family === 'audio') return { audioMessage: { ...common } };
  return { documentMessage: { ...common, fileName: media.fileName, caption: caption || null } };
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
