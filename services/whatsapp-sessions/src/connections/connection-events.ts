import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ConnectionSubjects, type ConnectionChangedEvent, type ConnectionDeletedEvent, type ConnectionSessionEvent } from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import type { ConnectionEntity } from '../database/entities/connection.entity.js';
import { connectionView } from './connection-view.js';

/**
 * `connection.*` events, published after the change committed. Each change gets its own msg id
 * (a repeat of the same publish inside the bus' retries stays one message).
 */
@Injectable()
export class ConnectionEvents {
  private readonly logger = new Logger(ConnectionEvents.name);

  constructor(private readonly bus: EventBus) {}

  async updated(rows: ConnectionEntity[]): Promise<void> {
    for (const row of rows) {
      const event: ConnectionChangedEvent = { companyId: row.companyId, connection: connectionView(row) };
      await this.bus.publish(ConnectionSubjects.updated(row.companyId, row.id), event, { msgId: `connection-updated:${row.id}:${randomUUID()}` });
    }
  }

  async deleted(companyId: number, connectionId: number): Promise<void> {
    const event: ConnectionDeletedEvent = { companyId, connectionId };
    await this.bus.publish(ConnectionSubjects.deleted(companyId, connectionId), event, { msgId: `connection-deleted:${connectionId}` });
  }

  /** The session moved to another state; a failure is logged (the state is already stored). */
  async session(row: ConnectionEntity): Promise<void> {
    const session = connectionView(row);
    const event: ConnectionSessionEvent = { companyId: row.companyId, connectionId: row.id, status: row.status, qrcode: row.qrcode, session };
    try {
      await this.bus.publish(ConnectionSubjects.session(row.companyId, row.id), event, { msgId: `connection-session:${row.id}:${randomUUID()}` });
    } catch (err) {
      this.logger.error({ err, connectionId: row.id, status: row.status }, 'session event not published');
    }
  }
}
