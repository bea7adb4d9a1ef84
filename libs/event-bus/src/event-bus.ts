import { Streams } from '@wa/contracts';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  ReplayPolicy,
  RetentionPolicy,
  StorageType,
  connect,
  headers as natsHeaders,
  nanos,
} from 'nats';
import type { ConsumerConfig, ConsumerInfo, JetStreamClient, JetStreamManager, NatsConnection, StreamInfo } from 'nats';
import { ConsumerRunner, resolveSpec } from './consumer.js';
import { JetStreamPublisher } from './publisher.js';
import type { ResolvedConsumerSpec } from './consumer.js';
import type { BusLogger, BusOptions, ConsumerHandle, ConsumerSpec, ConsumerStats, StreamLimits, StreamSpec } from './types.js';
import { errorMessage } from './util.js';

/** The dead-letter stream; always declared. A dead message lands on `dlq.<durable>.<original subject>`. */
export const DLQ_STREAM: StreamSpec = { name: 'DLQ', subjects: ['dlq.>'] };

export const DEFAULT_DUPLICATE_WINDOW_MS = 2 * 60_000;

const GiB = 1024 ** 3;
/**
 * Default limits: a week of age, and a size per stream that this kind of machine can reserve (nats-server
 * refuses a stream whose max_bytes does not fit its store). WA holds about 20 million inbound messages in
 * 8 GiB (~420 bytes each on disk), a week at ~33 msg/s; operators size them for their traffic
 * (NATS_STREAM_MAX_BYTES, NATS_STREAM_<NAME>_MAX_BYTES; see the README).
 */
export const DEFAULT_STREAM_LIMITS: StreamLimits = { maxAgeMs: 7 * 24 * 3600_000, maxBytes: 1 * GiB };
export const DEFAULT_STREAM_BYTES: Record<string, number> = { WA: 8 * GiB, TICKETS: 4 * GiB, DLQ: 2 * GiB };
const MIN_STREAM_BYTES = 64 * 1024 ** 2;

const encoder = new TextEncoder();
/** At most one "publish failed; trying again" line in this long (see EventBus.sayRetry). */
const RETRY_WARN_EVERY_MS = 10_000;

/** Default logger: one JSON line per entry (info on stdout, warn/error on stderr). */
function jsonLine(level: string, stream: NodeJS.WriteStream) {
  return (obj: object, msg?: string) => {
    stream.write(`${JSON.stringify({ level, time: Date.now(), ...obj, msg })}\n`);
  };
}
const defaultLogger: BusLogger = {
  info: jsonLine('info', process.stdout),
  warn: jsonLine('warn', process.stderr),
  error: jsonLine('error', process.stderr),
};

interface ApiErr {
  message?: string;
  code?: string;
  api_error?: { err_code?: number; code?: number; description?: string };
}

function apiErrCode(err: unknown): number | undefined {
  return (err as ApiErr | undefined)?.api_error?.err_code;
}

function isStreamNotFound(err: unknown): boolean {
  return apiErrCode(err) === 10059 || /stream not found/i.test((err as ApiErr)?.message ?? '');
}

function isConsumerNotFound(err: unknown): boolean {
  return apiErrCode(err) === 10014 || /consumer not found/i.test((err as ApiErr)?.message ?? '');
}

function isAlreadyExists(err: unknown): boolean {
  const code = apiErrCode(err);
  return code === 10058 || code === 10148 || code === 10013 || /already (in use|exists)/i.test((err as ApiErr)?.message ?? '');
}

/** nats-server could not reserve the stream's max_bytes: its store is smaller. */
function isInsufficientStorage(err: unknown): boolean {
  return apiErrCode(err) === 10047 || /insufficient (storage )?resources/i.test((err as ApiErr)?.message ?? '');
}

