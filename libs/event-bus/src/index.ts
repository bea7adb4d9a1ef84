export type { BusLogger, BusMessage, BusOptions, ConsumerHandle, ConsumerSpec, NatsConnection, StreamSpec } from './types.js';
export { EventBus, DLQ_STREAM, DEFAULT_DUPLICATE_WINDOW_MS, defaultStreams } from './event-bus.js';
export { DlqHeaders } from './consumer.js';
export { PublishError } from './publisher.js';
export { EventBusModule, EVENT_BUS_OPTIONS } from './event-bus.module.js';
export type { EventBusModuleAsyncOptions } from './event-bus.module.js';
export { DEFAULT_BACKOFF_MS, backoffDelay, dlqSubject, laneOf } from './util.js';
