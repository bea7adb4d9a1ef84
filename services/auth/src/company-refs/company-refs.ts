import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  Streams,
  type ConnectionChangedEvent,
  type ConnectionDeletedEvent,
  type QueueChangedEvent,
  type QueueDeletedEvent,
} from '@wa/contracts';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { DomainError } from '@wa/server-kit';
import { CompanyRefsRepository, type RefKind } from './company-refs.repository.js';

export type { RefKind } from './company-refs.repository.js';

/**
 * The queues (from tickets) and connections (from whatsapp-sessions) of each company, as their events say:
 * an id in a user's body (queueIds, whatsappId) must be one of the caller's company, or the request answers
 * 400 and writes nothing.
 */
@Injectable()
export class CompanyRefs implements OnApplicationBootstrap, OnApplicationShutdown {
  private handles: ConsumerHandle[] = [];

  constructor(
    private readonly refs: CompanyRefsRepository,
    private readonly bus: EventBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // one id's events in order: the subject's last two tokens are company and id
    const orderKey = (subject: string) => subject.split('.').slice(2).join('.');
    this.handles = [
      await this.bus.consume<QueueChangedEvent | QueueDeletedEvent>({
        stream: Streams.TICKETS.name,
        durable: 'auth-queue-refs',
        filterSubjects: ['queue.>'],
        orderKey,
        handler: async (batch) => {
          for (const m of batch) await this.applyQueue(m);
        },
      }),
      await this.bus.consume<ConnectionChangedEvent | ConnectionDeletedEvent>({
        stream: Streams.CONNECTIONS.name,
        durable: 'auth-connection-refs',
        // one filter (nats-server 2.9 takes no list); session changes are skipped below
        filterSubjects: ['connection.>'],
        orderKey,
        handler: async (batch) => {
          for (const m of batch) await this.applyConnection(m);
        },
      }),
    ];
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.handles.map((h) => h.stop()));
  }

  /** Refuses ids that are not the company's (unknown, another company's, deleted); field names the body's. */
  async assertOwn(companyId: number, kind: RefKind, ids: number[], field: string): Promise<void> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return;
    const found = await this.refs.ownIds(companyId, kind, wanted);
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length > 0) {
      const what = kind === 'queue' ? 'queue' : 'connection';
      throw new DomainError(
        'ERR_VALIDATION',
        { details: [{ field, messages: [`${what} not found: ${missing.join(', ')}`] }] },
        `${field}: ${what} not found`,
      );
    }
  }

  private async applyQueue(m: BusMessage<QueueChangedEvent | QueueDeletedEvent>): Promise<void> {
    if (m.subject.split('.')[1] === 'deleted') {
      const e = m.data as QueueDeletedEvent;
      await this.remember('queue', e.queueId, e.companyId, true);
      return;
    }
    const e = m.data as QueueChangedEvent;
    if (e?.queue) await this.remember('queue', e.queue.id, e.companyId, false);
  }

  private async applyConnection(m: BusMessage<ConnectionChangedEvent | ConnectionDeletedEvent>): Promise<void> {
    const kind = m.subject.split('.')[1];
    if (kind === 'session') return;
    if (kind === 'deleted') {
      const e = m.data as ConnectionDeletedEvent;
      await this.remember('connection', e.connectionId, e.companyId, true);
      return;
    }
    const e = m.data as ConnectionChangedEvent;
    if (e?.connection) await this.remember('connection', e.connection.id, e.companyId, false);
  }

  private async remember(kind: RefKind, id: number, companyId: number, deleted: boolean): Promise<void> {
    if (!Number.isSafeInteger(id) || !Number.isSafeInteger(companyId)) return;
    await this.refs.remember(kind, id, companyId, deleted);
  }
}
