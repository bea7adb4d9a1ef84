import { createInbox } from 'nats';
import type { Msg, MsgHdrs, NatsConnection, Subscription } from 'nats';

export interface PubAck {
  stream: string;
  seq: number;
  duplicate: boolean;
}

/** Error with a nats-style `code` ('503', 'TIMEOUT', 'CLOSED', or the JetStream API code) and `api_error`. */
export class PublishError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly api_error?: { code: number; err_code?: number; description: string },
  ) {
    super(message);
    this.name = 'PublishError';
  }
}

interface Pending {
  resolve: (a: PubAck) => void;
  reject: (e: Error) => void;
  deadline: number;
}

const decoder = new TextDecoder();

/**
 * JetStream publish over one wildcard reply subscription. Same wire protocol as `js.publish()`
 * (a request carrying Nats-Msg-Id, answered by a PubAck), without nats.js' per-request costs
 * (an Error with stack trace and a timer per request): at thousands of publishes per second
 * those were a quarter of the process' CPU. Timeouts are swept by one interval timer.
 */
export class JetStreamPublisher {
  private readonly prefix: string;
  private readonly pending = new Map<string, Pending>();
  private readonly sub: Subscription;
  private readonly sweeper: NodeJS.Timeout;
  private next = 0;
  private closed = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly timeoutMs = 5000,
    /** the connection's inbox prefix (a NATS user may subscribe only to its own replies) */
    inboxPrefix?: string,
  ) {
    this.prefix = createInbox(inboxPrefix);
    this.sub = nc.subscribe(`${this.prefix}.*`, { callback: (err, msg) => this.onReply(err, msg) });
    this.sweeper = setInterval(() => this.sweep(), Math.min(250, timeoutMs));
    this.sweeper.unref();
  }

  publish(subject: string, data: Uint8Array, headers: MsgHdrs): Promise<PubAck> {
    if (this.closed || this.nc.isClosed()) return Promise.reject(new PublishError('connection closed', 'CLOSED'));
    const token = (this.next++).toString(36);
    return new Promise<PubAck>((resolve, reject) => {
      this.pending.set(token, { resolve, reject, deadline: Date.now() + this.timeoutMs });
      try {
        this.nc.publish(subject, data, { reply: `${this.prefix}.${token}`, headers });
      } catch (err) {
        this.pending.delete(token);
        reject(err as Error);
      }
    });
  }

  private onReply(err: Error | null, msg: Msg): void {
    if (err) {
      this.failAll(err);
      return;
    }
    const token = msg.subject.slice(this.prefix.length + 1);
    const p = this.pending.get(token);
    if (!p) return; // timed out already
    this.pending.delete(token);
    if (msg.data.length === 0) {
      const code = msg.headers?.code ?? 0;
      p.reject(
        new PublishError(code === 503 ? 'no responders: no stream for the subject' : `empty reply (${code})`, String(code || 'EMPTY')),
      );
      return;
    }
    let r: { stream?: string; seq?: number; duplicate?: boolean; error?: { code: number; err_code?: number; description: string } };
    try {
      r = JSON.parse(decoder.decode(msg.data));
    } catch {
      p.reject(new PublishError('invalid publish ack', 'INVALID_ACK'));
      return;
    }
    if (r.error) {
      p.reject(new PublishError(r.error.description, String(r.error.code), r.error));
    } else if (!r.stream || typeof r.seq !== 'number') {
      p.reject(new PublishError('invalid publish ack', 'INVALID_ACK'));
    } else {
      p.resolve({ stream: r.stream, seq: r.seq, duplicate: r.duplicate === true });
    }
  }

  private sweep(): void {
    const now = Date.now();
    // insertion order == deadline order (same timeout for all)
    for (const [token, p] of this.pending) {
      if (p.deadline > now) break;
      this.pending.delete(token);
      p.reject(new PublishError(`publish timed out after ${this.timeoutMs} ms`, 'TIMEOUT'));
    }
  }

  /** Resolves when no publish is awaiting its ack (they settle within the timeout). */
  async settled(): Promise<void> {
    while (this.pending.size > 0 && !this.closed) await new Promise((r) => setTimeout(r, 5));
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweeper);
    this.failAll(new PublishError('connection closed', 'CLOSED'));
    if (!this.nc.isClosed()) this.sub.unsubscribe();
  }
}
