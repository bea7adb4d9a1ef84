import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Streams, type PromptRefEvent, type QueueChangedEvent, type QueueDeletedEvent } from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import { CompanyRefsModel, refOf } from '@wa/server-kit';
import { CompanyRefsRepository, type RefKind } from './company-refs.repository.js';

/** The ids of other records a connection names (its form's queues, transfer queue and AI prompt). */
export interface ConnectionRefs {
  queueIds?: number[] | null;
  transferQueueId?: number | null;
  promptId?: number | null;
}

type TicketsRefEvent = Partial<QueueChangedEvent & QueueDeletedEvent & PromptRefEvent>;

/**
 * Whose queues and prompts are whose, as tickets' events say (`queue.*`, `prompt.*` on TICKETS): a
 * connection's queueIds, transferQueueId and promptId must be ids of the caller's company, or the request
 * answers 400 and writes nothing (a borrowed queue id would show another company's queue name). A deletion
 * is final: a late update of the same id never brings it back. server-kit's CompanyRefsModel, as auth's.
 */
@Injectable()
export class CompanyRefs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly model: CompanyRefsModel<RefKind>;

  constructor(refs: CompanyRefsRepository, bus: EventBus) {
    const deleted = (subject: string) => subject.split('.')[1] === 'deleted';
    this.model = new CompanyRefsModel<RefKind>(
      bus,
      refs,
      [
        {
          stream: Streams.TICKETS.name,
          durable: 'whatsapp-sessions-queue-refs',
          filter: 'queue.>',
          read: (m) => {
            const e = m.data as TicketsRefEvent | undefined;
            return e ? refOf('queue', deleted(m.subject) ? e.queueId : e.queue?.id, e.companyId, deleted(m.subject)) : null;
          },
        },
        {
          stream: Streams.TICKETS.name,
          durable: 'whatsapp-sessions-prompt-refs',
          filter: 'prompt.>',
          read: (m) => {
            const e = m.data as TicketsRefEvent | undefined;
            return e ? refOf('prompt', e.promptId, e.companyId, deleted(m.subject)) : null;
          },
        },
      ],
      // a queue made a moment ago by the same admin may not have reached us yet; TICKETS may not exist yet at start
      { settleMs: 2_000, settleStepMs: 200, retryStartMs: 5_000, logger: new Logger(CompanyRefs.name) },
    );
  }

  onApplicationBootstrap(): Promise<void> {
    return this.model.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.model.stop();
  }

  /** Refuses a connection's ids that are not the company's (unknown, another company's, deleted): 400 naming the field. */
  assertOwn(companyId: number, refs: ConnectionRefs): Promise<void> {
    return this.model.assertOwn(companyId, [
      { kind: 'queue', field: 'queueIds', ids: refs.queueIds ?? [] },
      { kind: 'queue', field: 'transferQueueId', ids: refs.transferQueueId ? [refs.transferQueueId] : [] },
      { kind: 'prompt', field: 'promptId', ids: refs.promptId ? [refs.promptId] : [] },
    ]);
  }
}
