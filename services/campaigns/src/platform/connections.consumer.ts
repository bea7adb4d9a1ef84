import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  Streams,
  type ConnectionChangedEvent,
  type ConnectionDeletedEvent,
  type ConnectionSessionEvent,
  type WhatsappDto,
} from '@wa/contracts';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { ConnectionsRepository } from './connections.repository.js';

/** A connection's session moved: its status, and why it ended when it did ('logged_out', 'banned'). */
export interface SessionChange {
  id: number;
  companyId: number;
  status: string;
  reason: string | null;
}

type ConnectionEvent = ConnectionChangedEvent | ConnectionDeletedEvent | ConnectionSessionEvent;

/** Keeps campaigns' copy of the connections (name, status, default, pace fields) in step with whatsapp-sessions. */
@Injectable()
export class ConnectionsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private handle: ConsumerHandle | undefined;
  private readonly listeners: Array<(c: SessionChange) => void> = [];

  constructor(
    private readonly bus: EventBus,
    private readonly connections: ConnectionsRepository,
  ) {}

  /** Told of every status a connection's session reports (the pacer pauses a banned or logged-out number's campaigns). */
  onStatus(listener: (c: SessionChange) => void): void {
    this.listeners.push(listener);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<ConnectionEvent>({
      stream: Streams.CONNECTIONS.name,
      durable: 'campaigns-connections',
      filterSubjects: ['connection.>'],
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
      await this.connections.markDeleted(e.companyId, e.connectionId);
      return;
    }
    const c: WhatsappDto | undefined =
      kind === 'session' ? (m.data as ConnectionSessionEvent).session : (m.data as ConnectionChangedEvent).connection;
    if (!c || typeof c.id !== 'number') return;
    await this.connections.keep(c);
    if (kind === 'session') {
      // why the session ended, when whatsapp-sessions says (a logout, a ban)
      const reason = (m.data as ConnectionSessionEvent & { reason?: string | null }).reason ?? null;
      for (const l of this.listeners) l({ id: c.id, companyId: c.companyId, status: c.status, reason });
    }
  }
}
