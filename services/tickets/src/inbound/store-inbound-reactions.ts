import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { WaInboundMessage } from '@wa/contracts';
import type { BusMessage } from '@wa/event-bus';
import { DataSource } from 'typeorm';
import { announceStored } from '../conversation/core/announce.js';
import { withQuotes } from '../conversation/core/quoted-messages.queries.js';
import type { TicketRow } from '../conversation/core/ticket-view.js';
import { TicketsRepository } from '../conversation/core/tickets.repository.js';
import { SET_REACTION_BY_WID } from '../conversation/messages/messages.queries.js';
import { MessageEntity } from '../database/entities/index.js';
import { CallerService } from '../identity/caller.service.js';
import { Outbox } from '../outbox/outbox.service.js';

/**
 * Reactions received (issue 45 §4): a customer's (or, from the phone itself, our) emoji on a message of the chat is
 * no message of its own. They are taken off the inbound batch before it is stored (`apart`), and each is kept on the
 * message it reacts to (`contents.reactions`, one per who reacted: a new one replaces theirs, an empty emoji takes it
 * away), announced as `message.updated` through the outbox in the same transaction. A reaction to a message this
 * service does not have (older than the conversation here, or of another connection) is dropped. Replays set the
 * same reaction again: harmless. A batch without reactions costs nothing more.
 */
@Injectable()
export class InboundReactions {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tickets: TicketsRepository,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
  ) {}

  /** The batch without its reactions, which are kept on their messages first. */
  async apart(batch: BusMessage<WaInboundMessage>[]): Promise<BusMessage<WaInboundMessage>[]> {
    if (!batch.some((m) => m.data.reaction)) return batch;
    const reactions = batch.filter((m) => m.data.reaction).map((m) => m.data);
    const outboxIds = await this.db.transaction(async (tx) => {
      const touched = new Map<string, { id: string; companyId: number; ticketId: number }>();
      for (const r of reactions) {
        const reaction = r.reaction as NonNullable<WaInboundMessage['reaction']>;
        const emoji = typeof reaction.emoji === 'string' ? reaction.emoji.slice(0, 32) : '';
        // who reacted: the customer (in a group, the group's chat: its members' reactions are told apart no further), or us
        const rows = (await tx.query(SET_REACTION_BY_WID, [
          r.companyId,
          r.connectionId,
          reaction.waMessageId,
          emoji,
          r.fromMe,
          r.fromMe ? '' : r.from,
        ])) as [Array<{ id: string; ticketId: number }>, number];
        for (const row of rows[0] ?? [])
          touched.set(`${r.companyId}|${row.id}`, { id: String(row.id), companyId: r.companyId, ticketId: row.ticketId });
      }
      if (touched.size === 0) return [];
      const messages = await withQuotes(
        tx,
        await Promise.all(
          [...touched.values()].map(
            async (t) => (await tx.getRepository(MessageEntity).findOneBy({ id: t.id, companyId: t.companyId })) as MessageEntity,
          ),
        ),
      );
      const tickets = await this.tickets.findByKeys(
        [...touched.values()].map((t) => ({ companyId: t.companyId, id: t.ticketId })),
        tx,
      );
      return this.outbox.add(
        tx,
        announceStored('updated', messages, tickets as TicketRow[], (companyId, id) => this.callers.nameOf(companyId, id)),
      );
    });
    await this.outbox.flush(outboxIds);
    return batch.filter((m) => !m.data.reaction);
  }
}
