import type { ConsumerInfo, Msg, NatsConnection, NatsError } from 'nats';

/**
 * Core NATS request/reply with JSON bodies, and the reset of a durable consumer. Plain functions over
 * the bus's connection (an `EventBus`, or anything that has one): no stream is involved, so a request
 * reaches only whoever subscribes at that moment, and nobody subscribing is an answer of its own.
 */

/** Whatever holds the NATS connection (an `EventBus`). */
export interface HasConnection {
  readonly connection: NatsConnection;
}

/** Nobody subscribes to the subject: no process serves it right now. */
export class NoRespondersError extends Error {
  constructor(readonly subject: string) {
    super(`no responders on ${subject}`);
    this.name = 'NoRespondersError';
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const encode = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value ?? null));

/**
 * Sends `payload` as JSON to the one process serving `subject` and answers its decoded JSON reply.
 * Rejects with NoRespondersError when nobody serves the subject, and with NATS' own error on a timeout
 * or a lost connection.
 */
export async function request<R = unknown>(
  bus: HasConnection,
  subject: string,
  payload: unknown,
  options: { timeoutMs: number },
): Promise<R> {
  let reply: Msg;
  try {
    reply = await bus.connection.request(subject, encode(payload), { timeout: options.timeoutMs });
  } catch (err) {
    if ((err as NatsError | undefined)?.code === '503') throw new NoRespondersError(subject);
    throw err;
  }
  return JSON.parse(decoder.decode(reply.data)) as R;
}

export interface ServeOptions<R> {
  /** the reply to a request whose body is not JSON; without it such a request gets no reply (its sender times out) */
  malformed?: () => R;
  /** the reply when the handler fails; without it the sender times out */
  failed?: (err: unknown) => R;
}

/**
 * Answers the requests on `subject` with `handler`'s result, as JSON. Requests are handled as they
 * come, side by side. Answers a function that stops serving (the subscription ends at once).
 */
export function serve<R>(
  bus: HasConnection,
  subject: string,
  handler: (payload: unknown) => Promise<R> | R,
  options: ServeOptions<R> = {},
): () => void {
  const respond = (msg: Msg, value: R) => {
    if (msg.reply) msg.respond(encode(value));
  };
  const sub = bus.connection.subscribe(subject, {
    callback: (err, msg) => {
      if (err) return;
      let payload: unknown;
      try {
        payload = JSON.parse(decoder.decode(msg.data));
      } catch {
        if (options.malformed) respond(msg, options.malformed());
        return;
      }
      void (async () => {
        try {
          respond(msg, await handler(payload));
        } catch (failure) {
          if (options.failed) respond(msg, options.failed(failure));
        }
      })();
    },
  });
  return () => sub.unsubscribe();
}

/**
 * Deletes a durable consumer, so that the next consumer of that name starts anew (or, for a deleted
 * owner, nothing is left behind). Answers false when there was no such consumer; other failures reject.
 */
export async function deleteDurable(bus: HasConnection, stream: string, durable: string): Promise<boolean> {
  const jsm = await bus.connection.jetstreamManager();
  try {
    return await jsm.consumers.delete(stream, durable);
  } catch (err) {
    if (isConsumerNotFound(err)) return false;
    throw err;
  }
}

/** A durable consumer's state, or null when there is no such consumer (or no such stream). */
export async function durableInfo(bus: HasConnection, stream: string, durable: string): Promise<ConsumerInfo | null> {
  const jsm = await bus.connection.jetstreamManager();
  try {
    return await jsm.consumers.info(stream, durable);
  } catch (err) {
    if (isConsumerNotFound(err) || isStreamNotFound(err)) return null;
    throw err;
  }
}

/** JetStream's "consumer not found" (API error 10014). */
function isConsumerNotFound(err: unknown): boolean {
  const apiError = (err as NatsError | undefined)?.api_error;
  return apiError?.err_code === 10014 || /consumer not found/i.test((err as Error | undefined)?.message ?? '');
}

/** JetStream's "stream not found" (API error 10059). */
function isStreamNotFound(err: unknown): boolean {
  const apiError = (err as NatsError | undefined)?.api_error;
  return apiError?.err_code === 10059 || /stream not found/i.test((err as Error | undefined)?.message ?? '');
}

/**
 * Publishes `payload` as JSON on core NATS (no stream keeps it): whoever subscribes at this moment gets it, nobody
 * ever does later. For what is worth nothing a few seconds on (a presence); anything that must arrive is an event.
 */
export function announce(bus: HasConnection, subject: string, payload: unknown): void {
  if (bus.connection.isClosed()) return;
  bus.connection.publish(subject, encode(payload));
}

/**
 * Takes what is announced on `subject` (wildcards allowed), decoded; with `queue`, one subscriber of the group gets
 * each message (a service's replicas share them). What is not JSON is dropped, a failing handler only logged by the
 * caller's `failed`. Answers a function that stops listening.
 */
export function listen<T>(
  bus: HasConnection,
  subject: string,
  handler: (payload: T, subject: string) => unknown,
  options: { queue?: string; failed?: (err: unknown) => void } = {},
): () => void {
  const sub = bus.connection.subscribe(subject, {
    queue: options.queue,
    callback: (err, msg) => {
      if (err) return;
      let payload: T;
      try {
        payload = JSON.parse(decoder.decode(msg.data)) as T;
      } catch {
        return;
      }
      void (async () => handler(payload, msg.subject))().catch((failure: unknown) => options.failed?.(failure));
    },
  });
  return () => sub.unsubscribe();
}
