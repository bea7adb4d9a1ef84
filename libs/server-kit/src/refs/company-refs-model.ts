import type { BusMessage, ConsumerHandle, EventBus } from '@wa/event-bus';
import { DomainError } from '../errors/domain-error.js';

/** What one event says of a record another service owns: its kind and id, whose it is, and whether it is gone. */
export interface RefEvent<K extends string> {
  kind: K;
  id: number;
  companyId: number;
  deleted: boolean;
}

/** Where a kind's events come from, and how to read one (null: nothing to record). */
export interface RefSource<K extends string> {
  stream: string;
  durable: string;
  /** one filter (nats-server 2.9 takes no list) */
  filter: string;
  read(m: BusMessage<unknown>): RefEvent<K> | null;
}

/** The service's table of refs (its own schema and rules: its `*.repository.ts`). */
export interface RefStore<K extends string> {
  /** Of these (kind, id) pairs, those the company has and did not delete, as `kind:id`. */
  owned(companyId: number, kinds: K[], ids: number[]): Promise<Set<string>>;
  /** Records a ref; a deletion is final (a late update of the same id never brings it back). */
  remember(ref: RefEvent<K>): Promise<void>;
}

/** Ids a request names: the field they came in, what they name. */
export interface WantedRefs<K extends string> {
  kind: K;
  field: string;
  ids: number[];
}

export interface CompanyRefsOptions {
  /** An id not known yet is looked for again this long (one made a moment ago by the same admin); default 0. */
  settleMs?: number;
  settleStepMs?: number;
  /** A consumer that cannot start (the stream missing, NATS away) is tried again this often; default: start fails. */
  retryStartMs?: number;
  logger?: { warn(obj: object, msg: string): void };
}

/** What the refusal of an id that is not the company's says of each kind, in the product's words (spec 02 §8: 'Email não encontrado'). */
export const REF_NOT_FOUND: Record<string, string> = {
  queue: 'Fila não encontrada',
  prompt: 'Prompt não encontrado',
  integration: 'Integração não encontrada',
  tag: 'Tag não encontrada',
  contact: 'Contato não encontrado',
  connection: 'Conexão não encontrada',
  quickMessage: 'Resposta rápida não encontrada',
  ticket: 'Ticket não encontrado',
};

const MAX_ID = 2_147_483_647;

/** Reads an event's ids as a ref, or null when they are not ids. */
export function refOf<K extends string>(kind: K, id: unknown, companyId: unknown, deleted: boolean): RefEvent<K> | null {
  const ok = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 && v <= MAX_ID;
  return ok(id) && ok(companyId) ? { kind, id, companyId, deleted } : null;
}

/**
 * Whose records of another service are whose, as its events say: a read model a service keeps so a request
 * naming ids of another service's records (a user's queues, a connection's prompt) is refused when they are not
 * the caller's company's (unknown, another company's, deleted): 400 ERR_VALIDATION naming the field, before
 * anything is written. One id's events are applied in order.
 */
export class CompanyRefsModel<K extends string> {
  private handles: ConsumerHandle[] = [];
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly bus: EventBus,
    private readonly store: RefStore<K>,
    private readonly sources: ReadonlyArray<RefSource<K>>,
    private readonly opts: CompanyRefsOptions = {},
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await Promise.all(this.sources.map((s) => this.startConsumer(s)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.all(this.handles.splice(0).map((h) => h.stop()));
  }

  /** Refuses the ids that are not the company's; waits up to `settleMs` for ids not known yet. */
  async assertOwn(companyId: number, wanted: ReadonlyArray<WantedRefs<K>>): Promise<void> {
    let left = wanted.map((w) => ({ ...w, ids: [...new Set(w.ids)] })).filter((w) => w.ids.length > 0);
    const deadline = Date.now() + (this.opts.settleMs ?? 0);
    for (;;) {
      if (left.length === 0) return;
      const found = await this.store.owned(
        companyId,
        left.flatMap((w) => w.ids.map(() => w.kind)),
        left.flatMap((w) => w.ids),
      );
      left = left.map((w) => ({ ...w, ids: w.ids.filter((id) => !found.has(`${w.kind}:${id}`)) })).filter((w) => w.ids.length > 0);
      if (left.length === 0) return;
      if (Date.now() >= deadline) {
        const details = left.map((w) => ({ field: w.field, messages: [REF_NOT_FOUND[w.kind] ?? 'Registro não encontrado'] }));
        throw new DomainError('ERR_VALIDATION', { details }, details.map((d) => `${d.field}: ${d.messages[0]}`).join('; '));
      }
      await new Promise((r) => setTimeout(r, this.opts.settleStepMs ?? 200));
    }
  }

  private async startConsumer(source: RefSource<K>): Promise<void> {
    try {
      this.handles.push(
        await this.bus.consume<unknown>({
          stream: source.stream,
          durable: source.durable,
          filterSubjects: [source.filter],
          // one id's events in order: the subject's tokens after its kind and change
          orderKey: (subject) => subject.split('.').slice(2).join('.'),
          handler: async (batch) => {
            for (const m of batch) {
              const ref = source.read(m);
              if (ref) await this.store.remember(ref);
            }
          },
        }),
      );
    } catch (err) {
      if (this.opts.retryStartMs === undefined) throw err;
      if (this.stopped) return;
      this.opts.logger?.warn({ durable: source.durable, err: (err as Error)?.message }, 'company refs consumer not started; trying again');
      const t = setTimeout(() => {
        this.timers.delete(t);
        void this.startConsumer(source);
      }, this.opts.retryStartMs);
      t.unref();
      this.timers.add(t);
    }
  }
}
