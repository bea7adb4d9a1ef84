/** What a periodic task tells when a pass fails (pino's shape; any logger with `warn` fits). */
export interface PeriodicTaskLogger {
  warn(obj: object, msg: string): void;
}

export interface PeriodicTaskOptions {
  /** Named in the warning when a pass fails. */
  name: string;
  /** Time between the starts of two passes (a pass still running when the next is due makes that one skip). */
  everyMs: number;
  /** One pass. Its failure is logged and the next pass runs as usual. */
  run: () => Promise<unknown>;
  logger?: PeriodicTaskLogger;
  /** Also run a pass at start, not only after the first interval. */
  runAtStart?: boolean;
}

/**
 * A pass of work every `everyMs`, never two at once: what a sweeper, a poller or a lease renewer needs. The timer
 * does not keep the process alive; `stop()` ends the timer and waits for a pass under way, so a service's shutdown
 * hook can await it before closing its pools.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  /** a pass was asked for while one was under way: one more follows it */
  private rerun = false;
  private stopped = false;

  constructor(private readonly opts: PeriodicTaskOptions) {}

  /** Starts the timer (again, if it was stopped). */
  start(): void {
    this.stopped = false;
    if (this.timer) return;
    this.timer = setInterval(() => void this.runNow(), this.opts.everyMs);
    this.timer.unref();
    if (this.opts.runAtStart) void this.runNow();
  }

  /** Runs a pass now, or answers the one under way (so a caller can wait for fresh work without a second pass). */
  runNow(): Promise<void> {
    this.current ??= this.opts
      .run()
      .then(
        () => undefined,
        (err: unknown) => this.opts.logger?.warn({ err: String(err) }, `${this.opts.name}: pass failed; the next one retries`),
      )
      .finally(() => {
        this.current = undefined;
        if (this.rerun && !this.stopped) {
          this.rerun = false;
          void this.runNow();
        }
      });
    return this.current;
  }

  /**
   * Asks for a pass soon (new work was written): now when idle, else once more right after the pass under way,
   * however often it is asked meanwhile. Nothing after `stop()`.
   */
  request(): void {
    if (this.stopped) return;
    if (this.current) this.rerun = true;
    else void this.runNow();
  }

  /** A pass is under way. */
  get busy(): boolean {
    return this.current !== undefined;
  }

  /** Stops the timer, drops a pass asked for, and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.rerun = false;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.current;
  }
}
