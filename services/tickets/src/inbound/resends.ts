import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WAITING_MESSAGE_PREVIEW, type MessageEvent, type WaInboundMessage } from '@wa/contracts';
import { queryPrepared } from '@wa/database';
import type { BusMessage } from '@wa/event-bus';
import { DataSource, type EntityManager } from 'typeorm';
import { announceStored } from '../conversation/core/announce.js';
import { withQuotes } from '../conversation/core/quoted-messages.queries.js';
import { ticketUpdatedEvent } from '../conversation/core/ticket-events.js';
import { ticketView } from '../conversation/core/ticket-view.js';
import { TicketsRepository } from '../conversation/core/tickets.repository.js';
import { messageOfRow } from '../database/entities/index.js';
import { CallerService } from '../identity/caller.service.js';
import { Outbox } from '../outbox/outbox.service.js';
import { MARK_WAITING_LAST, REPLACE_WAITING, RESENT_LAST, SELECT_REPLACED, SELECT_STORED_WAITING } from './resends.queries.js';
import type { StoredMessage } from './store-inbound.js';

const keyOf = (m: Pick<WaInboundMessage, 'connectionId' | 'waMessageId'>) => `${m.connectionId}|${m.waMessageId}`;

/**
 * Undecryptable messages in tickets (issue 42 §5). whatsapp-sessions publishes a message WhatsApp delivered
 * undecryptable as one waiting for the phone's resend (`resend: 'waiting'`, mediaType 'ciphertext', empty body):
 * it is stored as any message (it opens or continues the conversation), and while it is its ticket's newest message,
 * the ticket's last message is WhatsApp's waiting text (WAITING_MESSAGE_PREVIEW). The phone's resend (`resend:
 * 'replaces'`, the same WhatsApp id with the content) is taken off the batch before it is stored (`split`), as the
 * store would find the id stored and keep the waiting message, and replaces the waiting message in place after the
 * batch's store (`afterStore`): one message, same id, its text, media type, file and quote updated, the ticket's
 * last message too when it is the newest, announced as `message.updated` (and `ticket.updated`) through the outbox in
 * the same transaction. A resend whose waiting message was never stored stays in the batch: stored as any message.
 * Replays of either change nothing. A batch without either costs nothing more.
 */
@Injectable()
export class InboundResends {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tickets: TicketsRepository,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
  ) {}

  /**
   * The batch without the resends whose waiting message is stored or in the batch (those are `resends`, replaced
   * after the store); one read, only for a batch holding a resend.
   */
  async split(
    batch: BusMessage<WaInboundMessage>[],
  ): Promise<{ rest: BusMessage<WaInboundMessage>[]; resends: BusMessage<WaInboundMessage>[] }> {
    if (!batch.some((m) => m.data.resend === 'replaces')) return { rest: batch, resends: [] };
    const waiting = new Set(batch.filter((m) => m.data.resend === 'waiting').map((m) => keyOf(m.data)));
    const asked = batch.filter((m) => m.data.resend === 'replaces' && !waiting.has(keyOf(m.data))).map((m) => m.data);
    if (asked.length > 0) {
      const stored = await this.tickets.keyed<{ whatsappId: number; wid: string }>(SELECT_STORED_WAITING, [
        asked.map((m) => m.companyId),
        asked.map((m) => m.connectionId),
        asked.map((m) => m.waMessageId),
      ]);
      for (const r of stored) waiting.add(`${r.whatsappId}|${r.wid}`);
    }
    const rest: BusMessage<WaInboundMessage>[] = [];
    const resends: BusMessage<WaInboundMessage>[] = [];
    for (const m of batch) (m.data.resend === 'replaces' && waiting.has(keyOf(m.data)) ? resends : rest).push(m);
    return { rest, resends };
  }

  /**
   * After the batch's store: the tickets whose newest message now waits show the waiting text (before the batch is
   * announced, so its events carry it), then the resends replace their waiting messages.
   */
  async afterStore(
    stored: readonly StoredMessage[],
    batch: readonly BusMessage<WaInboundMessage>[],
    resends: readonly BusMessage<WaInboundMessage>[],
  ): Promise<MessageEvent[]> {
    const waiting = new Set(batch.filter((m) => m.data.resend === 'waiting').map((m) => keyOf(m.data)));
    if (waiting.size > 0) {
      const tickets = stored.filter((s) => waiting.has(`${s.whatsappId}|${s.wid}`));
      if (tickets.length > 0)
        await this.db.query(MARK_WAITING_LAST, [tickets.map((s) => s.companyId), tickets.map((s) => s.ticketId), WAITING_MESSAGE_PREVIEW]);
    }
    return resends.length > 0 ? this.replace(resends.map((m) => m.data)) : [];
  }

  /**
   * The resends replace their waiting messages, in order, in one transaction with their announcements (outbox).
   * Answers the replaced messages' `message.updated` payloads: the bot reads the text it could not read before.
   */
  private async replace(resends: readonly WaInboundMessage[]): Promise<MessageEvent[]> {
    const { outboxIds, events } = await this.db.transaction(async (tx) => {
      const replaced: Array<{ id: string; companyId: number; ticketId: number }> = [];
      for (const m of resends) {
        const [row] = await queryPrepared<{ id: string; ticketId: number }>(tx, REPLACE_WAITING, [
          m.companyId,
          m.connectionId,
          m.waMessageId,
          m.body,
          m.mediaType,
          m.media?.key ?? null,
          m.quotedWaMessageId ?? null,
        ]);
        // a replay: the waiting message was replaced already
        if (!row) continue;
        await tx.query(RESENT_LAST, [m.companyId, row.ticketId, m.body, row.id]);
        replaced.push({ id: row.id, companyId: m.companyId, ticketId: row.ticketId });
      }
      if (replaced.length === 0) return { outboxIds: [], events: [] };
      const events = await this.announcements(tx, replaced);
      return { outboxIds: await this.outbox.add(tx, events), events };
    });
    await this.outbox.flush(outboxIds);
    return events.filter((e) => e.subject.startsWith('message.updated.')).map((e) => e.payload as MessageEvent);
  }

  /** `message.updated` for each replaced message (with the message it answers), then `ticket.updated` for each ticket. */
  private async announcements(tx: EntityManager, replaced: ReadonlyArray<{ id: string; companyId: number; ticketId: number }>) {
    const rows = await queryPrepared<Parameters<typeof messageOfRow>[0]>(tx, SELECT_REPLACED, [
      replaced.map((r) => r.id),
      replaced.map((r) => r.companyId),
    ]);
    const messages = await withQuotes(tx, rows.map(messageOfRow));
    const tickets = await this.tickets.findByKeys(
      replaced.map((r) => ({ companyId: r.companyId, id: r.ticketId })),
      tx,
    );
    const nameOf = (companyId: number, id: number) => this.callers.nameOf(companyId, id);
    return [
      ...announceStored('updated', messages, tickets, nameOf),
      ...tickets.map((row) => ticketUpdatedEvent(ticketView(row, (id) => nameOf(row.companyId, id)))),
    ];
  }
}
