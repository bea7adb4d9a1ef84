import type { ConsumerMessages, JetStreamClient, JsMsg, MsgHdrs, NatsConnection } from 'nats';
import { headers as natsHeaders } from 'nats';
import type { BusLogger, BusMessage, ConsumerHandle, ConsumerSpec, ConsumerStats } from './types.js';
import {
  DEFAULT_BACKOFF_MS,
  backoffDelay,
  dlqSubject,
  errorMessage,
  headerValue,
  isTransientError,
  laneOf,
  outageDelay,
  positiveInt,
  pullExpiresMs,
} from './util.js';

/** Headers put on a dead-lettered message. */
export const DlqHeaders = {
  error: 'Dlq-Error',
  subject: 'Dlq-Original-Subject',
  stream: 'Dlq-Stream',
  streamSeq: 'Dlq-Stream-Seq',
  durable: 'Dlq-Durable',
  attempts: 'Dlq-Attempts',
  deliveryCount: 'Dlq-Delivery-Count',
  msgId: 'Dlq-Original-Msg-Id',
  at: 'Dlq-At',
} as const;

const decoder = new TextDecoder();

interface Held<T> {
  m: JsMsg;
  /** last time the server heard from us about this message (delivery, +WPI) */
  touchedAt: number;
  bus?: BusMessage<T>;
  decodeError?: unknown;
  /** handler calls so far (a batch call counts for each of its messages) */
  calls: number;
  /** its conversation (the spec's orderKey) */
  key?: string;
}

/** A conversation whose message waits in JetStream for its next try (retryByRedelivery): its later messages wait here. */
interface Parked<T> {
  /** the stream sequence of the message waiting for its next try */
  seq: number;
  /** when that try is due (a stop hands the waiting ones back to be delivered just after it) */
  dueAt: number;
  waiting: Held<T>[];
}

export interface ResolvedConsumerSpec<T> {
  stream: string;
  durable: string;
  orderKey: (subject: string, data: T | undefined) => string;
  concurrency: number;
  batchSize: number;
  lingerMs: number;
  maxAttempts: number;
  backoffMs: number[];
  retryByRedelivery: boolean;
  outageInitialMs: number;
  outageMaxMs: number;
  isTransient: (err: unknown) => boolean;
  maxDeliveries: number;
  ackWaitMs: number;
  maxAckPending: number;
  handler: (batch: BusMessage<T>[]) => Promise<void>;
}

export function resolveSpec<T>(spec: ConsumerSpec<T>): ResolvedConsumerSpec<T> {
  if (!spec.stream) throw new Error('ConsumerSpec.stream is required');
  if (!spec.durable || /[.*>\s]/.test(spec.durable)) throw new Error(`invalid durable name "${spec.durable}"`);
  if (typeof spec.handler !== 'function') throw new Error('ConsumerSpec.handler is required');
  const concurrency = positiveInt(spec.concurrency, 8, 'concurrency');
  const batchSize = positiveInt(spec.batchSize, 1, 'batchSize');
  const ackWaitMs = positiveInt(spec.ackWaitMs, 30_000, 'ackWaitMs');
  if (ackWaitMs < 300) throw new Error('ackWaitMs must be at least 300');
  const maxAttempts = positiveInt(spec.maxAttempts, 5, 'maxAttempts');
  const outageInitialMs = positiveInt(spec.outageBackoff?.initialMs, 250, 'outageBackoff.initialMs');
  const outageMaxMs = Math.max(outageInitialMs, positiveInt(spec.outageBackoff?.maxMs, 5000, 'outageBackoff.maxMs'));
  return {
    stream: spec.stream,
    durable: spec.durable,
    orderKey: spec.orderKey ?? ((s) => s),
    concurrency,
    batchSize,
    lingerMs: spec.lingerMs ? positiveInt(spec.lingerMs, 0, 'lingerMs') : 0,
    maxAttempts,
    backoffMs: [...(spec.backoffMs ?? DEFAULT_BACKOFF_MS)],
    retryByRedelivery: spec.retryByRedelivery === true,
    outageInitialMs,
    outageMaxMs,
    isTransient: spec.isTransient ?? isTransientError,
    maxDeliveries: positiveInt(spec.maxDeliveries, Math.max(10, 2 * maxAttempts), 'maxDeliveries'),
    ackWaitMs,
    maxAckPending: positiveInt(spec.maxAckPending, Math.max(256, concurrency * batchSize * 4), 'maxAckPending'),
    handler: spec.handler,
  };
}

