import { Gauge } from 'prom-client';
import { withTimeout } from './bus-metrics.js';
import { metricsRegistry } from './metrics.js';

/** A job queue as the metrics read it: BullMQ's `Queue` has this shape (server-kit does not depend on BullMQ). */
export interface CountedJobQueue {
  readonly name: string;
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
}

/** The states an operator alerts on: work waiting or due later, work running, work given up. */
const STATES = ['waiting', 'prioritized', 'delayed', 'active', 'failed'] as const;

const jobQueues = new Map<string, CountedJobQueue>();

/** Counts these queues' jobs in `job_queue_jobs{queue,state}` at each scrape (call it where the queues are injected). */
export function countJobsOf(...queues: CountedJobQueue[]): void {
  for (const q of queues) jobQueues.set(q.name, q);
}

new Gauge({
  name: 'job_queue_jobs',
  help: "Jobs of each BullMQ queue by state (waiting, prioritized, delayed, active, failed): the queue's own counts in Redis, the same from every replica",
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    await Promise.all(
      [...jobQueues.values()].map(async (q) => {
        const counts = await withTimeout(q.getJobCounts(...STATES));
        if (!counts) return;
        for (const state of STATES) this.set({ queue: q.name, state }, counts[state] ?? 0);
      }),
    );
  },
});
