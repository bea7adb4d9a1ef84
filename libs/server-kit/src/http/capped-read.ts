import { request, type Dispatcher } from 'undici';

/**
 * The most a queue integration's flow (webhook, n8n, Typebot) may answer: 256 KB. A flow's answer is a few
 * texts to send to a customer (a WhatsApp text is at most 65,536 characters); anything larger is refused
 * and the conversation goes to the queue's agents.
 */
export const FLOW_ANSWER_MAX_BYTES = 256 * 1024;
/** The most an AI model's answer may be (a chat completion of a few hundred tokens is a few KB): 1 MB. */
export const MODEL_ANSWER_MAX_BYTES = 1024 * 1024;
/** The most of a webhook receiver's answer read (it is not used; only its status counts): 64 KB, then the connection is closed. */
export const WEBHOOK_ANSWER_MAX_BYTES = 64 * 1024;

/** A peer answered more than the cap: the request was aborted when the cap was passed. */
export class PeerAnswerTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the peer answered more than ${maxBytes} bytes`);
    this.name = 'PeerAnswerTooLarge';
  }
}

/** A peer did not finish its answer within the overall deadline: the request was aborted then. */
export class PeerDeadlineExceeded extends Error {
  constructor(readonly deadlineMs: number) {
    super(`the peer did not answer within ${deadlineMs} ms`);
    this.name = 'PeerDeadlineExceeded';
  }
}

export interface PeerRequest {
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  /** the sockets to use (the guarded lookup that refuses private addresses, idle timeouts) */
  dispatcher?: Dispatcher;
  /** the most bytes of body read */
  maxBytes: number;
  /** the whole exchange (connecting, headers and body) ends within this, whatever the idle timeouts say */
  deadlineMs: number;
  /** past `maxBytes`: 'fail' (default) throws PeerAnswerTooLarge; 'stop' keeps what was read and closes the connection */
  overflow?: 'fail' | 'stop';
}

export interface PeerAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text(): string;
}

/**
 * One HTTP exchange with a peer whose answer is read with a byte cap and an overall deadline, on top of
 * the dispatcher's idle timeouts (a peer streaming fast never trips an idle timeout; one trickling a byte
 * at a time never trips it either). Passing either aborts the request: the socket is closed and nothing
 * more is read. Every read of a peer's answer in the product goes through this (or `cappedFetch`).
 */
export async function readPeer(url: string | URL, opts: PeerRequest): Promise<PeerAnswer> {
  const controller = new AbortController();
  const deadline = new PeerDeadlineExceeded(opts.deadlineMs);
  const timer = setTimeout(() => controller.abort(deadline), opts.deadlineMs);
  try {
    const res = await request(url, {
      method: opts.method ?? 'GET',
      headers: opts.headers,
      body: opts.body,
      dispatcher: opts.dispatcher,
      signal: controller.signal,
    });
    // destroying the body (past the cap) makes it emit an abort error after the read loop has let go of it
    res.body.on('error', () => undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    const declared = Number(res.headers['content-length'] ?? NaN);
    if (declared > opts.maxBytes && opts.overflow !== 'stop') {
      res.body.destroy();
      throw new PeerAnswerTooLarge(opts.maxBytes);
    }
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      if (size + chunk.length > opts.maxBytes) {
        res.body.destroy();
        if (opts.overflow === 'stop') {
          chunks.push(chunk.subarray(0, opts.maxBytes - size));
          break;
        }
        throw new PeerAnswerTooLarge(opts.maxBytes);
      }
      size += chunk.length;
      chunks.push(chunk);
    }
    const body = Buffer.concat(chunks);
    return { status: res.statusCode, headers: res.headers, body, text: () => body.toString('utf8') };
  } catch (err) {
    if (controller.signal.aborted) throw deadline;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A `fetch` for clients that take one (the `openai` client): each answer's body is capped at `maxBytes`
 * (counted as it streams, the request aborted past it) and the whole exchange, body included, ends within
 * `deadlineMs` (a client's own timeout usually stops at the headers).
 */
export function cappedFetch(opts: { maxBytes: number; deadlineMs: number; fetch?: typeof fetch }): typeof fetch {
  const base = opts.fetch ?? globalThis.fetch;
  return async (input, init) => {
    const deadline = AbortSignal.timeout(opts.deadlineMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    let res: Response;
    try {
      res = await base(input, { ...init, signal });
    } catch (err) {
      if (deadline.aborted) throw new PeerDeadlineExceeded(opts.deadlineMs);
      throw err;
    }
    if (!res.body) return res;
    if (Number(res.headers.get('content-length') ?? NaN) > opts.maxBytes) {
      await res.body.cancel().catch(() => undefined);
      throw new PeerAnswerTooLarge(opts.maxBytes);
    }
    let size = 0;
    const capped = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          if (size > opts.maxBytes) controller.error(new PeerAnswerTooLarge(opts.maxBytes));
          else controller.enqueue(chunk);
        },
      }),
      { signal },
    );
    return new Response(capped, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/**
 * Work that must end within `deadlineMs` (a client without a way to pass a deadline in, e.g. Dialogflow's
 * retries): it is given a signal aborted at the deadline, and the promise fails with PeerDeadlineExceeded
 * then, whether or not the work heeds the signal.
 */
export async function withDeadline<T>(deadlineMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const deadline = new PeerDeadlineExceeded(deadlineMs);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(deadline);
      reject(deadline);
    }, deadlineMs);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}
