import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Streams, TicketSubjects, type CompanyCreatedEvent, type QueueChangedEvent } from '@wa/contracts';
import { EventBus, type ConsumerHandle } from '@wa/event-bus';
import { DataSource } from 'typeorm';
import { QueueEntity } from '../../database/entities/index.js';
import { Outbox } from '../../outbox/outbox.service.js';
import { queueView } from './queues.service.js';
import { LOCK_COMPANY_FIRST_QUEUE } from './default-queue.queries.js';

export const DEFAULT_QUEUE = { name: 'Atendimento', color: '#2e7d32' };

/**
 * A new company (auth's `company.created`: sign-up, the provider screen) gets its default queue here, once:
 * a replay finds the company's queues and adds nothing. The queue is announced like any other.
 */
@Injectable()
export class DefaultQueueConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private handle: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<CompanyCreatedEvent>({
      stream: Streams.AUTH.name,
      durable: 'tickets-companies',
      filterSubjects: ['company.created.>'],
      concurrency: 2,
      handler: async (batch) => {
        for (const { data } of batch)
          if (Number.isSafeInteger(data?.companyId) && data.companyId > 0) await this.defaultQueue(data.companyId);
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  private async defaultQueue(companyId: number): Promise<void> {
    const ids = await this.db.transaction(async (tx) => {
      // one at a time per company: two deliveries of the event cannot both find it without queues
      await tx.query(LOCK_COMPANY_FIRST_QUEUE, [companyId]);
      if (await tx.getRepository(QueueEntity).existsBy({ companyId })) return [];
      const saved = await tx
        .getRepository(QueueEntity)
        .save(tx.getRepository(QueueEntity).create({ companyId, ...DEFAULT_QUEUE, greetingMessage: '' }));
      const view = queueView(saved);
      const event: QueueChangedEvent = { companyId, queue: view };
      return this.outbox.add(tx, [
        { subject: TicketSubjects.queueUpdated(companyId, saved.id), msgId: `queue-updated:${saved.id}:${view.updatedAt}`, payload: event },
      ]);
    });
    await this.outbox.flush(ids);
  }
}
