import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { conversationKey, Streams, WaSubjects, type WaAck } from '@wa/contracts';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { DataSource, In } from 'typeorm';
import { MessageEntity } from '../../database/entities/index.js';
import { CallerService } from '../../identity/caller.service.js';
import { messageEvent } from '../../tickets/ticket-events.js';
import { messageView, ticketView } from '../../tickets/ticket-view.js';
import { TicketsRepository } from '../../tickets/tickets.repository.js';

/** `wa.ack.*`: a message's ack only ever rises (1 sent … 4 read, 5 played); each rise is announced. */
@Injectable()
export class WaAckConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private handle: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly tickets: TicketsRepository,
    private readonly callers: CallerService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<WaAck>({
      stream: Streams.WA.name,
      durable: 'tickets-acks',
      filterSubjects: [WaSubjects.allAcks],
      orderKey: conversationKey,
      concurrency: 4,
      batchSize: 100,
      handler: (batch) => this.handle_(batch),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  private async handle_(batch: BusMessage<WaAck>[]): Promise<void> {
    // the highest ack of each message in the batch
    const top = new Map<string, WaAck>();
    for (const { data } of batch) {
      const key = `${data.connectionId}|${data.waMessageId}`;
      if ((top.get(key)?.ack ?? -1) < data.ack) top.set(key, data);
    }
    const acks = [...top.values()];
    // TypeORM answers an UPDATE … RETURNING with [rows, affected]
    const [raised] = (await this.db.query(
      `UPDATE tickets.messages m SET ack = u.ack, "updatedAt" = now()
         FROM unnest($1::int[], $2::text[], $3::int[], $4::int[]) AS u(whatsapp, wid, ack, company)
        WHERE m."whatsappId" = u.whatsapp AND m.wid = u.wid AND m."companyId" = u.company AND m.ack < u.ack
        RETURNING m.id`,
      [acks.map((a) => a.connectionId), acks.map((a) => a.waMessageId), acks.map((a) => a.ack), acks.map((a) => a.companyId)],
    )) as [Array<{ id: string }>, number];
    if (raised.length === 0) return;
    const messages = await this.db.getRepository(MessageEntity).findBy({ id: In(raised.map((r) => String(r.id))) });
    const ticketIds = [...new Set(messages.map((m) => `${m.companyId}|${m.ticketId}`))];
    const rows = await Promise.all(ticketIds.map((k) => this.tickets.findById(Number(k.split('|')[0]), Number(k.split('|')[1]))));
    const tickets = new Map(rows.filter((r) => r !== null).map((r) => [r.id, ticketView(r, (id) => this.callers.nameOf(r.companyId, id))] as const));
    await Promise.all(
      messages.map((m) => {
        const ticket = tickets.get(m.ticketId);
        if (!ticket) return undefined;
        const e = messageEvent(messageView(m), ticket, 'updated');
        return this.bus.publish(e.subject, e.payload, { msgId: e.msgId });
      }),
    );
  }
}
