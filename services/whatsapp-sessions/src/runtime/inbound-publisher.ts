import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import {
  PresenceSubjects,
  WaSubjects,
  type WaAckEntry,
  type WaAcks,
  type WaCall,
  type WaInboundBatch,
  type WaInboundMessage,
  type WaMedia,
  type WaPresence,
} from '@wa/contracts';
import { MediaStorage, inboundMediaKey, inboundMediaName, mediaContentType, metricsRegistry } from '@wa/server-kit';
import { Counter } from 'prom-client';
import type { Readable } from 'node:stream';
import { EventBus, announce } from '@wa/event-bus';
import { lidOfAddress } from '@wa/domain';
import { WhatsappSessionsEnv } from '../config/env.js';
import { countHistory, isRecentHistory } from './history.js';
import { LidMap } from './lid-map.js';
import type { LiveSession } from './live-session.js';
import { NotOnWhatsapp } from './not-on-whatsapp.js';
import type { IncomingCall, ProviderEventMap, ReceivedFile, ReceivedMessage } from './providers/provider.js';
import { SessionStore } from './session-store.repository.js';
import { subjectToken } from './subject-token.js';
import { SessionStats } from './session-stats.js';
import { UndecryptableMessages } from './undecryptable.js';

type SessionRef = Pick<LiveSession, 'id' | 'companyId'>;

/** A received message ready to publish: the event, its msg id, and what counts it once it is on JetStream. */
interface Prepared {
  inbound: WaInboundMessage;
  msgId: string;
  published: () => void;
  /** on the stream (set once its publish answered) */
  out?: boolean;
}

/** A status change of a send, and the session that was told it. */
export type SessionAck = WaAckEntry & { session: SessionRef };

/** Status changes per `wa.ack` event (a few dozen bytes each; far below the bus's message size). */
const ACKS_PER_EVENT = 500;

/** The WA stream's duplicate window (the bus's default): a msg id published again within it is dropped as a repeat. */
const DUPLICATE_WINDOW_MS = 2 * 60_000;
/** Msg ids of received messages this process remembers having published, at most (the oldest go first). */
const PUBLISHED_MAX = 200_000;

/** Messages in one WaInboundBatch at most. */
const BATCH_MAX_MESSAGES = 500;
/** A WaInboundBatch's size at most, as sizeOf estimates it (the bus takes 1 MB). */
const BATCH_MAX_BYTES = 512 * 1024;

/** About how many bytes a message takes in a batch: its texts and cards, and a kilobyte for the rest (ids, file). */
function sizeOf(m: WaInboundMessage): number {
  return 1024 + Buffer.byteLength(m.body ?? '') + (m.contacts?.length ? Buffer.byteLength(JSON.stringify(m.contacts)) : 0);
}

/** Attempts at fetching a received file before the message goes on without it. */
const DOWNLOAD_ATTEMPTS = 2;
/** A download that has not finished by then is given up (a stalled one must not hold the conversation). */
const DOWNLOAD_TIMEOUT_MS = 120_000;

/**
 * The offline backlog each connection received: messages written while its phone was offline, delivered on the
 * reconnect (Baileys' `append` upserts; the sandbox's `offline`), counted once each when first published.
 */
const backlogMessages = new Counter({
  name: 'whatsapp_sessions_backlog_messages_total',
  help: "Messages written while a connection's phone was offline, delivered on its reconnect and published, per connection",
  labelNames: ['connectionId'] as const,
  registers: [metricsRegistry],
});

/**
 * What a session receives, onto JetStream: a message as `wa.inbound.<companyId>.<connectionId>.<contact>`
 * (msg id `<connectionId>:<waMessageId>`), several received together as one batch on
 * `wa.inbound.<companyId>.<connectionId>.batch`; status changes of our sends as `wa.ack.<companyId>.<connectionId>.all`
 * events, several together (after raising sent_messages.ack).
 */
@Injectable()
export class InboundPublisher {
  private readonly logger = new Logger(InboundPublisher.name);
  /**
   * The msg ids of received messages this process published within the stream's duplicate window, with when: a batch
   * carries its messages under one msg id of its own, so a message handed over again is known a repeat here (one
   * published alone the stream drops by its msg id; after a restart, tickets finds it stored and stores nothing).
   */
  private readonly published = new Map<string, number>();

  constructor(
    private readonly bus: EventBus,
    private readonly store: SessionStore,
    private readonly storage: MediaStorage,
    private readonly notOnWhatsapp: NotOnWhatsapp,
    private readonly undecryptable: UndecryptableMessages,
    private readonly lidMap: LidMap,
    private readonly env: WhatsappSessionsEnv,
    private readonly stats: SessionStats,
  ) {}

