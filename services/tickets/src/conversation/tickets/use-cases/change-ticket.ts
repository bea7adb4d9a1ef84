import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { companyTimeZone, TIME_ZONE_SETTING } from '@wa/domain';
import { DataSource, type EntityManager } from 'typeorm';
import { TicketEntity } from '../../../database/entities/index.js';
import { CallerService, type Caller } from '../../../identity/caller.service.js';
import { Outbox } from '../../../outbox/outbox.service.js';
import { ReadModels } from '../../../read-models/read-models.repository.js';
import { ticketUpdatedEvent } from '../../core/ticket-events.js';
import { ticketView, type TicketRow } from '../../core/ticket-view.js';
import { TicketsRepository } from '../../core/tickets.repository.js';
import { ConversationSender } from '../../sending/conversation-sender.js';
import { UPDATE_TICKETS_RATING_ASKED_AT } from './change-ticket.queries.js';
import { greetingOnAccept } from './greeting.js';
import { ratingRequestText } from './rating-request.js';
import type { TicketEffect, TicketTransition } from './ticket-transition.js';
import { transferNotice } from './transfer-notice.js';

/**
 * Accept, transfer, return and resolve (spec 01 §4) as ticketTransition gives them, written: the patch, what goes
 * to the customer (the greeting on accepting, the notice of a transfer or a return to another queue, the farewell
 * on resolving) and the ticket's announcement, in one transaction.
 */
@Injectable()
export class ChangeTicket {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tickets: TicketsRepository,
    private readonly readModels: ReadModels,
    private readonly sender: ConversationSender,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
  ) {}

  /**
   * A transition written in one transaction: the patch, what it sends the customer (each only when the company's
   * setting says so: the greeting with sendGreetingAccepted, the transfer notice with sendMsgTransfTicket, the
   * rating request with userRating, else the completion text) and the ticket's announcement.
   */
  async apply(caller: Caller, row: TicketRow, { patch, effects }: TicketTransition): Promise<void> {
    const enabled = async (effect: TicketEffect, setting: string) =>
      effects.includes(effect) && (await this.readModels.setting(caller.companyId, setting)) === 'enabled';
    const wantsGreeting = await enabled('greeting', 'sendGreetingAccepted');
    const wantsNotice = await enabled('transfer-notice', 'sendMsgTransfTicket');
    const closing = effects.includes('farewell');
    const wantsRating = await enabled('farewell', 'userRating');
    const outboxIds = await this.db.transaction(async (tx) => {
      await tx.getRepository(TicketEntity).update({ id: row.id, companyId: caller.companyId }, { ...patch, updatedAt: new Date() });
      const ids: string[] = [];
      if (wantsGreeting) ids.push(...(await this.greet(tx, caller, row.id)));
      if (wantsNotice) ids.push(...(await this.noticeTransfer(tx, row, row.id)));
      if (closing) ids.push(...(await this.farewell(tx, caller.companyId, row.id, wantsRating)));
      const updated = (await this.tickets.findById(caller.companyId, row.id, tx)) as TicketRow;
      ids.push(...(await this.outbox.add(tx, [ticketUpdatedEvent(this.view(updated))])));
      return ids;
    });
    await this.outbox.flush(outboxIds);
  }

  private async greet(tx: EntityManager, caller: Caller, ticketId: number): Promise<string[]> {
    const row = (await this.tickets.findById(caller.companyId, ticketId, tx)) as TicketRow;
    const connection = await this.readModels.connection(caller.companyId, row.whatsappId, tx);
    if (connection?.status !== 'CONNECTED') return [];
    const zone = companyTimeZone(await this.readModels.setting(caller.companyId, TIME_ZONE_SETTING, tx));
    const greeting = greetingOnAccept(row.contactName, this.callers.displayName(caller), zone);
    const { outboxIds } = await this.sender.sendInTransaction(tx, row, greeting);
    return outboxIds;
  }

  /** The customer is told of the transfer (sendMsgTransfTicket), in the same transaction, when the phone is up. */
  private async noticeTransfer(tx: EntityManager, before: TicketRow, ticketId: number): Promise<string[]> {
    const after = (await this.tickets.findById(before.companyId, ticketId, tx)) as TicketRow;
    const text = transferNotice({
      fromQueueId: before.queueId,
      toQueueId: after.queueId,
      fromUserId: before.userId,
      toUserId: after.userId,
      queueName: after.queueName,
      userName: after.userId ? this.callers.nameOf(after.companyId, after.userId) || null : null,
    });
    if (!text) return [];
    const connection = await this.readModels.connection(after.companyId, after.whatsappId, tx);
    if (connection?.status !== 'CONNECTED') return [];
    return (await this.sender.sendInTransaction(tx, after, text)).outboxIds;
  }

  /**
   * A conversation closed by an agent: the rating request (userRating enabled; the customer's answer, 1 to
   * 3, is kept by the bot) or else the connection's completion text, sent as the bot's when the phone is up.
   */
  private async farewell(tx: EntityManager, companyId: number, ticketId: number, askRating: boolean): Promise<string[]> {
    const row = (await this.tickets.findById(companyId, ticketId, tx)) as TicketRow;
    const connection = await this.readModels.connection(companyId, row.whatsappId, tx);
    if (connection?.status !== 'CONNECTED') return [];
    const text = askRating ? ratingRequestText(connection.bot?.ratingMessage) : (connection.bot?.complationMessage ?? '').trim();
    if (!text) return [];
    if (askRating) await tx.query(UPDATE_TICKETS_RATING_ASKED_AT, [ticketId, companyId]);
    const body = await this.sender.withVariables(row, text, tx);
    return (await this.sender.sendManyInTransaction(tx, [{ row, body, bot: true }], { connectionsChecked: true })).outboxIds;
  }

  private view(row: TicketRow) {
    return ticketView(row, (id) => this.callers.nameOf(row.companyId, id));
  }
}
