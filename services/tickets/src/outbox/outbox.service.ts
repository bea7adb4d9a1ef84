import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EventBus } from '@wa/event-bus';
import { DataSource, In, LessThan, type EntityManager } from 'typeorm';
import { OutboxEntity } from '../database/entities/index.js';

export interface OutgoingEvent {
  subject: string;
  msgId: string;
  payload: unknown;
}

const RELAY_EVERY_MS = 2000;
const RELAY_AFTER_MS = 3000;

/**
 * Transactional outbox: events are written in the same transaction as the change they announce,
 * published right after commit, and published by the relay if the process died in between.
 * Their msg ids make a repeat harmless.
 */
@Injectable()
export class Outbox implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(Outbox.name);
  private timer: NodeJS.Timeout | undefined;
  private relaying = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.relay(), RELAY_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async add(tx: EntityManager, events: OutgoingEvent[]): Promise<string[]> {
    if (events.length === 0) return [];
    const result = await tx
      .createQueryBuilder()
      .insert()
      .into(OutboxEntity)
      .values(events.map((e) => ({ subject: e.subject, msgId: e.msgId, payload: e.payload as object })))
      .returning(['id'])
      .execute();
    return (result.raw as Array<{ id: string }>).map((r) => String(r.id));
  }

  /** After commit: publish these rows in order and delete them; what fails is left to the relay. */
  async flush(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const rows = await this.db.getRepository(OutboxEntity).find({ where: { id: In(ids) }, order: { id: 'ASC' } });
    await this.publishRows(rows);
  }

  private async relay(): Promise<void> {
    if (this.relaying) return;
    this.relaying = true;
    try {
      const rows = await this.db.getRepository(OutboxEntity).find({
        where: { createdAt: LessThan(new Date(Date.now() - RELAY_AFTER_MS)) },
        order: { id: 'ASC' },
        take: 500,
      });
      if (rows.length > 0) this.logger.warn({ count: rows.length }, 'outbox: publishing events left by an earlier process');
      await this.publishRows(rows);
    } catch (err) {
      this.logger.warn({ err: String(err) }, 'outbox relay failed; will retry');
    } finally {
      this.relaying = false;
    }
  }

  private async publishRows(rows: OutboxEntity[]): Promise<void> {
    const done: string[] = [];
    try {
      for (const row of rows) {
        await this.bus.publish(row.subject, row.payload, { msgId: row.msgId });
        done.push(row.id);
      }
    } finally {
      if (done.length > 0) await this.db.getRepository(OutboxEntity).delete({ id: In(done) });
    }
  }
}