function isTransientPublishError(err: unknown): boolean {
  const code = (err as ApiErr | undefined)?.code;
  return code === '503' || code === 'TIMEOUT' || code === 'DISCONNECT' || code === '408';
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** Streams declared when BusOptions.streams is not given. */
export function defaultStreams(): StreamSpec[] {
  return Object.values(Streams).map((s) => ({ name: s.name, subjects: [...s.subjects] }));
}

/**
 * JetStream publish (deduplicated by msg id) and durable, ordered-per-conversation consume
 * with at-least-once delivery: a message is acked only after its handler resolved.
 */
export class EventBus {
  private readonly runners = new Set<ConsumerRunner<unknown>>();
  private readonly publisher: JetStreamPublisher;
  private retryWarnAt = 0;
  private retriesUnsaid = 0;
  private closing: Promise<void> | undefined;
  private connected = true;

  private constructor(
    /** the NATS user it connected as; undefined on an open server */
    readonly user: string | undefined,
    readonly connection: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly log: BusLogger,
    inboxPrefix?: string,
  ) {
    this.publisher = new JetStreamPublisher(connection, undefined, inboxPrefix);
  }

  /** Connects and declares the streams idempotently (add, or update when the config differs). */
  static async connect(opts: BusOptions): Promise<EventBus> {
    const log = opts.logger ?? defaultLogger;
    const nc = await connect({
      servers: opts.servers
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      name: opts.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      // no Error (stack capture) per request: that alone cost ~20% of the CPU at 6k publishes/s
      noAsyncTraces: true,
      ...(opts.user ? { user: opts.user, pass: opts.pass ?? '' } : {}),
      ...(opts.inboxPrefix ? { inboxPrefix: opts.inboxPrefix } : {}),
    });
    try {
      const jsm = await nc.jetstreamManager();
      const bus = new EventBus(opts.user, nc, nc.jetstream(), jsm, log, opts.inboxPrefix);
      void bus.watchConnection();
      const streams = [...(opts.streams ?? defaultStreams())];
      if (!streams.some((s) => s.name === DLQ_STREAM.name)) streams.push(DLQ_STREAM);
      const limits = { ...DEFAULT_STREAM_LIMITS, ...opts.limits };
      const limited = (s: StreamSpec): StreamSpec => ({
        ...s,
        maxAgeMs: s.maxAgeMs ?? limits.maxAgeMs,
        maxBytes: s.maxBytes ?? opts.limits?.maxBytes ?? DEFAULT_STREAM_BYTES[s.name] ?? limits.maxBytes,
      });
      const dupMs = opts.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS;
      for (const s of streams) await bus.ensureStream(limited(s), dupMs);
      const owned = new Set(streams.map((s) => s.name));
      // on an open server (no users: development, tests) a reader declares what it reads when missing; with
      // per-service users it is its publisher's to declare, and consumers wait for it
      if (!opts.user) for (const s of opts.reads ?? []) if (!owned.has(s.name)) await bus.createIfMissing(limited(s), dupMs);
      log.info({ servers: opts.servers, name: opts.name, streams: streams.map((s) => s.name), user: opts.user }, 'event-bus: connected');
      return bus;
    } catch (err) {
      await nc.close().catch(() => undefined);
      throw err;
    }
  }

  private async watchConnection(): Promise<void> {
    for await (const s of this.connection.status()) {
      if (s.type === 'disconnect') this.connected = false;
      else if (s.type === 'reconnect') this.connected = true;
      if (s.type === 'disconnect' || s.type === 'error') this.log.warn({ event: s.type, data: s.data }, 'event-bus: connection');
      else if (s.type === 'reconnect') this.log.info({ event: s.type, data: s.data }, 'event-bus: connection');
    }
  }

  private async ensureStream(spec: StreamSpec, defaultDupMs: number): Promise<StreamInfo> {
    const maxAgeMs = spec.maxAgeMs ?? 0;
    let dupMs = spec.duplicateWindowMs ?? defaultDupMs;
    if (maxAgeMs > 0 && dupMs > maxAgeMs) dupMs = maxAgeMs; // the server requires duplicates <= max_age
    // a full stream refuses new messages (the publisher hears it) rather than dropping old ones unread
    const want = {
      subjects: [...spec.subjects],
      duplicate_window: nanos(dupMs),
      max_age: nanos(maxAgeMs),
      max_bytes: spec.maxBytes ?? -1,
      discard: DiscardPolicy.New,
    };
    for (let round = 0; ; round++) {
      let info: StreamInfo;
      try {
        info = await this.jsm.streams.info(spec.name);
      } catch (err) {
        if (!isStreamNotFound(err)) throw err;
        try {
          const created = await this.jsm.streams.add({
            name: spec.name,
            ...want,
            storage: StorageType.File,
            retention: RetentionPolicy.Limits,
            num_replicas: 1,
          });
          this.log.info({ stream: spec.name, subjects: spec.subjects, maxBytes: want.max_bytes, maxAgeMs }, 'event-bus: stream created');
          return created;
        } catch (e) {
          if (round < 2 && isAlreadyExists(e)) continue; // someone else created it meanwhile
          if (this.fitStorage(spec, want, e)) continue;
          throw new Error(`event-bus: cannot create stream ${spec.name}: ${errorMessage(e)}`, { cause: e });
        }
      }
      const c = info.config;
      if (
        sameSet(c.subjects ?? [], want.subjects) &&
        c.duplicate_window === want.duplicate_window &&
        c.max_age === want.max_age &&
        c.max_bytes === want.max_bytes &&
        c.discard === want.discard
      ) {
        return info;
      }
      try {
        const updated = await this.jsm.streams.update(spec.name, { ...c, ...want });
        this.log.info(
          { stream: spec.name, subjects: spec.subjects, duplicateWindowMs: dupMs, maxAgeMs, maxBytes: want.max_bytes },
          'event-bus: stream updated',
        );
        return updated;
      } catch (e) {
        if (this.fitStorage(spec, want, e)) continue;
        throw new Error(`event-bus: cannot update stream ${spec.name}: ${errorMessage(e)}`, { cause: e });
      }
    }
  }

  /** A stream this process only reads, created when missing (its config stays its publisher's). */
  private async createIfMissing(spec: StreamSpec, defaultDupMs: number): Promise<void> {
    try {
      await this.jsm.streams.info(spec.name);
    } catch (err) {
      if (!isStreamNotFound(err)) throw err;
      await this.ensureStream(spec, defaultDupMs);
    }
  }

  /**
   * The server's store cannot reserve the configured size: halve it (never below 64 MiB) and say so loudly,
   * so that a small machine still runs, and its operator learns what to give the server.
   */
  private fitStorage(spec: StreamSpec, want: { max_bytes: number }, err: unknown): boolean {
    if (!isInsufficientStorage(err) || want.max_bytes <= MIN_STREAM_BYTES) return false;
    const configured = want.max_bytes;
    want.max_bytes = Math.max(MIN_STREAM_BYTES, Math.floor(configured / 2));
    this.log.error(
      { stream: spec.name, configuredBytes: configured, tryingBytes: want.max_bytes, err: errorMessage(err) },
      'event-bus: the NATS server cannot reserve the stream size configured; using less (give the server more JetStream storage)',
    );
    return true;
  }

  private async ensureConsumer(spec: ResolvedConsumerSpec<unknown>, filterSubjects: string[] | undefined): Promise<ConsumerInfo> {
    const filters = filterSubjects?.filter(Boolean) ?? [];
    const changeable: Partial<ConsumerConfig> = {
      ack_wait: nanos(spec.ackWaitMs),
      max_deliver: -1, // bounded by maxAttempts in-process; poison deliveries are dead-lettered, never dropped
      max_ack_pending: spec.maxAckPending,
      filter_subject: filters.length === 1 ? filters[0] : undefined,
      filter_subjects: filters.length > 1 ? filters : undefined,
    };
    let waited = false;
    let raced = false;
    for (;;) {
      let info: ConsumerInfo;
      try {
        info = await this.jsm.consumers.info(spec.stream, spec.durable);
      } catch (err) {
        if (isStreamNotFound(err)) {
          // declared by its publisher, which has not started yet
          if (!waited)
            this.log.warn(
              { stream: spec.stream, durable: spec.durable },
              'event-bus: waiting for the stream to be declared by its publisher',
            );
          waited = true;
          if (this.closing || this.connection.isClosed()) throw new Error('event-bus: closed');
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        if (!isConsumerNotFound(err)) throw err;
        try {
          const created = await this.jsm.consumers.add(spec.stream, {
            durable_name: spec.durable,
            ack_policy: AckPolicy.Explicit,
            deliver_policy: DeliverPolicy.All,
            replay_policy: ReplayPolicy.Instant,
            ...changeable,
          });
          this.log.info({ stream: spec.stream, durable: spec.durable, filters }, 'event-bus: consumer created');
          return created;
        } catch (e) {
          if (!raced && isAlreadyExists(e)) {
            raced = true; // someone else created it meanwhile
            continue;
          }
          throw new Error(`event-bus: cannot create consumer ${spec.stream}/${spec.durable}: ${errorMessage(e)}`, { cause: e });
        }
      }
      const c = info.config;
      if (c.deliver_subject) throw new Error(`event-bus: ${spec.stream}/${spec.durable} is a push consumer; a pull consumer is needed`);
      if (c.ack_policy !== AckPolicy.Explicit) throw new Error(`event-bus: ${spec.stream}/${spec.durable} does not use explicit acks`);
      const haveFilters = c.filter_subjects?.length ? c.filter_subjects : c.filter_subject ? [c.filter_subject] : [];
      if (
        c.ack_wait === changeable.ack_wait &&
        c.max_deliver === changeable.max_deliver &&
        c.max_ack_pending === changeable.max_ack_pending &&
        sameSet(haveFilters, filters)
      ) {
        return info;
      }
      try {
        const updated = await this.jsm.consumers.update(spec.stream, spec.durable, changeable);
        this.log.info({ stream: spec.stream, durable: spec.durable, filters }, 'event-bus: consumer updated');
        return updated;
      } catch (e) {
        throw new Error(`event-bus: cannot update consumer ${spec.stream}/${spec.durable}: ${errorMessage(e)}`, { cause: e });
      }
    }
  }

  /**
   * Publishes JSON `payload` with `Nats-Msg-Id: msgId`. A repeat of the same msg id inside the
   * stream's duplicate window is dropped by the server (`duplicate: true`). Transient failures
   * (no responders, timeout) are retried twice, which the msg id makes safe.
   */
  async publish<T>(
    subject: string,
    payload: T,
    opts: { msgId: string; headers?: Record<string, string> },
  ): Promise<{ duplicate: boolean; seq: number }> {
    if (!opts?.msgId) throw new Error('event-bus: publish needs a msgId');
    const hdrs = natsHeaders();
    if (opts.headers) for (const [k, v] of Object.entries(opts.headers)) hdrs.set(k, v);
    hdrs.set('Nats-Msg-Id', opts.msgId);
    const json = JSON.stringify(payload);
    const data = json === undefined ? new Uint8Array(0) : encoder.encode(json);
    for (let attempt = 0; ; attempt++) {
      try {
        const ack = await this.publisher.publish(subject, data, hdrs);
        return { duplicate: ack.duplicate, seq: ack.seq };
      } catch (err) {
        if (attempt >= 2 || this.connection.isClosed() || !isTransientPublishError(err)) throw err;
        this.sayRetry(subject, opts.msgId, attempt + 1, err);
        await new Promise((r) => setTimeout(r, attempt === 0 ? 100 : 500));
      }
    }
  }

  /**
   * A publish tried again is said, so that a stall can be traced to it (its caller waited: a lost ack costs the whole
   * timeout); during an outage every publish fails, so at most one line in RETRY_WARN_EVERY_MS, with how many were not said.
   */
  private sayRetry(subject: string, msgId: string, attempt: number, err: unknown): void {
    const now = Date.now();
    if (now - this.retryWarnAt < RETRY_WARN_EVERY_MS) {
      this.retriesUnsaid++;
      return;
    }
    this.log.warn(
      { subject, msgId, attempt, err: errorMessage(err), othersSinceLastLine: this.retriesUnsaid },
      'event-bus: publish failed; trying again',
    );
    this.retryWarnAt = now;
    this.retriesUnsaid = 0;
  }

  /**
   * Declares the durable pull consumer idempotently and starts a streaming consume.
   * Messages are spread over `concurrency` lanes by the hash of `orderKey(subject)`; each lane
   * hands its waiting messages (up to batchSize) to the handler, in order, and acks them after
   * the handler resolved. Failures are retried in the lane with backoff, then dead-lettered.
   */
  async consume<T>(spec: ConsumerSpec<T>): Promise<ConsumerHandle> {
    if (this.closing || this.connection.isClosed()) throw new Error('event-bus: closed');
    const resolved = resolveSpec(spec);
    await this.ensureConsumer(resolved as ResolvedConsumerSpec<unknown>, spec.filterSubjects);
    const runner = new ConsumerRunner<T>(
      resolved,
      this.connection,
      this.js,
      this.log,
      (r) => this.runners.delete(r as ConsumerRunner<unknown>),
      () => this.jsm.consumers.info(resolved.stream, resolved.durable),
    );
    this.runners.add(runner as ConsumerRunner<unknown>);
    try {
      await runner.start();
    } catch (err) {
      this.runners.delete(runner as ConsumerRunner<unknown>);
      throw err;
    }
    this.log.info(
      {
        stream: resolved.stream,
        durable: resolved.durable,
        concurrency: resolved.concurrency,
        batchSize: resolved.batchSize,
        maxAckPending: resolved.maxAckPending,
      },
      'event-bus: consuming',
    );
    return { stop: () => runner.stop(), stats: () => runner.stats() };
  }

  /** What each consumer of this process has done (for /metrics). */
  consumerStats(): ConsumerStats[] {
    return [...this.runners].map((r) => r.stats());
  }

  /** Messages in the dead-letter stream (for /health); throws when the server cannot be asked. */
  async deadLetterCount(): Promise<number> {
    const info = await this.jsm.streams.info(DLQ_STREAM.name);
    return info.state.messages;
  }

  /** Messages not yet acked by a durable consumer: waiting in the stream plus delivered and unacked. */
  async consumerPending(stream: string, durable: string): Promise<number> {
    const info = await this.jsm.consumers.info(stream, durable);
    return info.num_pending + info.num_ack_pending;
  }

  /** False from a disconnect until the client reconnected. */
  isConnected(): boolean {
    return this.connected && !this.connection.isClosed();
  }

  /** Round-trip time to the server in ms; throws when disconnected or closed. */
  async ping(): Promise<number> {
    if (this.connection.isClosed()) throw new Error('event-bus: connection closed');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('event-bus: ping timeout')), 2000);
    });
    try {
      return await Promise.race([this.connection.rtt(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  isClosed(): boolean {
    return this.connection.isClosed();
  }

  /** Stops every consumer (finishing and acking in-flight work), then drains the connection. */
  close(): Promise<void> {
    if (!this.closing) this.closing = this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    await Promise.all([...this.runners].map((r) => r.stop()));
    if (!this.connection.isClosed()) {
      await this.publisher.settled(); // publishes in flight get their acks
      try {
        await this.connection.drain();
      } catch (err) {
        this.log.warn({ err: errorMessage(err) }, 'event-bus: drain failed; closing');
        await this.connection.close().catch(() => undefined);
      }
    }
    this.publisher.close();
  }
}
