import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  Streams,
  type ConnectionChangedEvent,
  type ConnectionDeletedEvent,
  type QueueChangedEvent,
  type QueueDeletedEvent,
} from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import { CompanyRefsModel, refOf } from '@wa/server-kit';
import { CompanyRefsRepository, type RefKind } from './company-refs.repository.js';

export type { RefKind } from './company-refs.repository.js';

/**
 * The queues (from tickets) and connections (from whatsapp-sessions) of each company, as their events say:
 * an id in a user's body (queueIds, whatsappId) must be one of the caller's company, or the request answers
 * 400 and writes nothing. server-kit's CompanyRefsModel, as whatsapp-sessions'.
 */
@Injectable()
export class CompanyRefs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly model: CompanyRefsModel<RefKind>;

  constructor(refs: CompanyRefsRepository, bus: EventBus) {
    const change = (subject: string) => subject.split('.')[1];
    this.model = new CompanyRefsModel<RefKind>(
      bus,
      refs,
      [
        {
          stream: Streams.TICKETS.name,
          durable: 'auth-queue-refs',
          filter: 'queue.>',
          read: (m) => {
            if (change(m.subject) === 'deleted') {
              const e = m.data as QueueDeletedEvent | undefined;
              return e ? refOf('queue', e.queueId, e.companyId, true) : null;
            }
            const e = m.data as QueueChangedEvent | undefined;
            return e?.queue ? refOf('queue', e.queue.id, e.companyId, false) : null;
          },
        },
        {
          stream: Streams.CONNECTIONS.name,
          durable: 'auth-connection-refs',
          // session changes say nothing of whose the connection is
          filter: 'connection.>',
          read: (m) => {
            if (change(m.subject) === 'session') return null;
            if (change(m.subject) === 'deleted') {
              const e = m.data as ConnectionDeletedEvent | undefined;
              return e ? refOf('connection', e.connectionId, e.companyId, true) : null;
            }
            const e = m.data as ConnectionChangedEvent | undefined;
            return e?.connection ? refOf('connection', e.connection.id, e.companyId, false) : null;
          },
        },
      ],
      // a queue or connection made a moment ago by the same admin may not have reached us yet: without this, a user
      // created right after their queue was refused 400 now and then (web-e2e accessibility, fresh-clone CI, 2026-12-02)
      { settleMs: 2_000, settleStepMs: 200 },
    );
  }

  onApplicationBootstrap(): Promise<void> {
    return this.model.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.model.stop();
  }

  /** Refuses ids that are not the company's (unknown, another company's, deleted); field names the body's. */
  assertOwn(companyId: number, kind: RefKind, ids: number[], field: string): Promise<void> {
    return this.model.assertOwn(companyId, [{ kind, field, ids }]);
  }
}
