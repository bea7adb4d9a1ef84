import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Streams,
  type ConnectionChangedEvent,
  type ConnectionDeletedEvent,
  type ConnectionSessionEvent,
  type WhatsappDto,
} from '@wa/contracts';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { DataSource } from 'typeorm';
import { BOT_DEFAULTS, type ConnectionBot } from '../../database/entities/index.js';
import { UPSERT_CONNECTIONS, DELETE_CONNECTIONS_BY_ID } from './connections.queries.js';

/** The bot settings of a connection, as tickets keeps them. */
export function connectionBot(c: Partial<WhatsappDto>): ConnectionBot {
  return {
    outOfHoursMessage: c.outOfHoursMessage ?? '',
    complationMessage: c.complationMessage ?? '',
    ratingMessage: c.ratingMessage ?? '',
    expiresInactiveMessage: c.expiresInactiveMessage ?? '',
    expiresTicket: c.expiresTicket ?? BOT_DEFAULTS.expiresTicket,
    transferQueueId: c.transferQueueId ?? null,
    timeToTransfer: c.timeToTransfer ?? BOT_DEFAULTS.timeToTransfer,
    timeUseBotQueues: c.timeUseBotQueues ?? BOT_DEFAULTS.timeUseBotQueues,
    maxUseBotQueues: c.maxUseBotQueues ?? BOT_DEFAULTS.maxUseBotQueues,
  };
}

type ConnectionEvent = ConnectionChangedEvent | ConnectionDeletedEvent | ConnectionSessionEvent;

/** Keeps tickets' copy of the connections (name, status, default, queues) in step with whatsapp-sessions. */
@Injectable()
export class ConnectionsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private handle: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<ConnectionEvent>({
      stream: Streams.CONNECTIONS.name,
      durable: 'tickets-connections',
      filterSubjects: ['connection.>'],
      // one connection's events in order, whatever their kind
      orderKey: (subject) => subject.split('.').slice(2).join('.'),
      concurrency: 4,
      handler: async (batch) => {
        for (const m of batch) await this.apply(m);
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  private async apply(m: BusMessage<ConnectionEvent>): Promise<void> {
    const kind = m.subject.split('.')[1];
    if (kind === 'deleted') {
      const e = m.data as ConnectionDeletedEvent;
      await this.db.query(DELETE_CONNECTIONS_BY_ID, [e.connectionId, e.companyId]);
      return;
    }
    const c: WhatsappDto | undefined =
      kind === 'session' ? (m.data as ConnectionSessionEvent).session : (m.data as ConnectionChangedEvent).connection;
    if (!c) return;
    // a late, older event never overwrites a newer state
    await this.db.query(UPSERT_CONNECTIONS, [
      c.id,
      c.companyId,
      c.name,
      c.status,
      c.isDefault,
      c.queueIds ?? [],
      c.greetingMessage ?? '',
      JSON.stringify(connectionBot(c)),
      c.updatedAt,
    ]);
  }
}
