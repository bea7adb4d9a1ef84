import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Streams, type CompanyDeletedEvent } from '@wa/contracts';
import { deleteCompanyRows } from '@wa/database';
import { EventBus, type ConsumerHandle } from '@wa/event-bus';
import { MediaStorage } from '@wa/server-kit';
import { DataSource } from 'typeorm';
import { INSERT_DELETED_COMPANIES } from './companies.queries.js';

/**
 * A deleted company (`company.deleted`) loses everything tickets keeps of it: every row of the schema with
 * its id, in one transaction, and its files. (A new company's default queue: conversation's DefaultQueueConsumer.)
 */
@Injectable()
export class CompaniesConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CompaniesConsumer.name);
  private deletions: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly storage: MediaStorage,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
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
    await this.deletions?.stop();
  }

  /**
   * Everything of a deleted company: its rows (a replay finds none) and its files; the tombstone keeps a message
   * still on its way from starting its data again (WaInboundConsumer drops it).
   */
  private async forget(companyId: number): Promise<void> {
    const deleted = await this.db.transaction(async (tx) => {
      await tx.query(INSERT_DELETED_COMPANIES, [companyId]);
      return deleteCompanyRows(tx, 'tickets', companyId);
    });
    await this.storage.deleteCompany(companyId);
    this.logger.log({ companyId, deleted }, 'a deleted company’s data is gone from tickets');
  }
}
