export type { BusLogger, BusMessage, BusOptions, ConsumerHandle, ConsumerSpec, NatsConnection, StreamSpec } from './types.js';
export { EventBus, DLQ_STREAM, DEFAULT_DUPLICATE_WINDOW_MS, defaultStreams } from './event-bus.js';
export { DlqHeaders } from './consumer.js';
export { PublishError } from './publisher.js';
export { EventBusModule, EVENT_BUS_OPTIONS } from './event-bus.module.js';
export type { EventBusModuleAsyncOptions } from './event-bus.module.js';
export { DEFAULT_BACKOFF_MS, backoffDelay, dlqSubject, errorMessage, fnv1a, laneOf } from './util.js';
export type { ConsumerStats, StreamLimits } from './types.js';
export { DEFAULT_STREAM_LIMITS, DEFAULT_STREAM_BYTES } from './event-bus.js';
export { isTransientError, outageDelay, TransientError, PoisonError } from './util.js';
export { DeadLetters } from './dlq.js';
export type { DeadLetter, DeadLetterDetail, ReplayResult } from './dlq.js';
export {
  NoRespondersError,
  announce,
  deleteDurable,
  durableInfo,
  listen,
  request,
  serve,
  type HasConnection,
  type ServeOptions,
} from './rpc.js';
