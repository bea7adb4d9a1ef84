import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Streams, type CompanyDeletedEvent } from '@wa/contracts';
import { EventBus, type ConsumerHandle } from '@wa/event-bus';
import { MediaStorage, runInContext } from '@wa/server-kit';
import { ConnectionsService } from './connections.service.js';
import { DeletedCompaniesRepository } from './deleted-companies.repository.js';

/**
 * A deleted company (auth's `company.deleted`) loses what whatsapp-sessions keeps of it: each connection's
 * session ended (unpaired) and its durables forgotten, as deleting the connection does; then every remaining
 * row with its id (sends, the sandbox's outbox), the sessions' stored keys, and its files. A replay finds
 * nothing left.
 */
@Injectable()
export class DeletedCompaniesConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(DeletedCompaniesConsumer.name);
  private handle: ConsumerHandle | undefined;

  constructor(
    private readonly rows: DeletedCompaniesRepository,
    private readonly bus: EventBus,
    private readonly connections: ConnectionsService,
    private readonly storage: MediaStorage,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<CompanyDeletedEvent>({
      stream: Streams.AUTH.name,
      durable: 'whatsapp-sessions-companies-deleted',
      filterSubjects: ['company.deleted.>'],
      concurrency: 1,
      handler: async (batch) => {
        for (const { data } of batch) if (Number.isSafeInteger(data?.companyId) && data.companyId > 0) await this.forget(data.companyId);
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  private async forget(companyId: number): Promise<void> {
    const ids = await this.rows.connectionIds(companyId);
    await runInContext({ requestId: `company-deleted:${companyId}`, companyId }, async () => {
      for (const id of ids) {
        await this.connections
          .remove(id)
          .catch((err: unknown) =>
            this.log.warn(
              { companyId, connectionId: id, err: (err as Error)?.message },
              'connection of a deleted company not removed; its rows go below',
            ),
          );
      }
    });
    await this.rows.deleteRows(companyId, ids);
    await this.storage.deleteCompany(companyId);
    this.log.log({ companyId, connections: ids.length }, 'a deleted company’s data is gone from whatsapp-sessions');
  }
}
