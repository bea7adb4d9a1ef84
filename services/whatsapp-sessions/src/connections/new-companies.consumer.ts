import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Streams, type CompanyCreatedEvent } from '@wa/contracts';
import { EventBus, type ConsumerHandle } from '@wa/event-bus';
import { AckPolicy, DeliverPolicy } from 'nats';
import { runInContext } from '@wa/server-kit';
import { sandboxAllowed, WhatsappSessionsEnv } from '../config/env.js';
import { ConnectionsRepository } from './connections.repository.js';
import { ConnectionsService } from './connections.service.js';

const DURABLE = 'whatsapp-sessions-companies';
const FILTER = 'company.created.>';

/**
 * With SANDBOX_FOR_NEW_COMPANIES on (an operator's choice: demos, trials), a company made by sign-up or by
 * the provider (auth's `company.created`) gets a sandbox connection, default and started, so it can try the
 * product without a phone. Off (the default), a new company starts with no connection. Once per company:
 * a company that has a connection gets none.
 */
@Injectable()
export class NewCompaniesConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(NewCompaniesConsumer.name);
  private handle: ConsumerHandle | undefined;

  constructor(
    private readonly bus: EventBus,
    private readonly env: WhatsappSessionsEnv,
    private readonly connections: ConnectionsService,
    private readonly repository: ConnectionsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.env.SANDBOX_FOR_NEW_COMPANIES) return;
    if (!sandboxAllowed(this.env)) {
      this.log.warn(
        'SANDBOX_FOR_NEW_COMPANIES is on but the sandbox channel is off here (NODE_ENV=production without SANDBOX_CHANNEL=enabled): new companies get no connection',
      );
      return;
    }
    // turned on now: companies made from now on get one, not every company the stream remembers
    const jsm = await this.bus.connection.jetstreamManager();
    if (!(await jsm.consumers.info(Streams.AUTH.name, DURABLE).catch(() => null))) {
      await jsm.consumers
        .add(Streams.AUTH.name, {
          durable_name: DURABLE,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.New,
          filter_subject: FILTER,
        })
        .catch((err: unknown) =>
          this.log.warn({ err: (err as Error)?.message }, 'new-companies durable not declared; the bus declares it'),
        );
    }
    this.handle = await this.bus.consume<CompanyCreatedEvent>({
      stream: Streams.AUTH.name,
      durable: DURABLE,
      filterSubjects: [FILTER],
      concurrency: 1,
      handler: async (batch) => {
        for (const { data } of batch)
          if (Number.isSafeInteger(data?.companyId) && data.companyId > 0) await this.sandboxFor(data.companyId);
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  private async sandboxFor(companyId: number): Promise<void> {
    await runInContext({ requestId: `company-created:${companyId}`, companyId }, async () => {
      if ((await this.repository.count()) > 0) return;
      const created = await this.connections.create({ name: 'Sandbox', channel: 'sandbox', isDefault: true });
      this.log.log({ companyId, connectionId: created.id }, 'sandbox connection made for a new company');
    });
  }
}
