import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { EventBus, type ConsumerStats } from '@wa/event-bus';
import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from './metrics.js';

/** Something that reports its outbox (rows waiting, rows set aside) for /metrics and /health. */
export interface OutboxProbe {
  readonly name: string;
  counts(): Promise<{ pending: number; parked: number }>;
  readonly published: number;
}

const buses = new Set<EventBus>();
const outboxes = new Set<OutboxProbe>();
const SCRAPE_TIMEOUT_MS = 1000;

/** `p`'s value, or undefined when it fails or takes longer than `ms` (a probe must not hang a scrape). */
export function withTimeout<T>(p: Promise<T>, ms = SCRAPE_TIMEOUT_MS): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.catch(() => undefined),
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function allStats(): ConsumerStats[] {
  return [...buses].flatMap((b) => b.consumerStats());
}

function counter(name: string, help: string, pick: (s: ConsumerStats) => number): void {
  new Counter({
    name,
    help,
    labelNames: ['stream', 'durable'] as const,
    registers: [metricsRegistry],
    collect() {
      this.reset();
      for (const s of allStats()) this.inc({ stream: s.stream, durable: s.durable }, pick(s));
    },
  });
}

counter('event_bus_consumer_handled_total', 'Messages handled and acked, per consumer', (s) => s.handled);
counter('event_bus_consumer_retried_total', 'Handler calls repeated after a failure, per consumer', (s) => s.retried);
counter(
  'event_bus_consumer_outage_failures_total',
  'Handler calls that failed because a dependency was unreachable (waited out)',
  (s) => s.outageFailures,
);
counter('event_bus_consumer_dead_lettered_total', 'Messages moved to the dead-letter stream, per consumer', (s) => s.deadLettered);

new Gauge({
  name: 'event_bus_consumer_pending',
  help: 'Messages of a consumer not yet acked: waiting in the stream plus delivered and unacked (in-process count when NATS cannot be asked)',
  labelNames: ['stream', 'durable'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    const rows = [...buses].flatMap((b) => b.consumerStats().map((s) => ({ b, s })));
    await Promise.all(
      rows.map(async ({ b, s }) => {
        const pending = await withTimeout(b.consumerPending(s.stream, s.durable));
        this.set({ stream: s.stream, durable: s.durable }, pending ?? s.inFlight);
      }),
    );
  },
});

new Gauge({
  name: 'event_bus_dead_letters',
  help: 'Messages in the dead-letter stream (npm run dlq -- list)',
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    const bus = [...buses][0];
    const n = bus ? await withTimeout(bus.deadLetterCount()) : undefined;
    if (n !== undefined) this.set(n);
  },
});

new Gauge({
  name: 'outbox_rows',
  help: 'Outbox rows by state: pending (to publish) and parked (set aside after failing again and again)',
  labelNames: ['outbox', 'state'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    await Promise.all(
      [...outboxes].map(async (o) => {
        const c = await withTimeout(o.counts());
        if (!c) return;
        this.set({ outbox: o.name, state: 'pending' }, c.pending);
        this.set({ outbox: o.name, state: 'parked' }, c.parked);
      }),
    );
  },
});

new Counter({
  name: 'outbox_published_total',
  help: 'Outbox rows published, per outbox',
  labelNames: ['outbox'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const o of outboxes) this.inc({ outbox: o.name }, o.published);
  },
});

/** Outbox rows set aside in this process' outboxes (for /health). */
export async function parkedOutboxRows(): Promise<number> {
  let n = 0;
  for (const o of outboxes) n += (await o.counts()).parked;
  return n;
}

/** Lets /metrics see an outbox (the Outbox of @wa/database registers itself through this). */
export function watchOutbox(o: OutboxProbe): () => void {
  outboxes.add(o);
  return () => outboxes.delete(o);
}

/** Registers the process' event bus with /metrics while the application runs. */
@Injectable()
export class BusMetrics implements OnModuleInit, OnModuleDestroy {
  constructor(@Inject(EventBus) private readonly bus: EventBus) {}

  onModuleInit(): void {
    buses.add(this.bus);
  }

  onModuleDestroy(): void {
    buses.delete(this.bus);
  }
}
