import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Streams, TicketSubjects, type CompanyCreatedEvent, type CompanyDeletedEvent, type QueueChangedEvent } from '@wa/contracts';
import { deleteCompanyRows } from '@wa/database';
import { EventBus, type ConsumerHandle } from '@wa/event-bus';
import { MediaStorage } from '@wa/server-kit';
import { DataSource } from 'typeorm';
import { QueueEntity } from '../../database/entities/index.js';
import { Outbox } from '../../outbox/outbox.service.js';
import { queueView } from '../../queues/queues.service.js';

export const DEFAULT_QUEUE = { name: 'Atendimento', color: '#2e7d32' };

/**
 * A new company (auth's `company.created`: sign-up, the provider screen) gets its default queue here, once:
 * a replay finds the company's queues and adds nothing. The queue is announced like any other.
 * A deleted company (`company.deleted`) loses everything tickets keeps of it: every row of the schema with
 * its id, in one transaction, and its files.
 */
@Injectable()
export class CompaniesConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CompaniesConsumer.name);
  private handle: ConsumerHandle | undefined;
  private deletions: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly outbox: Outbox,
    private readonly storage: MediaStorage,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<CompanyCreatedEvent>({
      stream: Streams.AUTH.name,
      durable: 'tickets-companies',
      filterSubjects: ['company.created.>'],
      concurrency: 2,
      handler: async (batch) => {
        for (const { data } of batch) if (Number.isSafeInteger(data?.companyId) && data.companyId > 0) await this.defaultQueue(data.companyId);
      },
    });
    this.deletions = await this.bus.consume<CompanyDeletedEvent>({
      stream: Streams.AUTH.name,
      durable: 'tickets-companies-deleted',
      filterSubjects: ['company.deleted.>'],
      concurrency: 1,
      handler: async (batch) => {
        for (const { data } of batch) if (Number.isSafeInteger(data?.companyId) && data.companyId > 0) await this.forget(data.companyId);
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.handle?.stop(), this.deletions?.stop()]);
  }

  /**
   * Everything of a deleted company: its rows (a replay finds none) and its files; the tombstone keeps a message
   * still on its way from starting its data again (WaInboundConsumer drops it).
   */
  private async forget(companyId: number): Promise<void> {
    const deleted = await this.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO tickets.deleted_companies (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, [companyId]);
      return deleteCompanyRows(tx, 'tickets', companyId);
    });
    await this.storage.deleteCompany(companyId);
    this.logger.log({ companyId, deleted }, 'a deleted company’s data is gone from tickets');
  }

  private async defaultQueue(companyId: number): Promise<void> {
    const ids = await this.db.transaction(async (tx) => {
      // one at a time per company: two deliveries of the event cannot both find it without queues
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('tickets-default-queue'), $1)`, [companyId]);
      if (await tx.getRepository(QueueEntity).existsBy({ companyId })) return [];
      const saved = await tx.getRepository(QueueEntity).save(tx.getRepository(QueueEntity).create({ companyId, ...DEFAULT_QUEUE, greetingMessage: '' }));
      const view = queueView(saved);
      const event: QueueChangedEvent = { companyId, queue: view };
      return this.outbox.add(tx, [{ subject: TicketSubjects.queueUpdated(companyId, saved.id), msgId: `queue-updated:${saved.id}:${view.updatedAt}`, payload: event }]);
    });
    await this.outbox.flush(ids);
  }
}
