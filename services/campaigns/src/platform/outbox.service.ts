import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EventBus } from '@wa/event-bus';
import { TransactionalOutbox } from '@wa/server-kit';
import { DataSource } from 'typeorm';

export type { OutgoingEvent } from '@wa/server-kit';

/** campaigns' outbox (`campaigns.outbox`): see TransactionalOutbox in @wa/server-kit. */
@Injectable()
export class Outbox extends TransactionalOutbox {
  constructor(@InjectDataSource() db: DataSource, bus: EventBus) {
    super(db, bus, { schema: 'campaigns' });
  }
}
