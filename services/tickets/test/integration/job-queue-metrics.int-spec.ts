import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { countJobsOf } from '@wa/server-kit';
import { TEST_REDIS_URL } from '@wa/testing';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { startTickets, type TicketsUnderTest } from './harness.js';

/**
 * `job_queue_jobs{queue,state}` (issue 45 §9): the depth of each BullMQ queue by state, from Redis at each scrape,
 * for the queues the service works (scheduled messages, contact pictures) and any other it is given.
 */
let t: TicketsUnderTest;
let queue: Queue;

beforeAll(async () => {
  t = await startTickets();
  const url = new URL(TEST_REDIS_URL);
  queue = new Queue(`metrics-test-${randomUUID().slice(0, 8)}`, {
    connection: { host: url.hostname, port: Number(url.port || 6379), db: Number(url.pathname.slice(1) || 0) },
  });
});

afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  await t?.close();
});

const jobs = async (name: string, state: string): Promise<number> => {
  const text = String((await t.http.get('/metrics')).body);
  const line = text
    .split('\n')
    .find((l) => l.startsWith('job_queue_jobs{') && l.includes(`queue="${name}"`) && l.includes(`state="${state}"`));
  return line ? Number(line.split(' ').pop()) : NaN;
};

describe('job queue metrics', () => {
  it("counts each queue's jobs by state at every scrape, as they are in Redis (the service's own queues from the start)", async () => {
    // the service's own queues are there from the start
    for (const own of ['schedules', 'contact-pictures']) expect(await jobs(own, 'delayed')).toBeGreaterThanOrEqual(0);
    countJobsOf(queue);
    expect([await jobs(queue.name, 'waiting'), await jobs(queue.name, 'delayed'), await jobs(queue.name, 'failed')]).toEqual([0, 0, 0]);
    await queue.add('now', { n: 1 });
    await queue.add('later', { n: 2 }, { delay: 3_600_000 });
    await queue.add('later', { n: 3 }, { delay: 3_600_000 });
    expect([await jobs(queue.name, 'waiting'), await jobs(queue.name, 'delayed')]).toEqual([1, 2]);
    const delayed = await queue.getDelayed();
    await delayed[0]?.remove();
    expect(await jobs(queue.name, 'delayed')).toBe(1);
  });
});
