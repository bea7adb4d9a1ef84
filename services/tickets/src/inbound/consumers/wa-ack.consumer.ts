import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { conversationKey, isErrorCode, Streams, WaSubjects, type WaAck, type WaAcks } from '@wa/contracts';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { DataSource, In } from 'typeorm';
import { TicketsEnv } from '../../config/env.js';
import { MessageEntity, messageOfRow } from '../../database/entities/index.js';
import { CallerService } from '../../identity/caller.service.js';
import { announceStored } from '../../conversation/core/announce.js';
import { publishBatched } from '../../conversation/core/ticket-events.js';
import { withQuotes } from '../../conversation/core/quoted-messages.queries.js';
import { TicketsRepository } from '../../conversation/core/tickets.repository.js';
import { Outbox } from '../../outbox/outbox.service.js';
import { MARK_SENDS_FAILED, RAISE_ACKS, SELECT_MESSAGES_BY_WIDS } from './wa-ack.queries.js';

/**
 * `wa.ack.*`: a message's ack only ever rises (1 sent … 4 read, 5 played); each rise is announced
 * (`message.updated`) before the delivery is acked, as the inbound path announces what it stores: the bus
 * keeps the ack until then, which does what the outbox would. An event brings one ack (a send given up) or
 * the several that came together (`WaAcks`).
 */
@Injectable()
export class WaAckConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private handle: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly tickets: TicketsRepository,
    private readonly callers: CallerService,
    private readonly outbox: Outbox,
    private readonly env: TicketsEnv,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<WaAck | WaAcks>({
      stream: Streams.WA.name,
      durable: 'tickets-acks',
      filterSubjects: [WaSubjects.allAcks],
      // an ack only rises, whatever the order; what costs is a transaction per batch, and a tick shown up to a
      // second later is not missed: one lane gathers what trickles in (a batch of one per ack
      // was 80% of the database's work while the public API benchmark sent), and a message's changes that
      // come within ACK_LINGER_MS (server, delivered and read, 200 ms apart on the sandbox) are one write
      orderKey: conversationKey,
      concurrency: 1,
      batchSize: 200,
      lingerMs: this.env.ACK_LINGER_MS,
      handler: (batch) => this.handle_(batch),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  private async handle_(batch: BusMessage<WaAck | WaAcks>[]): Promise<void> {
    const all = batch.flatMap(({ data }) => acksOf(data));
    // the highest ack of each message in the batch
    const top = new Map<string, WaAck>();
    for (const data of all) {
      const key = `${data.connectionId}|${data.waMessageId}`;
      if ((top.get(key)?.ack ?? -1) < data.ack) top.set(key, data);
    }
    const acks = [...top.values()].filter((a) => !a.failed);
    // a send given up: its message is marked failed (unless an ack showed it got through)
    const failed = all.filter((a) => typeof a.failed === 'string' && a.failed.length > 0);
    // a redelivery (after a crash) or a retry here (a publish failed): an earlier call may have committed the
    // rise and not announced it, so what this batch names is announced as it now is
    const repeated = batch.some((m) => m.deliveryCount > 1 || m.attempt > 1);
    const events = await this.db.transaction(async (tx) => {
      // TypeORM answers an UPDATE … RETURNING with [rows, affected]
      const [marked] = failed.length
        ? ((await tx.query(MARK_SENDS_FAILED, [
            failed.map((a) => a.connectionId),
            failed.map((a) => a.waMessageId),
            failed.map((a) => a.companyId),
            failed.map((a) => failedReasonOf(a.failed as string)),
          ])) as [Array<{ id: string }>, number])
        : [[] as Array<{ id: string }>];
      // the risen rows whole: their events need nothing more of them
      const [raised] = (await tx.query(RAISE_ACKS, [
        acks.map((a) => a.connectionId),
        acks.map((a) => a.waMessageId),
        acks.map((a) => a.ack),
        acks.map((a) => a.companyId),
      ])) as [Array<Parameters<typeof messageOfRow>[0]>, number];
      const byId = new Map(raised.map((r) => [String(r.id), messageOfRow(r)]));
      if (repeated) {
        const named = [...acks, ...failed];
        const now = (await tx.query(SELECT_MESSAGES_BY_WIDS, [
          named.map((a) => a.connectionId),
          named.map((a) => a.waMessageId),
          named.map((a) => a.companyId),
        ])) as Array<Parameters<typeof messageOfRow>[0]>;
        for (const r of now) if (!byId.has(String(r.id))) byId.set(String(r.id), messageOfRow(r));
      }
      // a message marked failed and not risen (rare) is read as it now is
      const others = marked.map((r) => String(r.id)).filter((id) => !byId.has(id));
      if (others.length > 0) for (const m of await tx.getRepository(MessageEntity).findBy({ id: In(others) })) byId.set(String(m.id), m);
      if (byId.size === 0) return [];
      // with the messages they answer (their events carry them as the first did): one more read, only when one does
      const messages = await withQuotes(
        tx,
        [...byId.values()].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)),
      );
      const tickets = await this.tickets.findByKeys(
        messages.map((m) => ({ companyId: m.companyId, id: m.ticketId })),
        tx,
      );
      const events = announceStored('updated', messages, tickets, (companyId, id) => this.callers.nameOf(companyId, id));
      // the company's webhook deliveries commit with the rise (a repeat finds them by their key)
      await this.outbox.recordAlone(events, tx);
      return events;
    });
    // Published here, not through the outbox: the delivery is acked only once they are on the bus, so a crash
    // or an outage before that brings the batch again, and the repeat above announces what it had risen
    // (the events' msg ids drop what was published twice). An ack is half of the outbox's rows otherwise. A company's
    // risen messages go as one `message.batch` (one stream message, one delivery), its msg id theirs in one.
    await publishBatched(this.bus, events);
  }
}

/**
 * Why a send was given up, as its message keeps it (failedReason, shown in the chat and answered by the public API):
 * the spec's code first — the one the session named (ERR_WAPP_INVALID_CONTACT: not on WhatsApp), else
 * ERR_SENDING_WAPP_MSG (the connection could not send it) — then the session's words.
 */
export function failedReasonOf(reason: string): string {
  const text = reason.trim();
  const named = /^[A-Z][A-Z_]*/.exec(text)?.[0];
  return (named && isErrorCode(named) ? text : `ERR_SENDING_WAPP_MSG: ${text}`).slice(0, 1000);
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/**
 * The acks an event brings: one (`WaAck`, a send given up) or several that came together (`WaAcks`); a
 * malformed entry is left out (it could only point at no message).
 */
export function acksOf(data: WaAck | WaAcks): WaAck[] {
  const list: Array<Partial<WaAck>> =
    'acks' in data && Array.isArray(data.acks)
      ? data.acks.map((a) => ({ ...a, companyId: data.companyId, connectionId: data.connectionId, at: data.at }))
      : [data as WaAck];
  return list.filter(
    (a): a is WaAck =>
      isId(a.companyId) &&
      isId(a.connectionId) &&
      typeof a.waMessageId === 'string' &&
      a.waMessageId.length > 0 &&
      Number.isInteger(a.ack) &&
      (a.ack as number) >= 0 &&
      (a.ack as number) <= 5,
  );
}