function headerRecord(h: MsgHdrs | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  for (const k of h.keys()) out[k] = h.get(k);
  return out;
}

/** A sleep that `stop()` can cut short. */
class Sleeper {
  private waiting = new Set<() => void>();
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.waiting.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.waiting.add(done);
    });
  }
  wakeAll(): void {
    for (const w of [...this.waiting]) w();
  }
}

/**
 * One durable pull consumer: a streaming `consume()` whose messages are spread over
 * `concurrency` lanes by the hash of their order key. A lane handles its messages strictly
 * in arrival order, retrying in place, so a conversation never overtakes itself.
 */
export class ConsumerRunner<T> implements ConsumerHandle {
  private readonly lanes: Lane<T>[];
  private readonly held = new Set<Held<T>>();
  private readonly sleeper = new Sleeper();
  /** lanes waiting out an outage: woken at once when another lane's call succeeds */
  private readonly outageSleeper = new Sleeper();
  private readonly counters = { handled: 0, retried: 0, outageFailures: 0, deadLettered: 0 };
  private readonly handBack: JsMsg[] = [];
  /** retryByRedelivery: conversations waiting for one of their messages to be delivered again */
  private readonly parked = new Map<string, Parked<T>>();
  /** handed back at stop with a delay (a parked conversation's later messages: after its waiting message) */
  private readonly handBackLater: { m: JsMsg; delayMs: number }[] = [];
  private messages: ConsumerMessages | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private stopping = false;
  private stopped: Promise<void> | undefined;

