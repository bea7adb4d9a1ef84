import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { WaInboundMessage } from '@wa/contracts';
import { queryPrepared } from '@wa/database';
import type { BusMessage } from '@wa/event-bus';
import { metricsRegistry } from '@wa/server-kit';
import { Counter } from 'prom-client';
import { DataSource, type EntityManager } from 'typeorm';
import { announceStored } from '../conversation/core/announce.js';
import { withQuotes } from '../conversation/core/quoted-messages.queries.js';
import { TicketsRepository } from '../conversation/core/tickets.repository.js';
import { messageOfRow } from '../database/entities/index.js';
import { CallerService } from '../identity/caller.service.js';
import { Outbox } from '../outbox/outbox.service.js';
import { HISTORY_LAST, INSERT_HISTORY, SELECT_HISTORY_ROWS, SELECT_HISTORY_STORED } from './history.queries.js';
import { contactNumberOf, sentAtOf } from './inbound-rules.js';

/** History messages: stored into their conversation's open ticket, or dropped (none open; counted per delivery). */
const historyMessages = new Counter({
  name: 'tickets_inbound_history_messages_total',
  help: "Messages of WhatsApp's history sync: stored into their conversation's open ticket, or dropped (no contact or no open ticket)",
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

/**
 * History sync in tickets (issue 42 §9). whatsapp-sessions publishes the recent messages of WhatsApp's history sync
 * (what the phone hands a newly linked session) marked `history`, with their own times. Such a message is only a
 * missing page of a conversation under way: it is stored into its conversation's ticket that is not closed (the
 * contact by its number in the company, the ticket on that connection), read, ordered by its own time, and announced
 * as `message.created` (and `ticket.updated`) through the outbox in the same transaction, so an open chat shows it. It
 * makes no contact, opens no ticket, raises no unread count and gets no bot turn; the ticket's last message changes only
 * when it is the newest. One whose conversation has no open ticket is dropped (counted in
 * tickets_inbound_history_messages_total{outcome="dropped"}). Replays store nothing (unique per connection and
 * WhatsApp id). The inbound consumer takes history messages off its batch (`storeApart`) before it stores the live
 * ones, so a ticket a live message of the same batch opens gets none of them. A batch without one costs nothing.
 */
@Injectable()
export class InboundHistory {
  private readonly logger = new Logger(InboundHistory.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tickets: TicketsRepository,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
  ) {}

  /** Stores the batch's history messages (see above) and answers the rest of the batch, the live messages (the same array when it has none). */
  async storeApart<T extends BusMessage<WaInboundMessage>>(batch: T[]): Promise<T[]> {
    if (!batch.some((m) => m.data.history === true)) return batch;
    const history: T[] = [];
    const live: T[] = [];
    for (const m of batch) (m.data.history === true ? history : live).push(m);
    await this.store(history);
    return live;
  }

  /** The history messages into their open tickets, in one transaction with their announcements (outbox). */
  private async store(history: ReadonlyArray<BusMessage<WaInboundMessage>>): Promise<void> {
    const items = history.map((m) => m.data);
    const { outboxIds, stored, repeated } = await this.db.transaction(async (tx) => {
      const inserted = await queryPrepared<{ id: string; ticketId: number; companyId: number; whatsappId: number; wid: string }>(
        tx,
        INSERT_HISTORY,
        [
          items.map((m) => m.companyId),
          items.map((m) => contactNumberOf(m)),
          items.map((m) => m.connectionId),
          items.map((m) => m.waMessageId),
          items.map((m) => m.body ?? ''),
          items.map((m) => m.fromMe),
          items.map((m) => m.mediaType ?? 'chat'),
          items.map((m) => sentAtOf(m).toISOString()),
          history.map((m) => m.streamSeq),
          items.map((m) => m.quotedWaMessageId ?? null),
        ],
      );
      const newKeys = new Set(inserted.map((r) => `${r.whatsappId}|${r.wid}`));
      const others = items.filter((m) => !newKeys.has(`${m.connectionId}|${m.waMessageId}`));
      // of those not inserted: the ones already stored are replays; the rest had no open ticket
      const found = others.length
        ? await queryPrepared<{ whatsappId: number; wid: string }>(tx, SELECT_HISTORY_STORED, [
            others.map((m) => m.companyId),
            others.map((m) => m.connectionId),
            others.map((m) => m.waMessageId),
          ])
        : [];
      if (inserted.length === 0) return { outboxIds: [] as string[], stored: 0, repeated: found.length };
      // tickets in id order, as store_inbound updates them (two writers never wait on each other in a loop)
      const ticketKeys = [...new Map(inserted.map((r) => [`${r.companyId}|${r.ticketId}`, r])).values()].sort(
        (a, b) => a.ticketId - b.ticketId,
      );
      await tx.query(HISTORY_LAST, [ticketKeys.map((r) => r.companyId), ticketKeys.map((r) => r.ticketId), inserted.map((r) => r.id)]);
      return {
        outboxIds: await this.outbox.add(tx, await this.announcements(tx, inserted)),
        stored: inserted.length,
        repeated: found.length,
      };
    });
    await this.outbox.flush(outboxIds);
    const dropped = items.length - stored - repeated;
    if (stored > 0) historyMessages.inc({ outcome: 'stored' }, stored);
    if (dropped > 0) {
      historyMessages.inc({ outcome: 'dropped' }, dropped);
      this.logger.debug({ dropped }, 'inbound: history messages without an open ticket dropped');
    }
  }

  /** `message.created` for each stored message (with the message it answers), then `ticket.updated` for each ticket. */
  private async announcements(tx: EntityManager, inserted: ReadonlyArray<{ id: string; companyId: number; ticketId: number }>) {
    const rows = await queryPrepared<Parameters<typeof messageOfRow>[0]>(tx, SELECT_HISTORY_ROWS, [
      inserted.map((r) => r.id),
      inserted.map((r) => r.companyId),
    ]);
    const messages = await withQuotes(tx, rows.map(messageOfRow));
    const tickets = await this.tickets.findByKeys(
      inserted.map((r) => ({ companyId: r.companyId, id: r.ticketId })),
      tx,
    );
    return announceStored('created', messages, tickets, (companyId, id) => this.callers.nameOf(companyId, id));
  }
}
