import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EventBus } from '@wa/event-bus';
import { TransactionalOutbox } from '@wa/server-kit';
import { DataSource } from 'typeorm';

export type { OutgoingEvent } from '@wa/server-kit';

/**
 * auth's outbox (`auth.outbox`): the events of users, settings and sessions, and the writes of the user
 * directory (rows on `$KV.users.<key>`), are written in the transaction of the change and published by the
 * relay after commit. See TransactionalOutbox in @wa/server-kit.
 */
@Injectable()
export class Outbox extends TransactionalOutbox {
  constructor(@InjectDataSource() db: DataSource, bus: EventBus) {
    super(db, bus, { schema: 'auth' });
  }
}
