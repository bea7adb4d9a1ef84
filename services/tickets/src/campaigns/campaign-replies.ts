import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryPrepared } from '@wa/database';
import { DataSource } from 'typeorm';
import { messageOfRow, type MessageEntity } from '../database/entities/index.js';
import type { TicketRow } from '../conversation/core/ticket-view.js';
import { TAKE_ANSWERED_CAMPAIGN_MESSAGES } from './campaign-messages.queries.js';

const time = (d: Date | string) => new Date(d).getTime();

/**
 * A contact answering a campaign (issue 40 item 9): the new ticket their answer opened shows the campaign message
 * they answer as ours, just before the answer, once. Asked by the inbound path after a batch is stored, and only
 * for tickets that batch created (a ticket created in the same call as its message: equal timestamps), so a
 * batch that opened no conversation costs nothing and one that did costs one statement by primary key.
 */
@Injectable()
export class CampaignReplies {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The campaign messages moved into the batch's new tickets (as stored), to announce before the answers. */
  async take(messages: readonly MessageEntity[], tickets: readonly TicketRow[]): Promise<MessageEntity[]> {
    const byId = new Map(tickets.map((t) => [t.id, t]));
    // each new ticket's first answer from the contact
    const answers = new Map<number, MessageEntity>();
    for (const m of messages) {
      const ticket = byId.get(m.ticketId);
      if (!ticket || m.fromMe || ticket.isGroup || time(ticket.createdAt) !== time(m.createdAt)) continue;
      const first = answers.get(ticket.id);
      if (!first || time(m.sentAt) < time(first.sentAt)) answers.set(ticket.id, m);
    }
    if (answers.size === 0) return [];
    const keys = [...answers.values()].map((m) => ({ m, ticket: byId.get(m.ticketId) as TicketRow }));
    const rows = await queryPrepared<Parameters<typeof messageOfRow>[0]>(this.db, TAKE_ANSWERED_CAMPAIGN_MESSAGES, [
      keys.map((k) => k.ticket.companyId),
      keys.map((k) => k.ticket.whatsappId),
      keys.map((k) => k.ticket.contactNumber),
      keys.map((k) => k.ticket.id),
      keys.map((k) => k.ticket.contactId),
      keys.map((k) => new Date(k.m.sentAt).toISOString()),
      keys.map((k) => new Date(k.m.createdAt).toISOString()),
    ]);
    return rows.map(messageOfRow);
  }
}
