/** Tries of a window's write before its status changes are given up (an outage longer than this loses them, as before). */
const ATTEMPTS = 3;

/**
 * Status changes of sends gathered for `windowMs` (from the first that comes) and written together. The process keeps
 * one for all the sessions it runs (SessionRunner): one statement on sent_messages for every session's changes in the
 * window, then one `wa.ack` event per connection, a message's changes within the window taken as its highest (acks only
 * go up). WhatsApp tells them a receipt at a time, and a pod runs many sessions; under load a window holds many. 0: each
 * as it comes. A write that fails is tried again (ATTEMPTS, doubling pauses); windows are written one after the other.
 */
export class AckWindow<T> {
  private waiting: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly windowMs: number,
    private readonly write: (acks: T[]) => Promise<void>,
    private readonly givenUp: (err: unknown, acks: readonly T[]) => void,
  ) {}

  /** Status changes told by the provider: written at the window's end (at once with a window of 0, and awaited). */
  add(acks: readonly T[]): Promise<void> | undefined {
    if (acks.length === 0) return undefined;
    if (this.windowMs === 0) return this.write([...acks]);
    this.waiting.push(...acks);
    this.timer ??= setTimeout(() => void this.flush(), this.windowMs);
    return undefined;
  }

  /** Writes what is waiting now (the window's end, or a session stopping); resolves once every window so far is written. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const acks = this.waiting;
    this.waiting = [];
    if (acks.length > 0) this.writing = this.writing.then(() => this.writeTrying(acks));
    return this.writing;
  }

  private async writeTrying(acks: T[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.write(acks);
        return;
      } catch (err) {
        if (attempt >= ATTEMPTS) return this.givenUp(err, acks);
        await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
      }
    }
  }
}
