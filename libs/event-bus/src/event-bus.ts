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
import type { BusLogger, BusOptions, ConsumerHandle, ConsumerSpec, StreamSpec } from './types.js';
import { errorMessage } from './util.js';

/** The dead-letter stream; always declared. A dead message lands on `dlq.<durable>.<original subject>`. */
export const DLQ_STREAM: StreamSpec = { name: 'DLQ', subjects: ['dlq.>'] };

export const DEFAULT_DUPLICATE_WINDOW_MS = 2 * 60_000;

const encoder = new TextEncoder();

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
  private closing: Promise<void> | undefined;

  private constructor(
    readonly connection: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly log: BusLogger,
  ) {
    this.publisher = new JetStreamPublisher(connection);
  }

  /** Connects and declares the streams idempotently (add, or update when the config differs). */
  static async connect(opts: BusOptions): Promise<EventBus> {
    const log = opts.logger ?? defaultLogger;
    const nc = await connect({
      servers: opts.servers.split(',').map((s) => s.trim()).filter(Boolean),
      name: opts.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      // no Error (stack capture) per request: that alone cost ~20% of the CPU at 6k publishes/s
      noAsyncTraces: true,
    });
    try {
      const jsm = await nc.jetstreamManager();
      const bus = new EventBus(nc, nc.jetstream(), jsm, log);
      void bus.watchConnection();
      const streams = [...(opts.streams ?? defaultStreams())];
      if (!streams.some((s) => s.name === DLQ_STREAM.name)) streams.push(DLQ_STREAM);
      for (const s of streams) await bus.ensureStream(s, opts.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS);
      log.info({ servers: opts.servers, name: opts.name, streams: streams.map((s) => s.name) }, 'event-bus: connected');
      return bus;
    } catch (err) {
      await nc.close().catch(() => undefined);
      throw err;
    }
  }

  private async watchConnection(): Promise<void> {
    for await (const s of this.connection.status()) {
      if (s.type === 'disconnect' || s.type === 'error') this.log.warn({ event: s.type, data: s.data }, 'event-bus: connection');
      else if (s.type === 'reconnect') this.log.info({ event: s.type, data: s.data }, 'event-bus: connection');
    }
  }

  private async ensureStream(spec: StreamSpec, defaultDupMs: number): Promise<StreamInfo> {
    const maxAgeMs = spec.maxAgeMs ?? 0;
    let dupMs = spec.duplicateWindowMs ?? defaultDupMs;
    if (maxAgeMs > 0 && dupMs > maxAgeMs) dupMs = maxAgeMs; // the server requires duplicates <= max_age
    const want = { subjects: [...spec.subjects], duplicate_window: nanos(dupMs), max_age: nanos(maxAgeMs) };
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
            discard: DiscardPolicy.Old,
            num_replicas: 1,
          });
          this.log.info({ stream: spec.name, subjects: spec.subjects }, 'event-bus: stream created');
          return created;
        } catch (e) {
          if (round === 0 && isAlreadyExists(e)) continue; // someone else created it meanwhile
          throw new Error(`event-bus: cannot create stream ${spec.name}: ${errorMessage(e)}`, { cause: e });
        }
      }
      const c = info.config;
      if (sameSet(c.subjects ?? [], want.subjects) && c.duplicate_window === want.duplicate_window && c.max_age === want.max_age) {
        return info;
      }
      try {
        const updated = await this.jsm.streams.update(spec.name, want);
        this.log.info({ stream: spec.name, subjects: spec.subjects, duplicateWindowMs: dupMs, maxAgeMs }, 'event-bus: stream updated');
        return updated;
      } catch (e) {
        throw new Error(`event-bus: cannot update stream ${spec.name}: ${errorMessage(e)}`, { cause: e });
      }
    }
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
    for (let round = 0; ; round++) {
      let info: ConsumerInfo;
      try {
        info = await this.jsm.consumers.info(spec.stream, spec.durable);
      } catch (err) {
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
          if (round === 0 && isAlreadyExists(e)) continue;
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
  async publish<T>(subject: string, payload: T, opts: { msgId: string; headers?: Record<string, string> }): Promise<{ duplicate: boolean; seq: number }> {
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
        await new Promise((r) => setTimeout(r, attempt === 0 ? 100 : 500));
      }
    }
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
      { stream: resolved.stream, durable: resolved.durable, concurrency: resolved.concurrency, batchSize: resolved.batchSize, maxAckPending: resolved.maxAckPending },
      'event-bus: consuming',
    );
    return { stop: () => runner.stop() };
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
