import type { NatsConnection } from 'nats';

export type { NatsConnection };

/** Minimal structured logger (pino-compatible: object first, message second). */
export interface BusLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface StreamSpec {
  name: string;
  subjects: string[];
  /** Window in which a repeated `Nats-Msg-Id` is dropped. Default: BusOptions.duplicateWindowMs (2 min). */
  duplicateWindowMs?: number;
  /** Maximum age of stored messages. Default: BusOptions.limits.maxAgeMs (7 days); 0 = unlimited. */
  maxAgeMs?: number;
  /** Maximum size of the stream in bytes. Default: BusOptions.limits.maxBytes; -1 = unlimited. */
  maxBytes?: number;
}

/**
 * What a stream may hold. When a stream is full a publish is refused (discard new), so a caller learns it
 * at once (HTTP 503) instead of the oldest messages being dropped silently.
 */
export interface StreamLimits {
  /** Default 7 days. */
  maxAgeMs: number;
  /** Default 1 GiB per stream. */
  maxBytes: number;
}

export interface BusOptions {
  /** Comma separated server URLs, e.g. `nats://127.0.0.1:4222`. */
  servers: string;
  /** Connection name (shows in server monitoring). */
  name: string;
  /**
   * Streams this process publishes to, declared at connect (created, or updated when the config differs).
   * Default: every stream of `Streams` (@wa/contracts). The DLQ stream is always added.
   */
  streams?: StreamSpec[];
  /**
   * Streams this process only consumes. On an open server (no `user`) they are created at connect when
   * missing; with per-service users they are their publisher's to declare, and a consumer on a stream that
   * does not exist yet waits for it. Default: none.
   */
  reads?: StreamSpec[];
  /** NATS user and password (k8s/base/nats.conf gives each service its own); none on an open server. */
  user?: string;
  pass?: string;
  /**
   * Prefix of the reply subjects this connection subscribes to (default `_INBOX`); with per-service users,
   * `_INBOX.<user>` so a service may subscribe to its own replies only.
   */
  inboxPrefix?: string;
  logger?: BusLogger;
  /** Default duplicate window of declared streams. Default 2 min. */
  duplicateWindowMs?: number;
  /** Default limits of declared streams (a stream's own values win). */
  limits?: Partial<StreamLimits>;
}

export interface BusMessage<T> {
  subject: string;
  data: T;
  /** The `Nats-Msg-Id` the message was published with. */
  msgId: string | undefined;
  /** Stream sequence. */
  streamSeq: number;
  /** JetStream delivery count (1 on the first delivery; grows on redelivery after a crash / ack-wait expiry). */
  deliveryCount: number;
  /**
   * Handler calls of this delivery so far, this one included: 1 on the first call, 2+ when the call is a
   * retry in this process (an earlier call may have committed before it failed, so a retry must not
   * assume that "already stored" means "already announced").
   */
  attempt: number;
  headers: Record<string, string>;
}

export interface ConsumerSpec<T> {
  stream: string;
  durable: string;
  filterSubjects?: string[];
  /**
   * Conversation key; messages with the same key are handled in order. Default: the whole subject. `data` is
   * the decoded payload (undefined when it could not be decoded), for a conversation the subject does not name.
   */
  orderKey?: (subject: string, data: T | undefined) => string;
  /** Parallel lanes keyed by orderKey hash. Default 8. */
  concurrency?: number;
  /** Max messages handed to one handler call (only those already waiting). Default 1. */
  batchSize?: number;
  /**
   * How long a lane waits for more messages before handling a batch smaller than batchSize. Default 0: a
   * lone message is handled at once. For work whose cost is per batch and whose latency does not matter
   * (a message's ack rising, say), a few tens of ms make one batch of what would have been many.
   */
  lingerMs?: number;
  /**
   * Attempts per delivery before dead-lettering, counting only failures that will repeat (a bad payload,
   * a broken rule). Failures of an unreachable dependency (see isTransient) are waited out, never counted.
   * Default 5.
   */
  maxAttempts?: number;
  /** Delays between attempts after a failure that will repeat; the last one repeats. Default [200, 1000, 5000, 15000]. */
  backoffMs?: number[];
  /**
   * A failure that will repeat is retried by JetStream, not in place: the message is handed back with a
   * delayed -NAK (backoffMs by its delivery count) and its lane goes on with the next messages. Its tries are
   * JetStream's delivery count (BusMessage.deliveryCount), so they survive a restart; past maxAttempts
   * deliveries it is dead-lettered. Its conversation's later messages wait for it (held by this consumer, not
   * handled), so a conversation's order is kept and only other conversations go on. Default false (retried in
   * place, the lane waiting).
   */
  retryByRedelivery?: boolean;
  /** Capped exponential back-off with jitter while a dependency is unreachable. Default 250 ms doubling to 5 s. */
  outageBackoff?: { initialMs?: number; maxMs?: number };
  /** Decides whether a handler failure is an outage (waited out) or will repeat. Default: `isTransientError`. */
  isTransient?: (err: unknown) => boolean;
  /**
   * A message delivered more often than this without being acked crashed its consumers (or was never
   * handled): it is dead-lettered without calling the handler. Default max(10, 2 × maxAttempts).
   */
  maxDeliveries?: number;
  /** JetStream ack wait. Default 30000. */
  ackWaitMs?: number;
  /** Bound of delivered-but-unacked messages (consumer max_ack_pending). Default max(256, concurrency * batchSize * 4). */
  maxAckPending?: number;
  /** The batch is acked only after the returned promise resolved (its transaction committed). */
  handler: (batch: BusMessage<T>[]) => Promise<void>;
}

/** What a consumer has done since it started (per process). */
export interface ConsumerStats {
  stream: string;
  durable: string;
  /** messages acked after their handler succeeded */
  handled: number;
  /** handler calls repeated after a failure (outage or not) */
  retried: number;
  /** handler calls that failed because a dependency was unreachable */
  outageFailures: number;
  deadLettered: number;
  /** messages this process holds: queued in a lane, being handled, or waiting for a retry */
  inFlight: number;
}

export interface ConsumerHandle {
  /**
   * Stop fetching, let each lane finish the handler call in progress, ack it, return.
   * Messages not started (or waiting for a retry) are not acked: they are handed back with -NAK
   * so that JetStream redelivers them at once, ahead of newer messages.
   */
  stop(): Promise<void>;
  stats(): ConsumerStats;
}
