import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { initMetrics, metricsRegistry } from './metrics.js';

/** One scrape of the process's registry (a scrape also starts the event loop's next measuring period). */
async function scrape(): Promise<Map<string, number>> {
  const metrics = await metricsRegistry.getMetricsAsJSON();
  return new Map(metrics.map((m) => [m.name, Number(m.values[0]?.value)]));
}

describe('the event loop delay the operators alert on', () => {
  it('shows a loop held for 600 ms in nodejs_eventloop_lag_p99_seconds, over the alert threshold (0.5 s)', async () => {
    initMetrics('metrics-spec');
    // an idle loop first: a period of its own
    await sleep(1_000);
    expect((await scrape()).get('nodejs_eventloop_lag_p99_seconds')).toBeLessThan(0.5);
    // the first sample of a period has no earlier one to measure from
    await sleep(300);
    const until = Date.now() + 600;
    while (Date.now() < until) {
      // the loop is held: no timer, no I/O
    }
    await sleep(300);
    const after = await scrape();
    expect(after.get('nodejs_eventloop_lag_max_seconds')).toBeGreaterThan(0.5);
    expect(after.get('nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0.5);
    // the next period saw no such stall
    await sleep(300);
    expect((await scrape()).get('nodejs_eventloop_lag_p99_seconds')).toBeLessThan(0.5);
  });
});
