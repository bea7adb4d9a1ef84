import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import {
  PresenceSubjects,
  WaSubjects,
  type WaAckEntry,
  type WaAcks,
  type WaCall,
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

/** A status change of a send, and the session that was told it. */
export type SessionAck = WaAckEntry & { session: SessionRef };

/** Status changes per `wa.ack` event (a few dozen bytes each; far below the bus's message size). */
const ACKS_PER_EVENT = 500;

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
 * What a session receives, onto JetStream: messages as `wa.inbound.<companyId>.<connectionId>.<contact>`
 * (msg id `<connectionId>:<waMessageId>`), status changes of our sends as `wa.ack.<companyId>.<connectionId>.all`
 * events, several together (after raising sent_messages.ack).
 */
@Injectable()
export class InboundPublisher {
  private readonly logger = new Logger(InboundPublisher.name);

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
   * Upserts' messages (one turn of the session): one conversation's messages one after the other, in the
   * order received (a retried publish cannot overtake the next one), different conversations side by side.
   * Answers each upsert's failure (undefined when all its messages are on JetStream): a conversation stops
   * at its first message that fails, and that message's upsert and the upserts of the ones after it fail.
   */
  async upsertMany(s: SessionRef, upserts: ReadonlyArray<ProviderEventMap['messages']>): Promise<unknown[]> {
    const conversations = new Map<string, Array<{ m: ReceivedMessage; upsert: number }>>();
    upserts.forEach((u, upsert) => {
      for (const m of u) {
        const key = `${m.message.isGroup ? 'group' : 'contact'}:${m.message.from}`;
        const list = conversations.get(key);
        if (list) list.push({ m, upsert });
        else conversations.set(key, [{ m, upsert }]);
      }
    });
    const failures: unknown[] = upserts.map(() => undefined);
    await Promise.all(
      [...conversations.values()].map(async (list) => {
        for (let i = 0; i < list.length; i++) {
          try {
            await this.message(s, list[i].m);
          } catch (err) {
            for (let j = i; j < list.length; j++) failures[list[j].upsert] ??= err;
            return;
          }
        }
      }),
    );
    return failures;
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

  private async message(s: SessionRef, received: ReceivedMessage): Promise<void> {
    if (received.history) return this.historyMessage(s, received);
    // a copy: a delivery handed over again (a retry) starts from what the provider said
    const inbound: WaInboundMessage = { ...received.message };
    await this.withLid(s, inbound);
    // the echo of a message this connection sent itself; messages typed on the phone do go on
    if (inbound.fromMe && (await this.store.isOurSend(s.id, inbound.waMessageId))) return;
    // a customer WhatsApp had refused wrote in: back on WhatsApp, sends to it go out again (before tickets hears of it)
    if (!inbound.fromMe) await this.notOnWhatsapp.cameBack(s, inbound.from);
    await this.withMedia(s, received.file, inbound);
    // an undecryptable message is remembered; the phone's resend of one gets a msg id of its own
    const msgId = await this.undecryptable.msgIdOf(s, inbound);
    const { duplicate } = await this.bus.publish(WaSubjects.inbound(s.companyId, s.id, subjectToken(inbound.from)), inbound, { msgId });
    if (duplicate) return;
    this.stats.received(s.id);
    if (received.backlog) backlogMessages.inc({ connectionId: String(s.id) });
  }

  /**
   * A message of WhatsApp's history sync (history.ts): only a recent one goes on, marked `history`, with its own time
   * and without its file (none is fetched: body or caption only), under the same msg id as if it came live (one that
   * came live too is a repeat; one that came undecryptable is its resend). Nobody wrote just now: a number that had left WhatsApp is not taken back for it.
   */
  private async historyMessage(s: SessionRef, received: ReceivedMessage): Promise<void> {
    if (!isRecentHistory(received.message, this.env.HISTORY_IMPORT_HOURS)) {
      countHistory(s.id, false);
      return;
    }
    const inbound: WaInboundMessage = { ...received.message, history: true, media: null };
    await this.withLid(s, inbound);
    if (inbound.fromMe && (await this.store.isOurSend(s.id, inbound.waMessageId))) return;
    // the content of a message that came undecryptable is its resend (it replaces the waiting one)
    const msgId = await this.undecryptable.msgIdOf(s, inbound);
    const { duplicate } = await this.bus.publish(WaSubjects.inbound(s.companyId, s.id, subjectToken(inbound.from)), inbound, { msgId });
    if (!duplicate) countHistory(s.id, true);
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
