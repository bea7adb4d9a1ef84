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
  /** Maximum age of stored messages; 0 / undefined = unlimited. */
  maxAgeMs?: number;
}

export interface BusOptions {
  /** Comma separated server URLs, e.g. `nats://127.0.0.1:4222`. */
  servers: string;
  /** Connection name (shows in server monitoring). */
  name: string;
  /** Streams declared at connect. Default: every stream of `Streams` (@wa/contracts). The DLQ stream is always added. */
  streams?: StreamSpec[];
  logger?: BusLogger;
  /** Default duplicate window of declared streams. Default 2 min. */
  duplicateWindowMs?: number;
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
  headers: Record<string, string>;
}

export interface ConsumerSpec<T> {
  stream: string;
  durable: string;
  filterSubjects?: string[];
  /** Conversation key; messages with the same key are handled in order. Default: the whole subject. */
  orderKey?: (subject: string) => string;
  /** Parallel lanes keyed by orderKey hash. Default 8. */
  concurrency?: number;
  /** Max messages handed to one handler call (only those already waiting). Default 1. */
  batchSize?: number;
  /** Attempts per delivery before dead-lettering. Default 5. */
  maxAttempts?: number;
  /** Delays between attempts; the last one repeats. Default [200, 1000, 5000, 15000]. */
  backoffMs?: number[];
  /** JetStream ack wait. Default 30000. */
  ackWaitMs?: number;
  /** Bound of delivered-but-unacked messages (consumer max_ack_pending). Default max(256, concurrency * batchSize * 4). */
  maxAckPending?: number;
  /** The batch is acked only after the returned promise resolved (its transaction committed). */
  handler: (batch: BusMessage<T>[]) => Promise<void>;
}

export interface ConsumerHandle {
  /**
   * Stop fetching, let each lane finish the handler call in progress, ack it, return.
   * Messages not started (or waiting for a retry) are not acked: they are handed back with -NAK
   * so that JetStream redelivers them at once, ahead of newer messages.
   */
  stop(): Promise<void>;
}
