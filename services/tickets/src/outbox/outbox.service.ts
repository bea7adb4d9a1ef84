import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EventBus } from '@wa/event-bus';
import { TransactionalOutbox, type OutgoingEvent } from '@wa/server-kit';
import type { DataSource, EntityManager } from 'typeorm';
import { WebhookRecorder } from '../webhooks/webhook-recorder.js';

export type { OutgoingEvent } from '@wa/server-kit';

/**
 * tickets' outbox (`tickets.outbox`): see TransactionalOutbox in @wa/server-kit. The same events make
 * the company's webhook deliveries, written in the same transaction (WebhookRecorder).
 */
@Injectable()
export class Outbox extends TransactionalOutbox {
  constructor(
    @InjectDataSource() db: DataSource,
    bus: EventBus,
    private readonly webhooks: WebhookRecorder,
  ) {
    super(db, bus, { schema: 'tickets' });
  }

  override async add(tx: EntityManager, events: OutgoingEvent[]): Promise<string[]> {
    const ids = await super.add(tx, events);
    await this.webhooks.record(tx, events);
    return ids;
  }

  /** Whether add() would also write webhook deliveries for these events (insertSql alone does not). */
  makesDeliveries(events: OutgoingEvent[]): boolean {
    return this.webhooks.wants(events);
  }
}
