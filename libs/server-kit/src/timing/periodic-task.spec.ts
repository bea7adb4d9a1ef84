import { describe, expect, it } from '@jest/globals';
import { PeriodicTask } from './periodic-task.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PeriodicTask', () => {
  it('runs its pass again and again, never two at once, and stop() waits for the pass under way', async () => {
    let inFlight = 0;
    let most = 0;
    let passes = 0;
    let finished = 0;
    const task = new PeriodicTask({
      name: 'slow',
      everyMs: 5,
      run: async () => {
        inFlight++;
        passes++;
        most = Math.max(most, inFlight);
        await tick(30);
        inFlight--;
        finished++;
      },
    });
    task.start();
    while (passes < 3) await tick(5);
    await task.stop();
    expect(most).toBe(1);
    expect(finished).toBe(passes);
    const after = passes;
    await tick(40);
    expect(passes).toBe(after);
  });

  it('logs a failed pass by name and goes on with the next one', async () => {
    const warnings: string[] = [];
    let passes = 0;
    const task = new PeriodicTask({
      name: 'flaky',
      everyMs: 5,
      runAtStart: true,
      logger: { warn: (_obj, msg) => warnings.push(msg) },
      run: async () => {
        passes++;
        if (passes === 1) throw new Error('database away');
      },
    });
    task.start();
    while (passes < 2) await tick(5);
    await task.stop();
    expect(warnings).toEqual(['flaky: pass failed; the next one retries']);
  });

  it('runNow joins the pass under way instead of starting a second', async () => {
    let passes = 0;
    const task = new PeriodicTask({
      name: 'joined',
      everyMs: 60_000,
      run: async () => {
        passes++;
        await tick(20);
      },
    });
    const a = task.runNow();
    const b = task.runNow();
    expect(task.busy).toBe(true);
    await Promise.all([a, b]);
    expect(passes).toBe(1);
    expect(task.busy).toBe(false);
  });

  it('request() runs a pass at once when idle, and once more after the pass under way however often it is asked; none after stop()', async () => {
    let passes = 0;
    let release: () => void = () => undefined;
    const task = new PeriodicTask({
      name: 'asked',
      everyMs: 60_000,
      run: async () => {
        passes++;
        await new Promise<void>((r) => (release = r));
      },
    });
    task.request();
    expect(passes).toBe(1);
    task.request();
    task.request();
    release();
    while (passes < 2) await tick(1);
    expect(task.busy).toBe(true);
    release();
    await tick(5);
    expect(passes).toBe(2);
    expect(task.busy).toBe(false);
    task.request();
    task.request();
    const stopping = task.stop();
    release();
    await stopping;
    await tick(5);
    expect(passes).toBe(3);
    task.request();
    expect(passes).toBe(3);
  });
});