  constructor(
    readonly spec: ResolvedConsumerSpec<T>,
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    readonly log: BusLogger,
    private readonly onStopped: (r: ConsumerRunner<T>) => void,
    /** A consumer info request: makes the server drop our pull requests once we unsubscribed. */
    private readonly probe: () => Promise<unknown>,
  ) {
    this.lanes = Array.from({ length: spec.concurrency }, (_, i) => new Lane<T>(this, i));
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  stats(): ConsumerStats {
    return { stream: this.spec.stream, durable: this.spec.durable, ...this.counters, inFlight: this.held.size };
  }

  count(what: 'retried' | 'outageFailures', n = 1): void {
    this.counters[what] += n;
  }

  async start(): Promise<void> {
    const consumer = await this.js.consumers.get(this.spec.stream, this.spec.durable);
    this.messages = await consumer.consume({
      max_messages: Math.min(this.spec.maxAckPending, 1000),
      // Pull requests outlive a crashed client until they expire, and nats-server 2.9 mishandles a
      // redelivery that meets such a dead request (its delivery count is reset or doubled, which
      // breaks poison detection). Requests that expire well before ack_wait avoid that.
      expires: pullExpiresMs(this.spec.ackWaitMs),
      callback: (m) => this.dispatch(m),
    });
    void this.watchStatus(this.messages);
    // keep held messages (queued in a lane, being handled, waiting for a retry) from being redelivered
    const every = Math.max(100, Math.floor(this.spec.ackWaitMs / 3));
    this.ticker = setInterval(() => this.keepAlive(every / 2), every);
    this.ticker.unref();
    this.messages.closed().then(
      (err) => {
        if (err && !this.stopping) this.log.error({ durable: this.spec.durable, err: errorMessage(err) }, 'event-bus: consume ended');
      },
      (err: unknown) => {
        if (!this.stopping) this.log.error({ durable: this.spec.durable, err: errorMessage(err) }, 'event-bus: consume ended');
      },
    );
  }

  private async watchStatus(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const s of await messages.status()) {
        const ctx = { stream: this.spec.stream, durable: this.spec.durable, event: s.type, data: s.data };
        if (s.type === 'consumer_not_found' || s.type === 'stream_not_found' || s.type === 'consumer_deleted') {
          // nats.js keeps retrying and resumes when it is back; nothing is consumed meanwhile
          this.log.error(ctx, 'event-bus: consumer gone; consuming resumes once it is declared again');
        } else if (s.type === 'heartbeats_missed' || s.type === 'no_responders') {
          this.log.warn(ctx, 'event-bus: consumer status');
        }
      }
    } catch {
      // iterator ended
    }
  }

  private dispatch(m: JsMsg): void {
    if (this.stopping) {
      this.handBack.push(m); // arrived while stopping
      return;
    }
    const h: Held<T> = { m, touchedAt: Date.now(), calls: 0 };
    try {
      const data = m.data.length === 0 ? undefined : JSON.parse(decoder.decode(m.data));
      const hdrs = headerRecord(m.headers);
      h.bus = {
        subject: m.subject,
        data: data as T,
        msgId: hdrs['Nats-Msg-Id'],
        streamSeq: m.seq,
        deliveryCount: m.info.deliveryCount,
        attempt: 0,
        headers: hdrs,
      };
    } catch (err) {
      h.decodeError = err;
    }
    this.held.add(h);
    let key: string;
    try {
      key = this.spec.orderKey(m.subject, h.bus?.data);
    } catch {
      key = m.subject;
    }
    h.key = key;
    if (this.waitsBehindRetry(h)) return;
    this.lanes[laneOf(key, this.lanes.length)].push(h);
  }

  /**
   * retryByRedelivery keeps a conversation's order: while one of its messages waits in JetStream for its next
   * try, its later messages wait here (held, kept alive) and go to their lane once that one is acked or
   * dead-lettered. True when `h` was set aside so.
   */
  waitsBehindRetry(h: Held<T>): boolean {
    if (this.parked.size === 0 || h.key === undefined) return false;
    const p = this.parked.get(h.key);
    if (!p || p.seq === h.m.seq) return false;
    p.waiting.push(h);
    return true;
  }

  /** `h` is done with (acked or dead-lettered): if its conversation waited for it, its later messages go on. */
  private settled(h: Held<T>): void {
    if (this.parked.size === 0 || h.key === undefined) return;
    const p = this.parked.get(h.key);
    if (!p || p.seq !== h.m.seq) return;
    this.parked.delete(h.key);
    const lane = this.lanes[laneOf(h.key, this.lanes.length)];
    for (const w of p.waiting.sort((a, b) => a.m.seq - b.m.seq)) lane.push(w);
  }

  private keepAlive(olderThanMs: number): void {
    const now = Date.now();
    for (const h of this.held) {
      if (now - h.touchedAt >= olderThanMs) {
        h.m.working();
        h.touchedAt = now;
      }
    }
  }

  ack(h: Held<T>): void {
    h.m.ack();
    this.held.delete(h);
    this.counters.handled++;
    this.settled(h);
  }

  /**
   * Hands a message back to JetStream to be delivered again in `delayMs` (-NAK with a delay); its lane goes on
   * with other conversations, and its own conversation's later messages wait for it (waitsBehindRetry).
   */
  redeliverLater(h: Held<T>, delayMs: number): void {
    if (h.key !== undefined) {
      const p = this.parked.get(h.key);
      if (p) {
        p.seq = h.m.seq;
        p.dueAt = Date.now() + delayMs;
      } else this.parked.set(h.key, { seq: h.m.seq, dueAt: Date.now() + delayMs, waiting: [] });
    }
    h.m.nak(delayMs);
    this.held.delete(h);
    this.counters.retried++;
  }

  /** Forget a message without acking it (it will be redelivered after ack_wait). */
  release(h: Held<T>): void {
    this.held.delete(h);
  }

  /**
   * A message not (fully) handled because we are stopping. stop() hands these back with -NAK,
   * in stream order, so JetStream redelivers them at once (to another instance, or to us after
   * a restart) and ahead of newer messages, instead of after ack_wait behind them.
   */
  giveBack(h: Held<T>): void {
    this.held.delete(h);
    this.handBack.push(h.m);
  }

  sleep(ms: number): Promise<void> {
    return this.sleeper.sleep(ms);
  }

  /** A lane's wait for more messages before a batch smaller than batchSize (lingerMs); cut short by stop(). */
  linger(): Promise<void> {
    return this.sleeper.sleep(this.spec.lingerMs);
  }

  /** Waits out an outage; cut short by stop() and by another lane getting through. */
  sleepOutage(ms: number): Promise<void> {
    return this.outageSleeper.sleep(ms);
  }

  /** A call succeeded: lanes waiting out an outage try again now. */
  outageOver(): void {
    this.outageSleeper.wakeAll();
  }

  isDead(h: Held<T>): boolean {
    return h.decodeError !== undefined || h.m.info.deliveryCount > this.spec.maxDeliveries;
  }

  /** Calls the handler, warning when a call outlives ack_wait (it is kept alive, but it blocks its lane). */
  async callHandler(batch: Held<T>[]): Promise<void> {
    const slow = setTimeout(() => {
      this.log.warn(
        {
          stream: this.spec.stream,
          durable: this.spec.durable,
          subject: batch[0].m.subject,
          seq: batch[0].m.seq,
          size: batch.length,
          ms: this.spec.ackWaitMs,
        },
        'event-bus: handler still running after ack wait; its lane is blocked',
      );
    }, this.spec.ackWaitMs);
    slow.unref();
    for (const h of batch) (h.bus as BusMessage<T>).attempt = ++h.calls;
    try {
      await this.spec.handler(batch.map((h) => h.bus as BusMessage<T>)); // dead (undecodable) ones never get here
    } finally {
      clearTimeout(slow);
    }
  }

  /**
   * Republish to `dlq.<durable>.<subject>` (idempotent msg id) and ack the source.
   * If the DLQ publish fails the source stays unacked, so it comes back and is dead-lettered again.
   */
  async deadLetter(h: Held<T>, reason: string, attempts: number): Promise<void> {
    const { m } = h;
    const orig = m.headers;
    const hdrs = natsHeaders();
    if (orig) {
      for (const k of orig.keys()) {
        if (!k.startsWith('Nats-')) for (const v of orig.values(k)) hdrs.append(k, v);
      }
    }
    const origMsgId = orig?.get('Nats-Msg-Id');
    hdrs.set(DlqHeaders.error, headerValue(reason));
    hdrs.set(DlqHeaders.subject, m.subject);
    hdrs.set(DlqHeaders.stream, this.spec.stream);
    hdrs.set(DlqHeaders.streamSeq, String(m.seq));
    hdrs.set(DlqHeaders.durable, this.spec.durable);
    hdrs.set(DlqHeaders.attempts, String(attempts));
    hdrs.set(DlqHeaders.deliveryCount, String(m.info.deliveryCount));
    hdrs.set(DlqHeaders.at, new Date().toISOString());
    if (origMsgId) hdrs.set(DlqHeaders.msgId, headerValue(origMsgId));
    const ctx = {
      stream: this.spec.stream,
      durable: this.spec.durable,
      subject: m.subject,
      seq: m.seq,
      msgId: origMsgId || undefined,
      attempts,
      deliveryCount: m.info.deliveryCount,
      err: reason,
    };
    try {
      await this.js.publish(dlqSubject(this.spec.durable, m.subject), m.data, {
        msgID: `dlq:${this.spec.stream}:${this.spec.durable}:${m.seq}`,
        headers: hdrs,
      });
    } catch (err) {
      this.log.error({ ...ctx, dlqErr: errorMessage(err) }, 'event-bus: dead-letter publish failed; message left unacked');
      this.release(h);
      return;
    }
    h.m.ack();
    this.held.delete(h);
    this.counters.deadLettered++;
    this.settled(h);
    this.log.error(ctx, 'event-bus: message dead-lettered');
  }

  stop(): Promise<void> {
    if (!this.stopped) this.stopped = this.doStop();
    return this.stopped;
  }

  private async doStop(): Promise<void> {
    this.stopping = true;
    try {
      if (this.messages) await this.messages.close();
    } catch {
      // already ended
    }
    this.sleeper.wakeAll();
    this.outageSleeper.wakeAll();
    // nats-server 2.9 keeps our pull request after the unsubscribe until it expires; a -NAK that meets
    // such a dead request is mishandled (redelivery stalls until ack_wait, the stream cursor steps back
    // and re-sends a message). A consumer info request makes the server drop dead requests first.
    if (!this.nc.isClosed()) await this.probe().catch(() => undefined);
    await Promise.all(this.lanes.map((l) => l.idle()));
    if (this.ticker) clearInterval(this.ticker);
    this.held.clear();
    // a conversation waiting for a retry: its later messages come back just after the waiting one is due
    const now = Date.now();
    for (const p of this.parked.values()) {
      for (const h of p.waiting) this.handBackLater.push({ m: h.m, delayMs: Math.max(0, p.dueAt - now) + 250 });
    }
    this.parked.clear();
    if (!this.nc.isClosed()) {
      this.handBack.sort((a, b) => a.seq - b.seq);
      for (const m of this.handBack.splice(0)) m.nak();
      for (const { m, delayMs } of this.handBackLater.splice(0).sort((a, b) => a.m.seq - b.m.seq)) m.nak(delayMs);
      try {
        await this.nc.flush(); // acks and naks are on the wire before we return
      } catch {
        // connection going away: unacked work is redelivered after ack_wait
      }
    }
    this.onStopped(this);
  }
}

