import { WhatsappSessionsEnv } from '../config/env.js';
import { Injectable, Logger } from '@nestjs/common';
import { CampaignSubjects, Streams, WaSubjects, type CampaignSend, type WaAckEntry, type WaOutboundSend } from '@wa/contracts';
import { EventBus, deleteDurable, isTransientError, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { DomainError, MediaStorage } from '@wa/server-kit';
import { InboundPublisher } from './inbound-publisher.js';
import type { LiveSession } from './live-session.js';
import { NotOnWhatsapp } from './not-on-whatsapp.js';
import { chatAddress } from './providers/chat-address.js';
import { SessionLeases } from './session-leases.js';
import { SessionStats } from './session-stats.js';
import { SessionStore } from './session-store.repository.js';
import { NotOnWhatsappError, type OutgoingContent } from './providers/provider.js';

/** The durable consumer of a connection's outbound sends; it outlives holders, so a takeover resumes it. */
export const outboundDurable = (connectionId: number) => `wa-out-${connectionId}`;
/** The same for its paced sends (public API), a lane of their own. */
export const pacedDurable = (connectionId: number) => `wa-out-paced-${connectionId}`;
/** The same for its campaign sends (CAMPAIGNS stream, paced by campaigns), a lane of their own. */
export const campaignDurable = (connectionId: number) => `wa-out-campaign-${connectionId}`;

/**
 * A send as this consumer handles it: tickets' sends carry their ticket and message, a campaign's none (its
 * acks and failure are found by its WhatsApp id).
 */
export type OutboundSend = Omit<WaOutboundSend, 'ticketId' | 'messageId'> & { ticketId?: number | null; messageId?: number | null };

/** A paced send waits for its slot at most this long (a clock far off never parks the lane). */
const MAX_PACE_WAIT_MS = 60 * 60_000;

/** Chats of one batch sent side by side. */
const CHATS_AT_ONCE = 32;

/** A session's consumers (its sends, its paced sends, its campaign sends), and their starts and stops one after the other. */
interface Lane {
  consumer?: ConsumerHandle;
  paced?: ConsumerHandle;
  campaign?: ConsumerHandle;
  /**
   * The campaign consumer being started, apart from `op`: it waits for campaigns to declare CAMPAIGNS (a product
   * running without campaigns, or campaigns starting after this), and that wait must hold back neither the other
   * lanes nor a stop.
   */
  campaignStarting?: Promise<void>;
  /** when the lane was last stopped (a start clears it) */
  stoppedAt?: number;
  op: Promise<void>;
}

/**
 * Sends what `wa.outbound.send.<connectionId>` asks, through the session's provider, while the session
 * is CONNECTED here: one durable per connection, a chat's sends in one lane (they leave in the order
 * tickets published them), the connection's chats spread over OUTBOUND_LANES lanes. The public API's paced
 * sends (`….paced`) have a durable and lane of their own, one send at a time: waiting for their slots, they
 * never hold back an agent's reply on the same connection.
 */
@Injectable()
export class OutboundConsumer {
  private readonly logger = new Logger(OutboundConsumer.name);
  private readonly lanes = new WeakMap<LiveSession, Lane>();
  /** the last reason a send still being tried failed (given when it is given up); its count of tries is JetStream's */
  private readonly failures = new BoundedMap<string, string>(10_000);
  /** each session's paced sends, one after the other, and when the last one went out */
  private readonly pacedTurns = new WeakMap<LiveSession, Promise<void>>();
  private readonly lastPaced = new WeakMap<LiveSession, number>();

  constructor(
    private readonly bus: EventBus,
    private readonly store: SessionStore,
    private readonly publisher: InboundPublisher,
    private readonly storage: MediaStorage,
    private readonly env: WhatsappSessionsEnv,
    private readonly notOnWhatsapp: NotOnWhatsapp,
    private readonly leases: SessionLeases,
    private readonly stats: SessionStats,
  ) {}

  /** Starts consuming for a CONNECTED session, unless it already does; a failure (NATS away) is retried until it starts or the session stops. */
  start(s: LiveSession): void {
    const lane = this.lane(s);
    lane.op = lane.op
      .then(async () => {
        if (s.stopped || s.status !== 'CONNECTED') return;
        this.startCampaignLane(s, lane);
        if (lane.consumer && lane.paced) return;
        // the numbers WhatsApp refused lately (kept across restarts), read once before the first send
        await this.notOnWhatsapp.load(s);
        const spec = {
          stream: Streams.WA.name,
          // one more than the sends' own tries: the delivery after the last one reports what is still unsent as failed
          maxAttempts: this.env.OUTBOUND_MAX_ATTEMPTS + 1,
          backoffMs: [500, 1000, 2000, 5000, 10_000],
          // a failing send waits for its next try in JetStream, not in its lane (other chats go on), and its tries
          // are its deliveries, which a restart does not start again
          retryByRedelivery: true,
          concurrency: 1,
        };
        // a chat's sends in one lane, in order, chats spread over OUTBOUND_LANES; a batch shares the statement that records its sends
        const handler = (batch: BusMessage<OutboundSend>[]) => this.handle(s, batch);
        lane.consumer ??= await this.bus.consume<WaOutboundSend>({
          ...spec,
          handler,
          durable: outboundDurable(s.id),
          filterSubjects: [WaSubjects.outbound(s.id)],
          batchSize: 50,
          concurrency: this.env.OUTBOUND_LANES,
          orderKey: (subject, send) => (typeof send?.to === 'string' ? send.to : subject),
        });
        // one paced send at a time: each waits for its slot, at most the pace's interval after the one before
        lane.paced ??= await this.bus.consume<WaOutboundSend>({
          ...spec,
          handler,
          durable: pacedDurable(s.id),
          filterSubjects: [WaSubjects.outboundPaced(s.id)],
          batchSize: 1,
        });
        if (s.stopped) await this.stopLane(lane);
      })
      .catch((err: unknown) => {
        this.logger.error({ err, connectionId: s.id }, 'outbound consumer not started; retrying');
        // tried again at the pace of the lease renewals, for as long as the session is CONNECTED here
        setTimeout(() => this.start(s), this.env.SESSION_LEASE_RENEW_MS).unref();
      });
  }

  /**
   * Campaign sends, one at a time in the order campaigns published them (it paced them): each goes out at once,
   * through the same path as tickets' sends (recorded first, a second delivery of its WhatsApp id dropped). Started
   * beside the other lanes; a consumer that starts after its session stopped is stopped at once.
   */
  private startCampaignLane(s: LiveSession, lane: Lane): void {
    lane.stoppedAt = undefined;
    if (lane.campaign || lane.campaignStarting) return;
    lane.campaignStarting = this.bus
      .consume<CampaignSend>({
        stream: Streams.CAMPAIGNS.name,
        durable: campaignDurable(s.id),
        filterSubjects: [CampaignSubjects.send(s.companyId, s.id)],
        maxAttempts: this.env.OUTBOUND_MAX_ATTEMPTS + 1,
        backoffMs: [500, 1000, 2000, 5000, 10_000],
        retryByRedelivery: true,
        concurrency: 1,
        batchSize: 1,
        handler: (batch) =>
          this.handle(
            s,
            batch.map((m) => ({ ...m, data: campaignOutbound(m.data) })),
          ),
      })
      .then(async (handle) => {
        if (s.stopped || s.status !== 'CONNECTED' || this.lanes.get(s) !== lane || lane.stoppedAt) await handle.stop();
        else lane.campaign = handle;
      })
      .catch((err: unknown) => {
        if (s.stopped) return;
        this.logger.error({ err, connectionId: s.id }, 'campaign lane not started; retrying');
        setTimeout(() => this.start(s), this.env.SESSION_LEASE_RENEW_MS).unref();
      })
      .finally(() => {
        lane.campaignStarting = undefined;
      });
  }

  /** Stops consuming (in-flight sends finish); the durable stays for whoever runs the session next. */
  stop(s: LiveSession): Promise<void> {
    const lane = this.lane(s);
    lane.op = lane.op
      .then(() => this.stopLane(lane))
      .catch((err: unknown) => this.logger.error({ err, connectionId: s.id }, 'outbound consumer did not stop cleanly'));
    return lane.op;
  }

  private async stopLane(lane: Lane): Promise<void> {
    // a campaign consumer still starting is stopped when it starts
    lane.stoppedAt = Date.now();
    const consumers = [lane.consumer, lane.paced, lane.campaign];
    lane.consumer = undefined;
    lane.paced = undefined;
    lane.campaign = undefined;
    await Promise.all(consumers.map((c) => c?.stop()));
  }

  /** Forgets a deleted connection's durables. */
  async forget(connectionId: number): Promise<void> {
    const durables: Array<[string, string]> = [
      [Streams.WA.name, outboundDurable(connectionId)],
      [Streams.WA.name, pacedDurable(connectionId)],
      [Streams.CAMPAIGNS.name, campaignDurable(connectionId)],
    ];
    for (const [stream, durable] of durables) {
      await deleteDurable(this.bus, stream, durable).catch((err: unknown) =>
        this.logger.warn({ err, connectionId, durable }, 'outbound durable of a deleted connection not deleted'),
      );
    }
  }

  private lane(s: LiveSession): Lane {
    let lane = this.lanes.get(s);
    if (!lane) this.lanes.set(s, (lane = { op: Promise.resolve() }));
    return lane;
  }

  /** The send's text, or its file read from the media storage as a stream (null: the file is gone). */
  private async contentOf(send: OutboundSend): Promise<OutgoingContent | null> {
    if (send.location) return { location: send.location };
    if (send.contact) return { contact: { name: send.contact.name, vcard: send.body } };
    if (send.reaction)
      return { reaction: { message: { id: send.reaction.waMessageId, fromMe: send.reaction.fromMe }, emoji: send.reaction.emoji } };
    if (!send.media) return { text: send.body };
    const file = await this.storage.get(send.media.key);
    if (!file) return null;
    const { mediaType, mimetype, fileName } = send.media;
    return {
      media: {
        mediaType,
        stream: file.stream,
        mimetype,
        fileName,
        caption: mediaType === 'application' && send.body === fileName ? '' : send.body,
        ...(send.media.voice && mediaType === 'audio' ? { ptt: true } : {}),
      },
    };
  }

  /**
   * A batch of sends: all recorded before any goes out (one statement; a redelivery of a send already out
   * is only acked), then each sent with the WhatsApp id tickets chose and marked sent, a chat's sends in the
   * order tickets published them and up to CHATS_AT_ONCE chats side by side; the acks 1 are published in one event
   * at the end, without holding the lane. A failure (the session not CONNECTED, the phone refusing) fails the delivery: the
   * bus splits the batch, and a send that still fails is delivered again later by JetStream (what went out
   * before is marked sent and skipped); its delivery past OUTBOUND_MAX_ATTEMPTS (JetStream's count, kept
   * across restarts) gives it up and reports it failed (giveUp).
   */
  private async handle(s: LiveSession, batch: BusMessage<OutboundSend>[]): Promise<void> {
    // past its tries a send is given up: reported failed (with the last reason), not dead-lettered unseen;
    // an outage (PostgreSQL, NATS away) is waited out and costs no try
    const last = batch.filter((m) => m.deliveryCount > this.env.OUTBOUND_MAX_ATTEMPTS);
    if (last.length > 0) {
      await this.giveUp(s, last);
      batch = batch.filter((m) => !last.includes(m));
      if (batch.length === 0) return;
    }
    try {
      await this.sendAll(s, batch);
    } catch (err) {
      if (!isTransientError(err)) {
        for (const m of batch) this.failures.set(m.data?.waMessageId, errorText(err));
      }
      throw err;
    }
    for (const m of batch) this.failures.delete(m.data?.waMessageId);
  }

  /** Sends that ran out of tries and are still not out: their messages are marked failed. */
  private async giveUp(s: LiveSession, batch: BusMessage<OutboundSend>[]): Promise<void> {
    const sends = batch.map((m) => m.data).filter((d) => isOutboundSend(d) && d.connectionId === s.id && d.companyId === s.companyId);
    const states = await this.store.recordSends(sends);
    for (const send of sends) {
      if (states.get(`${send.connectionId}|${send.waMessageId}`) === 'sent') continue;
      const reason = this.failures.get(send.waMessageId) ?? `not sent after ${this.env.OUTBOUND_MAX_ATTEMPTS} tries`;
      this.failures.delete(send.waMessageId);
      this.logger.warn(
        { connectionId: s.id, waMessageId: send.waMessageId, reason },
        'outbound send given up; its message is marked failed',
      );
      await this.publisher.failed(s, send.to, send.waMessageId, reason);
    }
  }

  private async sendAll(s: LiveSession, batch: BusMessage<OutboundSend>[]): Promise<void> {
    const sends: OutboundSend[] = [];
    for (const m of batch) {
      const send = m.data;
      if (!isOutboundSend(send) || send.connectionId !== s.id || send.companyId !== s.companyId) {
        this.logger.error(
          { connectionId: s.id, subject: m.subject, seq: m.streamSeq },
          'outbound send not for this connection or malformed; dropped',
        );
        continue;
      }
      sends.push(send);
    }
    if (sends.length === 0) return;
    if (s.stopped || s.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    // fencing: a replica whose lease was taken (seen dead while paused, cut off from Redis) sends nothing more, even
    // before its renewal notices; the batch is delivered again, to the new holder's consumer. The sends are recorded
    // meanwhile (one round trip less before they go out): a record left 'pending' by a replica that sends nothing
    // is what the new holder's record finds, and sends, as after a replica that stopped before its sends went out.
    const [ours, states] = await Promise.all([this.leases.holds(s.id, s.epoch), this.store.recordSends(sends)]);
    if (!ours) {
      this.logger.warn({ connectionId: s.id, epoch: s.epoch }, 'session lease no longer ours; sending nothing');
      throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    }
    // what went out, reported sent (ack 1) together once the batch ends
    const sent: WaAckEntry[] = [];
    // each chat's sends in their order; different chats side by side (WhatsApp orders a chat, not a phone)
    const chats = new Map<string, OutboundSend[]>();
    for (const send of sends) chats.set(send.to, [...(chats.get(send.to) ?? []), send]);
    const lanes = [...chats.values()];
    let next = 0;
    let failed = false;
    // every lane ends before the batch answers: a redelivery never races a send still going out
    const ended = await Promise.allSettled(
      Array.from({ length: Math.min(CHATS_AT_ONCE, lanes.length) }, async () => {
        for (let chat = lanes[next++]; chat && !failed; chat = lanes[next++]) {
          for (const send of chat) {
            if (failed) return;
            await this.sendOne(s, send, states, sent).catch(async (err: unknown) => {
              // WhatsApp's final answer: the message fails now and the chat's other sends go on; nothing waits for it
              if (err instanceof NotOnWhatsappError) return this.invalidContact(s, send, err);
              failed = true;
              throw err;
            });
          }
        }
      }),
    );
    // the lane goes on to its next batch meanwhile: acks only go up, so one arriving after a later one changes
    // nothing, and one lost (a crash, NATS away) is raised by the next ack of its message, as before
    if (sent.length > 0) {
      void this.publisher
        .acks(s, sent)
        .catch((err: unknown) => this.logger.warn({ err, connectionId: s.id, sends: sent.length }, 'acks 1 not published'));
    }
    const refused = ended.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (refused) throw refused.reason;
  }

  /**
   * A paced send's turn: the connection's paced sends go one at a time (chats sent side by side queue here),
   * each no sooner than its slot and than the pace's interval after the previous one went out. Resolves
   * with the release of the turn, to call once the send is out.
   */
  private async pacedTurn(s: LiveSession, pace: { notBefore: number; intervalMs: number }): Promise<() => void> {
    const before = this.pacedTurns.get(s) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    this.pacedTurns.set(
      s,
      before.then(() => mine),
    );
    await before;
    const now = Date.now();
    const at = Math.min(Math.max(pace.notBefore, (this.lastPaced.get(s) ?? 0) + Math.max(0, pace.intervalMs)), now + MAX_PACE_WAIT_MS);
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
    this.lastPaced.set(s, Date.now());
    return release;
  }

  private async sendOne(s: LiveSession, send: OutboundSend, states: Map<string, 'pending' | 'sent'>, sent: WaAckEntry[]): Promise<void> {
    if (s.stopped || s.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    if (states.get(`${send.connectionId}|${send.waMessageId}`) === 'sent') return;
    // paced (public API): a burst leaves at the connection's pace, not at once
    const pace = send.pace && Number.isFinite(send.pace.notBefore) && Number.isFinite(send.pace.intervalMs) ? send.pace : null;
    const release = pace ? await this.pacedTurn(s, pace) : () => undefined;
    try {
      await this.sendNow(s, send, states, sent);
    } finally {
      // the next paced send counts its interval from when this one was out, not from when its turn came (the time it
      // took to go out varies: two sends must never reach the phone closer than the pace)
      if (pace) this.lastPaced.set(s, Math.max(this.lastPaced.get(s) ?? 0, Date.now()));
      release();
    }
  }

  /**
   * A send to a number that is not on WhatsApp: its message is marked failed at once with
   * ERR_WAPP_INVALID_CONTACT (no retry changes WhatsApp's answer), and the number is remembered (a restart too).
   */
  private async invalidContact(s: LiveSession, send: OutboundSend, err: NotOnWhatsappError): Promise<void> {
    await this.notOnWhatsapp.refused(s, send.to);
    this.failures.delete(send.waMessageId);
    this.logger.warn(
      { connectionId: s.id, waMessageId: send.waMessageId },
      'outbound send to a number not on WhatsApp; its message is marked failed',
    );
    await this.publisher.failed(s, send.to, send.waMessageId, `ERR_WAPP_INVALID_CONTACT: ${err.message}`);
  }

  private async sendNow(s: LiveSession, send: OutboundSend, states: Map<string, 'pending' | 'sent'>, sent: WaAckEntry[]): Promise<void> {
    if (s.stopped || s.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    if (await this.notOnWhatsapp.has(s, send.to)) throw new NotOnWhatsappError(send.to);
    const content = await this.contentOf(send);
    if (!content) {
      this.logger.error(
        { connectionId: s.id, waMessageId: send.waMessageId, key: send.media?.key },
        'outbound media file missing; send dropped',
      );
      return;
    }
    try {
      await s.provider.sendMessage(chatAddress(send.to), content, {
        messageId: send.waMessageId,
        quotedMessageId: send.quotedWaMessageId ?? null,
      });
    } finally {
      // a file the provider did not read to its end (a failed send) is closed, not left open
      if ('media' in content) content.media.stream.destroy();
    }
    await this.store.markSent(s.id, send.waMessageId);
    states.set(`${send.connectionId}|${send.waMessageId}`, 'sent');
    sent.push({ waMessageId: send.waMessageId, ack: 1 });
    this.stats.sent(s.id);
  }
}

function errorText(err: unknown): string {
  if (err instanceof DomainError) return `${err.code}: ${err.message}`;
  return (err as Error)?.message ?? String(err);
}

/** A map that forgets its oldest entries past `max` (reasons of sends that were retried elsewhere). */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.max) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}

/**
 * A campaign's send as a send of this consumer: its text or file to the number, with the WhatsApp id campaigns
 * fixed (no ticket, no quote, no pace: campaigns paced it). What is not a CampaignSend stays as it came, and is
 * dropped as malformed.
 */
function campaignOutbound(send: CampaignSend): OutboundSend {
  if (!send || typeof send !== 'object') return send;
  return {
    companyId: send.companyId,
    connectionId: send.connectionId,
    waMessageId: send.waMessageId,
    to: send.to,
    body: send.body,
    ticketId: null,
    messageId: null,
    media: send.media ?? null,
  };
}

function isOutboundSend(v: unknown): v is OutboundSend {
  const s = v as Partial<OutboundSend> | null;
  return (
    !!s &&
    typeof s.companyId === 'number' &&
    typeof s.connectionId === 'number' &&
    typeof s.waMessageId === 'string' &&
    s.waMessageId.length > 0 &&
    s.waMessageId.length <= 128 &&
    typeof s.to === 'string' &&
    s.to.length > 0 &&
    typeof s.body === 'string'
  );
}