  /** WhatsApp told which numbers LIDs stand for: kept in the company's LID map (and announced when new). */
  async lids(s: SessionRef, pairs: ProviderEventMap['lids']): Promise<void> {
    await this.lidMap.learn(s.companyId, pairs);
  }

  /**
   * Customers typing or recording, or stopping: announced on core NATS (`presence.wa.<companyId>.<connectionId>`, no
   * stream keeps them; tickets finds their tickets). A bare LID the company's LID map knows goes by its number, as
   * its messages do.
   */
  async presence(s: SessionRef, presences: ProviderEventMap['presence']): Promise<void> {
    const lids = presences.flatMap((p) => lidOfAddress(p.from) ?? []);
    const pns = lids.length > 0 ? await this.lidMap.pnsOf(s.companyId, lids) : new Map<string, string>();
    const at = Date.now();
    for (const p of presences) {
      const lid = lidOfAddress(p.from);
      const event: WaPresence = { companyId: s.companyId, connectionId: s.id, from: (lid && pns.get(lid)) || p.from, state: p.state, at };
      announce(this.bus, PresenceSubjects.wa(s.companyId, s.id), event);
    }
  }

  /**
   * A customer's LID and number, as the message says or the company's LID map knows: a bare LID (`<lid>@lid`) whose
   * number is known goes on under the number, with its LID; a LID-addressed message carrying the number teaches the
   * map the pair (before the message is published: tickets may merge the LID's contact when it sees it).
   */
  private async withLid(s: SessionRef, inbound: WaInboundMessage): Promise<void> {
    if (inbound.isGroup) return;
    const lid = lidOfAddress(inbound.from);
    if (lid) {
      const pn = (await this.lidMap.pnsOf(s.companyId, [lid])).get(lid);
      if (pn) {
        inbound.from = pn;
        inbound.fromLid = lid;
      }
    } else if (inbound.fromLid) await this.lidMap.learn(s.companyId, [{ lid: inbound.fromLid, pn: inbound.from }]);
  }

  /**
   * Upserts' messages (one turn of the session), made ready one conversation after the other in the order received
   * (its LID, its file, its msg id; different conversations side by side), then published: one message alone as
   * itself, several as one batch on the connection's subject (WaInboundBatch), in the order received. Answers each
   * upsert's failure (undefined when all its messages are on JetStream): a conversation stops at its first message
   * that fails, and that message's upsert and the upserts of the ones after it fail; a failed publish fails every
   * upsert it carried.
   */
  async upsertMany(s: SessionRef, upserts: ReadonlyArray<ProviderEventMap['messages']>): Promise<unknown[]> {
    const conversations = new Map<string, Array<{ m: ReceivedMessage; upsert: number; at: number }>>();
    let at = 0;
    upserts.forEach((u, upsert) => {
      for (const m of u) {
        const key = `${m.message.isGroup ? 'group' : 'contact'}:${m.message.from}`;
        const item = { m, upsert, at: at++ };
        const list = conversations.get(key);
        if (list) list.push(item);
        else conversations.set(key, [item]);
      }
    });
    const failures: unknown[] = upserts.map(() => undefined);
    const ready: Array<{ prepared: Prepared; upsert: number; at: number }> = [];
    await Promise.all(
      [...conversations.values()].map(async (list) => {
        for (let i = 0; i < list.length; i++) {
          try {
            const prepared = await this.prepare(s, list[i].m);
            if (prepared) ready.push({ prepared, upsert: list[i].upsert, at: list[i].at });
          } catch (err) {
            for (let j = i; j < list.length; j++) failures[list[j].upsert] ??= err;
            return;
          }
        }
      }),
    );
    if (ready.length === 0) return failures;
    ready.sort((a, b) => a.at - b.at);
    try {
      await this.publishInbound(
        s,
        ready.map((r) => r.prepared),
      );
    } catch (err) {
      for (const r of ready) failures[r.upsert] ??= err;
    }
    return failures;
  }

  /**
   * Ready messages onto JetStream, in order: one as itself (`wa.inbound.<companyId>.<connectionId>.<contact>`, its own
   * msg id), several as WaInboundBatch events of at most BATCH_MAX_MESSAGES and about BATCH_MAX_BYTES each (the bus
   * takes a message of 1 MB at most), a batch's msg id a digest of its messages'. Counted once published (a repeat is not).
   */
  private async publishInbound(s: SessionRef, all: Prepared[]): Promise<void> {
    // a message handed over again (a replay of its id) within the stream's duplicate window is a repeat, as the stream
    // drops one published alone: in a batch too, whether it came earlier in the same turn or in one before
    const now = Date.now();
    this.forgetPublishedBefore(now - DUPLICATE_WINDOW_MS);
    const seen = new Set<string>();
    const ready = all.filter((r) => {
      if (seen.has(r.msgId) || this.published.has(r.msgId)) return false;
      seen.add(r.msgId);
      return true;
    });
    try {
      await this.publishReady(s, ready);
    } finally {
      // what went out is remembered (a failed publish leaves out only what may not be on the stream)
      for (const r of ready) if (r.out) this.published.set(r.msgId, now);
    }
  }

