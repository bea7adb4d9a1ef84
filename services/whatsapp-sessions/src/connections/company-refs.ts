import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Streams, type PromptRefEvent, type QueueChangedEvent, type QueueDeletedEvent } from '@wa/contracts';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { DomainError } from '@wa/server-kit';
import { CompanyRefsRepository, type RefKind } from './company-refs.repository.js';

/** The ids of other records a connection names (its form's queues, transfer queue and AI prompt). */
export interface ConnectionRefs {
  queueIds?: number[] | null;
  transferQueueId?: number | null;
  promptId?: number | null;
}

/** An id just made by tickets may not have reached the read model yet: it is looked for again this long. */
const SETTLE_MS = 2_000;
const SETTLE_STEP_MS = 200;
/** A consumer that could not start (the stream missing, NATS away) is tried again this often. */
const RETRY_START_MS = 5_000;

/**
 * Whose queues and prompts are whose, as tickets' events say (`queue.*`, `prompt.*` on TICKETS): a
 * connection's queueIds, transferQueueId and promptId must be ids of the caller's company, or the request
 * answers 400 and writes nothing (a borrowed queue id would show another company's queue name). A deletion
 * is final: a late update of the same id never brings it back.
 */
@Injectable()
export class CompanyRefs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(CompanyRefs.name);
  private handles: ConsumerHandle[] = [];
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly refs: CompanyRefsRepository,
    private readonly bus: EventBus,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    // one id's events in order: the subject's last two tokens are company and id
    const orderKey = (subject: string) => subject.split('.').slice(2).join('.');
    // one filter each (nats-server 2.9 takes no list)
    return Promise.all([
      this.startConsumer('whatsapp-sessions-queue-refs', 'queue.>', orderKey),
      this.startConsumer('whatsapp-sessions-prompt-refs', 'prompt.>', orderKey),
    ]).then(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    await Promise.all(this.handles.map((h) => h.stop()));
  }

  /**
   * Refuses a connection's ids that are not the company's (unknown, another company's, deleted): 400
   * ERR_VALIDATION naming the field. An id not known yet is waited for up to SETTLE_MS (a queue made a
   * moment ago by the same admin).
   */
  async assertOwn(companyId: number, refs: ConnectionRefs): Promise<void> {
    const wanted: Array<{ kind: RefKind; field: string; ids: number[] }> = [
      { kind: 'queue' as const, field: 'queueIds', ids: refs.queueIds ?? [] },
      { kind: 'queue' as const, field: 'transferQueueId', ids: refs.transferQueueId ? [refs.transferQueueId] : [] },
      { kind: 'prompt' as const, field: 'promptId', ids: refs.promptId ? [refs.promptId] : [] },
    ].filter((w) => w.ids.length > 0);
    if (wanted.length === 0) return;
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      const missing = await this.missing(companyId, wanted);
      if (missing.length === 0) return;
      if (Date.now() >= deadline) {
        const details = missing.map((m) => ({ field: m.field, messages: [`${m.kind} not found: ${m.ids.join(', ')}`] }));
        throw new DomainError('ERR_VALIDATION', { details }, details.map((d) => `${d.field}: ${d.messages[0]}`).join('; '));
      }
      await new Promise((r) => setTimeout(r, SETTLE_STEP_MS));
    }
  }

  private async missing(
    companyId: number,
    wanted: Array<{ kind: RefKind; field: string; ids: number[] }>,
  ): Promise<Array<{ kind: RefKind; field: string; ids: number[] }>> {
    const kinds = wanted.flatMap((w) => w.ids.map(() => w.kind));
    const ids = wanted.flatMap((w) => w.ids);
    const found = await this.refs.owned(companyId, kinds, ids);
    return wanted
      .map((w) => ({ ...w, ids: [...new Set(w.ids)].filter((id) => !found.has(`${w.kind}:${id}`)) }))
      .filter((w) => w.ids.length > 0);
  }

  /** Starts a consumer; one that cannot start now (TICKETS not declared yet, NATS away) is tried again later. */
  private async startConsumer(durable: string, filter: string, orderKey: (subject: string) => string): Promise<void> {
    try {
      this.handles.push(
        await this.bus.consume<QueueChangedEvent | QueueDeletedEvent | PromptRefEvent>({
          stream: Streams.TICKETS.name,
          durable,
          filterSubjects: [filter],
          orderKey,
          handler: async (batch) => {
            for (const m of batch) await this.apply(m);
          },
        }),
      );
    } catch (err) {
      if (this.stopped) return;
      this.log.warn({ durable, err: (err as Error)?.message }, 'queue/prompt ids consumer not started; trying again');
      const t = setTimeout(() => {
        this.timers.delete(t);
        void this.startConsumer(durable, filter, orderKey);
      }, RETRY_START_MS);
      t.unref();
      this.timers.add(t);
    }
  }

  private async apply(m: BusMessage<QueueChangedEvent | QueueDeletedEvent | PromptRefEvent>): Promise<void> {
    const [kind, change] = m.subject.split('.');
    const data = m.data as Partial<QueueChangedEvent & QueueDeletedEvent & PromptRefEvent> | undefined;
    if (!data) return;
    if (kind === 'queue')
      await this.remember('queue', change === 'deleted' ? data.queueId : data.queue?.id, data.companyId, change === 'deleted');
    else if (kind === 'prompt') await this.remember('prompt', data.promptId, data.companyId, change === 'deleted');
  }

  private async remember(kind: RefKind, id: number | undefined, companyId: number | undefined, deleted: boolean): Promise<void> {
    if (!Number.isSafeInteger(id) || !Number.isSafeInteger(companyId) || (id as number) < 1 || (id as number) > 2_147_483_647) return;
    await this.refs.remember(kind, id as number, companyId as number, deleted);
  }
}
