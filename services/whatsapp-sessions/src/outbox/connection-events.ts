import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ConnectionSubjects,
  type ConnectionChangedEvent,
  type ConnectionDeletedEvent,
  type ConnectionSessionEvent,
  type SessionEndReason,
} from '@wa/contracts';
import type { OutgoingEvent } from '@wa/server-kit';
import type { EntityManager } from 'typeorm';
import type { ConnectionEntity } from '../database/entities/connection.entity.js';
import { Outbox } from './outbox.service.js';
import { connectionView } from './connection-view.js';

/**
 * `connection.*` events, written to the outbox in the transaction of the change they announce and
 * published by its relay once `flush()` is called after commit. Each change gets its own msg id.
 */
@Injectable()
export class ConnectionEvents {
  constructor(private readonly outbox: Outbox) {}

  static updated(row: ConnectionEntity): OutgoingEvent {
    const event: ConnectionChangedEvent = { companyId: row.companyId, connection: connectionView(row) };
    return {
      subject: ConnectionSubjects.updated(row.companyId, row.id),
      msgId: `connection-updated:${row.id}:${randomUUID()}`,
      payload: event,
    };
  }

  static deleted(companyId: number, connectionId: number): OutgoingEvent {
    const event: ConnectionDeletedEvent = { companyId, connectionId };
    return { subject: ConnectionSubjects.deleted(companyId, connectionId), msgId: `connection-deleted:${connectionId}`, payload: event };
  }

  /** The session moved to another state (status, QR code); `reason`: WhatsApp ended it (a logout, a ban). */
  static session(row: ConnectionEntity, reason: SessionEndReason | null = null): OutgoingEvent {
    const event: ConnectionSessionEvent = {
      companyId: row.companyId,
      connectionId: row.id,
      status: row.status,
      qrcode: row.qrcode,
      session: connectionView(row),
      reason,
    };
    return {
      subject: ConnectionSubjects.session(row.companyId, row.id),
      msgId: `connection-session:${row.id}:${randomUUID()}`,
      payload: event,
    };
  }

  /** Writes the events in `tx`. */
  async add(tx: EntityManager, events: OutgoingEvent[]): Promise<void> {
    await this.outbox.add(tx, events);
  }

  /** After commit: the relay publishes now (never throws, never waits for NATS). */
  flush(): void {
    void this.outbox.flush();
  }
}
