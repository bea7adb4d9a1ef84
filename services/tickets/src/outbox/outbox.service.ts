import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EventBus } from '@wa/event-bus';
import { TransactionalOutbox, type OutgoingEvent } from '@wa/server-kit';
import type { DataSource, EntityManager } from 'typeorm';
import { batchedForBus } from '../conversation/core/ticket-events.js';

export type { OutgoingEvent } from '@wa/server-kit';

/**
 * What else a transaction's events make, written in that transaction (the webhooks module's deliveries): a
 * module above registers it (`Outbox.tap`), so the outbox depends on no module that uses it.
 */
export interface OutboxTap {
  /** whether some of these events make rows of the tap's (a cheap look in memory) */
  wants(events: readonly OutgoingEvent[]): boolean;
  record(tx: EntityManager, events: readonly OutgoingEvent[]): Promise<void>;
}

/**
 * tickets' outbox (`tickets.outbox`): see TransactionalOutbox in @wa/server-kit. The same events make what
 * its taps record (the company's webhook deliveries), written in the same transaction. A transaction's message
 * events are written as they go onto the bus (batchedForBus: a company's in one `message.batch`, so the bot's
 * replies to a batch of customers, or an agent's several sends, are one stream message); the taps see them one by one.
 */
@Injectable()
export class Outbox extends TransactionalOutbox {
  private readonly taps: OutboxTap[] = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    bus: EventBus,
  ) {
    super(dataSource, bus, { schema: 'tickets' });
  }

  /** Registers what else the outbox's events make (called once, by the tap's constructor). */
  tap(tap: OutboxTap): void {
    this.taps.push(tap);
  }

  override async add(tx: EntityManager, events: OutgoingEvent[]): Promise<string[]> {
    const ids = await super.add(tx, batchedForBus(events));
    for (const tap of this.taps) await tap.record(tx, events);
    return ids;
  }

  /** Whether add() would also write rows of its taps (webhook deliveries) for these events (insertSql alone does not). */
  makesDeliveries(events: readonly OutgoingEvent[]): boolean {
    return this.taps.some((tap) => tap.wants(events));
  }

  /**
   * For events published without the outbox (inbound messages, acks: the stored row is the truth and a
   * redelivery announces it again): what the taps make of them, in a transaction of its own (or `tx`), before
   * they are published; a repeat records nothing.
   */
  async recordAlone(events: readonly OutgoingEvent[], tx?: EntityManager): Promise<void> {
    if (!this.makesDeliveries(events)) return;
    const record = async (m: EntityManager) => {
      for (const tap of this.taps) await tap.record(m, events);
    };
    await (tx ? record(tx) : this.dataSource.transaction(record));
  }
}