class Lane<T> {
  private queue: Held<T>[] = [];
  private head = 0;
  private running: Promise<void> | undefined;

  constructor(
    private readonly r: ConsumerRunner<T>,
    readonly index: number,
  ) {}

  push(h: Held<T>): void {
    this.queue.push(h);
    this.kick();
  }

  private kick(): void {
    if (this.running) return;
    this.running = this.run().finally(() => {
      this.running = undefined;
      // a message may have arrived between the loop's last check and here
      if (this.size() > 0) this.kick();
    });
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private size(): number {
    return this.queue.length - this.head;
  }

  /**
   * The next message, its slot let go at once: a lane kept every message it had taken (its payload and the buffer it
   * was read into) until it had taken 1,024 more, so at a few messages a second they outlived the young generation's
   * collections and were promoted, to be collected only by a full one (issue 44's note: tickets promoted ~6.6 MB at
   * each scavenge under the public API bench).
   */
  private shift(): Held<T> {
    const h = this.queue[this.head];
    this.queue[this.head++] = undefined as unknown as Held<T>;
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return h;
  }

  private async run(): Promise<void> {
    // yield once so that messages of the same burst can join the first batch
    await Promise.resolve();
    while (this.size() > 0) {
      if (this.r.isStopping) {
        this.drop();
        return;
      }
      const first = this.queue[this.head];
      if (this.r.isDead(first)) {
        this.shift();
        await this.deadOnArrival(first);
        continue;
      }
      if (this.r.spec.lingerMs > 0 && this.size() < this.r.spec.batchSize) {
        await this.r.linger();
        if (this.r.isStopping) continue; // handed back above
      }
      const batch: Held<T>[] = [];
      while (batch.length < this.r.spec.batchSize && this.size() > 0 && !this.r.isDead(this.queue[this.head])) {
        const h = this.shift();
        if (!this.r.waitsBehindRetry(h)) batch.push(h);
      }
      if (batch.length === 0) continue;
      try {
        await this.process(batch);
      } catch (err) {
        // process() does not throw; belt and braces: leave them unacked
        this.r.log.error({ durable: this.r.spec.durable, err: errorMessage(err) }, 'event-bus: lane failure');
        for (const h of batch) this.r.release(h);
      }
    }
  }

  private drop(): void {
    while (this.size() > 0) this.r.giveBack(this.shift());
    this.queue = [];
    this.head = 0;
  }

  private async deadOnArrival(h: Held<T>): Promise<void> {
    if (h.decodeError !== undefined) {
      await this.r.deadLetter(h, `undecodable payload: ${errorMessage(h.decodeError)}`, 0);
    } else {
      await this.r.deadLetter(
        h,
        `delivered ${h.m.info.deliveryCount} times (max deliveries ${this.r.spec.maxDeliveries}); the message may crash its consumer`,
        h.m.info.deliveryCount - 1,
      );
    }
  }

  /**
   * A batch: an outage is waited out with the whole batch (a retry in one call, in order); any other
   * failure splits it, so that one bad message is dead-lettered alone and the others get through.
   */
  private async process(batch: Held<T>[]): Promise<void> {
    if (batch.length === 1) {
      await this.processOne(batch[0]);
      return;
    }
    for (let outage = 1; ; outage++) {
      try {
        await this.r.callHandler(batch);
        for (const h of batch) this.r.ack(h);
        if (outage > 1) this.r.outageOver();
        return;
      } catch (err) {
        if (!this.r.spec.isTransient(err)) {
          this.r.log.warn(
            {
              stream: this.r.spec.stream,
              durable: this.r.spec.durable,
              size: batch.length,
              firstSeq: batch[0].m.seq,
              err: errorMessage(err),
            },
            'event-bus: batch failed; handling its messages one by one',
          );
          break;
        }
        this.r.count('outageFailures');
        if (!(await this.waitOutage(batch, outage, err))) return;
        this.r.count('retried', batch.length);
      }
    }
    for (let i = 0; i < batch.length; i++) {
      if (this.r.isStopping) {
        for (let j = i; j < batch.length; j++) this.r.giveBack(batch[j]);
        return;
      }
      await this.processOne(batch[i]);
    }
  }

  /**
   * Waits before the next call while a dependency is unreachable; false when stopping (the messages were
   * handed back). The lane stays blocked meanwhile, so later messages of its conversations wait too.
   */
  private async waitOutage(batch: Held<T>[], outage: number, err: unknown): Promise<boolean> {
    const { outageInitialMs, outageMaxMs } = this.r.spec;
    const delay = outageDelay(outage, outageInitialMs, outageMaxMs);
    const log = outage === 1 || outage % 10 === 0 ? this.r.log.warn : undefined;
    log?.call(
      this.r.log,
      {
        stream: this.r.spec.stream,
        durable: this.r.spec.durable,
        subject: batch[0].m.subject,
        seq: batch[0].m.seq,
        size: batch.length,
        outage,
        retryInMs: delay,
        err: errorMessage(err),
      },
      'event-bus: a dependency is unreachable; waiting it out',
    );
    if (this.r.isStopping) {
      for (const h of batch) this.r.giveBack(h);
      return false;
    }
    await this.r.sleepOutage(delay);
    if (this.r.isStopping) {
      for (const h of batch) this.r.giveBack(h);
      return false;
    }
    return true;
  }

  private async processOne(h: Held<T>): Promise<void> {
    // an earlier message of its conversation (in the same batch) went to wait for its next try
    if (this.r.waitsBehindRetry(h)) return;
    const { maxAttempts, backoffMs } = this.r.spec;
    let failures = 0;
    let outage = 0;
    let lastErr: unknown;
    for (;;) {
      try {
        await this.r.callHandler([h]);
        this.r.ack(h);
        if (outage > 0) this.r.outageOver();
        return;
      } catch (err) {
        lastErr = err;
      }
      if (this.r.spec.isTransient(lastErr)) {
        outage++;
        this.r.count('outageFailures');
        if (!(await this.waitOutage([h], outage, lastErr))) return;
        this.r.count('retried');
        continue;
      }
      outage = 0;
      failures++;
      if (this.r.spec.retryByRedelivery) {
        // its tries are its deliveries: counted by JetStream, so a restart does not start them again
        const tries = h.m.info.deliveryCount;
        if (tries >= maxAttempts) {
          await this.r.deadLetter(h, errorMessage(lastErr), tries);
          return;
        }
        const delay = backoffDelay(backoffMs, tries);
        this.r.log.warn(
          {
            stream: this.r.spec.stream,
            durable: this.r.spec.durable,
            subject: h.m.subject,
            seq: h.m.seq,
            delivery: tries,
            redeliverInMs: delay,
            err: errorMessage(lastErr),
          },
          'event-bus: handler failed; delivered again later',
        );
        this.r.redeliverLater(h, delay);
        return;
      }
      if (failures >= maxAttempts) break;
      if (this.r.isStopping) {
        this.r.giveBack(h);
        return;
      }
      const delay = backoffDelay(backoffMs, failures);
      this.r.log.warn(
        {
          stream: this.r.spec.stream,
          durable: this.r.spec.durable,
          subject: h.m.subject,
          seq: h.m.seq,
          attempt: failures,
          retryInMs: delay,
          err: errorMessage(lastErr),
        },
        'event-bus: handler failed; retrying',
      );
      if (delay > 0) await this.r.sleep(delay);
      if (this.r.isStopping) {
        this.r.giveBack(h);
        return;
      }
      this.r.count('retried');
    }
    await this.r.deadLetter(h, errorMessage(lastErr), failures);
  }
}
