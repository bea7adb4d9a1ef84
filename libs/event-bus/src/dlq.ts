import { headers as natsHeaders } from 'nats';
import type { JetStreamManager, NatsConnection, StoredMsg } from 'nats';
import { DlqHeaders } from './consumer.js';
import { DLQ_STREAM } from './event-bus.js';

/** One dead letter, as `npm run dlq -- list | show` prints it. */
export interface DeadLetter {
  /** its sequence in the DLQ stream: the id to show or replay */
  id: number;
  durable: string;
  /** where it was published first, and where a replay publishes it again */
  subject: string;
  stream: string;
  streamSeq: number;
  attempts: number;
  deliveryCount: number;
  error: string;
  at: string;
  msgId: string | undefined;
}

export interface DeadLetterDetail extends DeadLetter {
  payload: unknown;
  headers: Record<string, string>;
}

export interface ReplayResult {
  id: number;
  subject: string;
  /** the stream had seen this replay already (a repeat inside its duplicate window): nothing was published */
  duplicate: boolean;
}

const decoder = new TextDecoder();

function isNoMessage(err: unknown): boolean {
  const e = err as { api_error?: { err_code?: number }; message?: string } | undefined;
  return e?.api_error?.err_code === 10037 || /no message found/i.test(e?.message ?? '');
}

function toDeadLetter(m: StoredMsg): DeadLetter {
  const h = m.header;
  const get = (k: string) => h?.get(k) ?? '';
  return {
    id: m.seq,
    durable: get(DlqHeaders.durable),
    subject: get(DlqHeaders.subject),
    stream: get(DlqHeaders.stream),
    streamSeq: Number(get(DlqHeaders.streamSeq)) || 0,
    attempts: Number(get(DlqHeaders.attempts)) || 0,
    deliveryCount: Number(get(DlqHeaders.deliveryCount)) || 0,
    error: get(DlqHeaders.error),
    at: get(DlqHeaders.at) || m.time.toISOString(),
    msgId: get(DlqHeaders.msgId) || undefined,
  };
}

/**
 * The dead-letter stream for operators: list, show and replay what consumers gave up on. A replay
 * publishes the original payload to its original subject with a msg id of its own (`dlq-replay:<stream>:<seq>`),
 * so a replay repeated inside the duplicate window publishes nothing, and a later repeat meets the
 * consumers' unique keys; then it removes the dead letter.
 */
export class DeadLetters {
  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
  ) {}

  static async open(nc: NatsConnection): Promise<DeadLetters> {
    return new DeadLetters(nc, await nc.jetstreamManager());
  }

  async count(): Promise<number> {
    return (await this.jsm.streams.info(DLQ_STREAM.name)).state.messages;
  }

  /** The oldest dead letters first, at most `limit`, optionally of one durable consumer. */
  async list(opts: { durable?: string; limit?: number } = {}): Promise<DeadLetter[]> {
    const limit = opts.limit ?? 100;
    const prefix = opts.durable ? `dlq.${opts.durable}.` : 'dlq.';
    const out: DeadLetter[] = [];
    const { first_seq: first, last_seq: last } = (await this.jsm.streams.info(DLQ_STREAM.name)).state;
    // replayed dead letters leave gaps; each probe of a gap answers "no message"
    for (let seq = first; seq <= last && out.length < limit; seq++) {
      const m = await this.get(seq);
      if (m && m.subject.startsWith(prefix)) out.push(toDeadLetter(m));
    }
    return out;
  }

  async show(id: number): Promise<DeadLetterDetail | undefined> {
    const m = await this.get(id);
    if (!m) return undefined;
    const headers: Record<string, string> = {};
    for (const k of m.header?.keys() ?? []) headers[k] = m.header.get(k);
    const text = decoder.decode(m.data);
    let payload: unknown = text;
    try {
      payload = text.length ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: shown as text (that is often why it is here)
    }
    return { ...toDeadLetter(m), payload, headers };
  }

  /**
   * Publishes the dead letter again to its original subject and removes it from the DLQ (unless `keep`).
   * Answers undefined when there is no such dead letter.
   */
  async replay(id: number, opts: { keep?: boolean } = {}): Promise<ReplayResult | undefined> {
    const m = await this.get(id);
    if (!m) return undefined;
    const d = toDeadLetter(m);
    if (!d.subject) throw new Error(`dead letter ${id} has no original subject`);
    const h = natsHeaders();
    for (const k of m.header?.keys() ?? []) {
      if (!k.startsWith('Dlq-') && !k.startsWith('Nats-')) for (const v of m.header.values(k)) h.append(k, v);
    }
    h.set('Dlq-Replay-Of', String(id));
    const ack = await this.nc
      .jetstream()
      .publish(d.subject, m.data, { msgID: `dlq-replay:${d.stream}:${d.durable}:${d.streamSeq || id}`, headers: h });
    if (!opts.keep) await this.jsm.streams.deleteMessage(DLQ_STREAM.name, id, false);
    return { id, subject: d.subject, duplicate: ack.duplicate };
  }

  /** Replays every dead letter (of one durable consumer, if given), oldest first. */
  async replayAll(opts: { durable?: string; keep?: boolean } = {}): Promise<ReplayResult[]> {
    const results: ReplayResult[] = [];
    for (;;) {
      const page = await this.list({ durable: opts.durable, limit: 500 });
      const todo = opts.keep ? page.filter((d) => !results.some((r) => r.id === d.id)) : page;
      if (todo.length === 0) return results;
      for (const d of todo) {
        const r = await this.replay(d.id, opts);
        if (r) results.push(r);
      }
      if (opts.keep) return results;
    }
  }

  private async get(id: number): Promise<StoredMsg | undefined> {
    if (!Number.isInteger(id) || id < 1) return undefined;
    try {
      const m = await this.jsm.streams.getMessage(DLQ_STREAM.name, { seq: id });
      return m.subject.startsWith('dlq.') ? m : undefined;
    } catch (err) {
      if (isNoMessage(err)) return undefined;
      throw err;
    }
  }
}