  /** Forgets the msg ids published before `before` (oldest first: the map keeps them in the order published). */
  private forgetPublishedBefore(before: number): void {
    for (const [msgId, at] of this.published) {
      if (at >= before && this.published.size <= PUBLISHED_MAX) return;
      this.published.delete(msgId);
    }
  }

  private async publishReady(s: SessionRef, ready: Prepared[]): Promise<void> {
    if (ready.length === 0) return;
    if (ready.length === 1) {
      const [{ inbound, msgId, published }] = ready;
      const { duplicate } = await this.bus.publish(WaSubjects.inbound(s.companyId, s.id, subjectToken(inbound.from)), inbound, { msgId });
      ready[0].out = true;
      if (!duplicate) published();
      return;
    }
    for (let from = 0; from < ready.length;) {
      let to = from;
      for (let bytes = 0; to < ready.length && to - from < BATCH_MAX_MESSAGES; to++) {
        bytes += sizeOf(ready[to].inbound);
        if (bytes > BATCH_MAX_BYTES && to > from) break;
      }
      const part = ready.slice(from, to);
      from = to;
      const digest = createHash('sha1');
      for (const r of part) digest.update(`${r.msgId}\n`);
      const batch: WaInboundBatch = { companyId: s.companyId, connectionId: s.id, messages: part.map((r) => r.inbound) };
      const { duplicate } = await this.bus.publish(WaSubjects.inboundBatch(s.companyId, s.id), batch, {
        msgId: WaSubjects.inboundBatchMsgId(s.id, digest.digest('hex')),
      });
      for (const r of part) r.out = true;
      if (!duplicate) for (const r of part) r.published();
    }
  }

  /**
   * Status changes of our messages, of any of the sessions running here (AckWindow gathers them) → sent_messages.ack
   * and `wa.ack.*`: one statement for the lot, then one event per connection, with its own changes in the order told
   * (acks only go up, so the order between connections is moot).
   */
  async updates(acks: readonly SessionAck[]): Promise<void> {
    if (acks.length === 0) return;
    await this.store.raiseAcks(acks.map((a) => ({ connectionId: a.session.id, waMessageId: a.waMessageId, ack: a.ack })));
    const bySession = new Map<number, { s: SessionRef; acks: WaAckEntry[] }>();
    for (const { session, waMessageId, ack } of acks) {
      const group = bySession.get(session.id);
      if (group) group.acks.push({ waMessageId, ack });
      else bySession.set(session.id, { s: session, acks: [{ waMessageId, ack }] });
    }
    await Promise.all([...bySession.values()].map(({ s, acks: own }) => this.acks(s, own)));
  }

  /**
   * Status changes of this connection's sends, published together: one `WaAcks` event per ACKS_PER_EVENT,
   * its msg id a digest of what it says (a retried publish is dropped as a repeat).
   */
  async acks(s: SessionRef, acks: readonly WaAckEntry[]): Promise<void> {
    for (let i = 0; i < acks.length; i += ACKS_PER_EVENT) {
      const part = acks.slice(i, i + ACKS_PER_EVENT).map(({ waMessageId, ack }) => ({ waMessageId, ack }));
      const digest = createHash('sha1');
      for (const a of part) digest.update(`${a.waMessageId}:${a.ack};`);
      const event: WaAcks = { companyId: s.companyId, connectionId: s.id, at: Date.now(), acks: part };
      await this.bus.publish(WaSubjects.acks(s.companyId, s.id), event, { msgId: `${s.id}:acks:${digest.digest('hex')}` });
    }
  }

  /**
   * A call offered to the phone, as `wa.call.<companyId>.<connectionId>.<caller>` (WaCall) with the msg id
   * `<connectionId>:call:<callId>`: one event per call, however often its offer is told.
   */
  async call(s: SessionRef, call: IncomingCall): Promise<void> {
    const event: WaCall = {
      companyId: s.companyId,
      connectionId: s.id,
      callId: call.id,
      from: call.from,
      isVideo: call.isVideo,
      isGroup: call.isGroup,
      at: call.at,
    };
    await this.bus.publish(WaSubjects.call(s.companyId, s.id, subjectToken(call.from)), event, {
      msgId: WaSubjects.callMsgId(s.id, call.id),
    });
  }

  /** A send given up after its tries: ack 0 with the reason, for tickets to mark the message failed. */
  async failed(s: SessionRef, contact: string, waMessageId: string, reason: string): Promise<void> {
    await this.bus.publish(
      WaSubjects.ack(s.companyId, s.id, subjectToken(contact)),
      { companyId: s.companyId, connectionId: s.id, waMessageId, ack: 0, at: Date.now(), failed: reason.slice(0, 500) },
      { msgId: `${s.id}:${waMessageId}:failed` },
    );
  }

  /** A received message made ready to publish (its LID, its file, its msg id), or null when it is not published. */
  private async prepare(s: SessionRef, received: ReceivedMessage): Promise<Prepared | null> {
    if (received.history) return this.prepareHistory(s, received);
    // a copy: a delivery handed over again (a retry) starts from what the provider said
    const inbound: WaInboundMessage = { ...received.message };
    await this.withLid(s, inbound);
    // the echo of a message this connection sent itself; messages typed on the phone do go on
    if (inbound.fromMe && (await this.store.isOurSend(s.id, inbound.waMessageId))) return null;
    // a customer WhatsApp had refused wrote in: back on WhatsApp, sends to it go out again (before tickets hears of it)
    if (!inbound.fromMe) await this.notOnWhatsapp.cameBack(s, inbound.from);
    await this.withMedia(s, received.file, inbound);
    // an undecryptable message is remembered; the phone's resend of one gets a msg id of its own
    const msgId = await this.undecryptable.msgIdOf(s, inbound);
    return {
      inbound,
      msgId,
      published: () => {
        this.stats.received(s.id);
        if (received.backlog) backlogMessages.inc({ connectionId: String(s.id) });
      },
    };
  }

  /**
   * A message of WhatsApp's history sync (history.ts): only a recent one goes on, marked `history`, with its own time
   * and without its file (none is fetched: body or caption only), under the same msg id as if it came live (one that
   * came live too is a repeat; one that came undecryptable is its resend). Nobody wrote just now: a number that had left WhatsApp is not taken back for it.
   */
  private async prepareHistory(s: SessionRef, received: ReceivedMessage): Promise<Prepared | null> {
    if (!isRecentHistory(received.message, this.env.HISTORY_IMPORT_HOURS)) {
      countHistory(s.id, false);
      return null;
    }
    const inbound: WaInboundMessage = { ...received.message, history: true, media: null };
    await this.withLid(s, inbound);
    if (inbound.fromMe && (await this.store.isOurSend(s.id, inbound.waMessageId))) return null;
    // the content of a message that came undecryptable is its resend (it replaces the waiting one)
    const msgId = await this.undecryptable.msgIdOf(s, inbound);
    return { inbound, msgId, published: () => countHistory(s.id, true) };
  }

  /**
   * A received file is stored before its message is published (the event names it): under a key of its
   * own (a replay finds it stored and fetches nothing). When WhatsApp will not give it, the message goes on
   * without it, marked ERR_WAPP_DOWNLOAD_MEDIA: a text is never held back by its picture.
   */
  private async withMedia(s: SessionRef, file: ReceivedFile | null, inbound: WaInboundMessage): Promise<void> {
    if (!file) return;
    const fileName = inboundMediaName(inbound.waMessageId, file.mimetype, file.fileName);
    const key = inboundMediaKey(s.companyId, s.id, inbound.waMessageId, fileName);
    const media = (size: number): WaMedia => ({ key, mimetype: mediaContentType(key), fileName, size });
    const stored = await this.storage.head(key);
    if (stored) {
      inbound.media = media(stored.size);
      return;
    }
    for (let attempt = 1; attempt <= DOWNLOAD_ATTEMPTS; attempt++) {
      try {
        inbound.media = media(await this.download(file, key));
        return;
      } catch (err) {
        if (attempt < DOWNLOAD_ATTEMPTS) {
          await new Promise((r) => setTimeout(r, 500));
          continue;
        }
        this.logger.warn({ err, connectionId: s.id, waMessageId: inbound.waMessageId }, 'inbound media not stored');
        inbound.mediaError = 'ERR_WAPP_DOWNLOAD_MEDIA';
      }
    }
  }

  /** Fetches the file and stores it under `key`, within DOWNLOAD_TIMEOUT_MS; answers its size. */
  private async download(file: ReceivedFile, key: string): Promise<number> {
    let stream: Readable | undefined;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new Error('inbound media download timed out');
        stream?.destroy(err);
        reject(err);
      }, DOWNLOAD_TIMEOUT_MS);
    });
    try {
      return await Promise.race([
        (async () => {
          stream = await file.open();
          return (await this.storage.put(key, stream)).size;
        })(),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
