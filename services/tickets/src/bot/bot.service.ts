import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Streams, type MessageEvent } from '@wa/contracts';
import { queryPrepared } from '@wa/database';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { companyTimeZone, TIME_ZONE_SETTING, type WorkingDay } from '@wa/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { TicketsEnv } from '../config/env.js';
import { CallerService } from '../identity/caller.service.js';
import { fillVariables } from '../messages/message-variables.js';
import { MessagesService } from '../messages/messages.service.js';
import { Outbox } from '../outbox/outbox.service.js';
import { ticketUpdatedEvent } from '../tickets/ticket-events.js';
import { ticketView, type TicketRow } from '../tickets/ticket-view.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { botReply, ratingOf, type BotOption, type BotQueue, type BotSettings, type BotState, type ConnectionBot } from './bot-rules.js';

/** The company setting holding its working hours in tickets' copy (auth's `company.schedules.updated`). */
export const COMPANY_SCHEDULES_KEY = 'schedules';
/** How long a closed ticket's rating request waits for the customer's answer. */
export const RATING_WINDOW = '24 hours';

interface LockedTicket {
  id: number;
  companyId: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  whatsappId: number;
  contactId: number;
  isGroup: boolean;
  chatbot: boolean;
  botState: BotState | null;
}

/**
 * The bot in the inbound path. It follows tickets' own `message.created` events, so the inbound store never
 * waits for it: a customer's message on a waiting ticket nobody has taken is answered by `botReply`, in
 * one transaction with the ticket locked (its queue, its place in the menu, the replies in the outbox), one
 * ticket's messages in order. A redelivered message finds itself handled (`lastMessageId`) and does nothing.
 * An agent's message (sent from here or from the phone) or the ticket's acceptance stops the bot there.
 */
@Injectable()
export class BotService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(BotService.name);
  private handle: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly env: TicketsEnv,
    private readonly tickets: TicketsRepository,
    private readonly messages: MessagesService,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<MessageEvent>({
      stream: Streams.TICKETS.name,
      durable: 'tickets-bot',
      filterSubjects: ['message.created.>'],
      // one ticket's messages in order: message.created.<companyId>.<ticketId>
      orderKey: (subject) => subject.split('.').slice(2).join('.'),
      concurrency: this.env.BOT_CONCURRENCY,
      handler: async (batch) => {
        for (const m of batch) await this.handleOne(m);
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  private async handleOne({ data }: BusMessage<MessageEvent>): Promise<void> {
    const { message, ticket } = data ?? {};
    // only a customer's message on a waiting, untaken conversation (re-checked under the lock)
    if (!message || !ticket || message.fromMe || ticket.isGroup || ticket.status !== 'pending' || ticket.userId !== null) return;
    const outboxIds = await this.db.transaction((tx) => this.answer(tx, ticket.companyId, ticket.id, message.id, message.body ?? ''));
    await this.outbox.flush(outboxIds);
  }

  /** The bot's turn for one customer message, inside the transaction; the outbox rows it wrote. */
  async answer(tx: EntityManager, companyId: number, ticketId: number, messageId: number, body: string): Promise<string[]> {
    const [locked] = await queryPrepared<LockedTicket>(
      tx,
      `SELECT id, "companyId", status, "userId", "queueId", "whatsappId", "contactId", "isGroup", chatbot, "botState"
         FROM tickets.tickets WHERE id = $1 AND "companyId" = $2 FOR UPDATE`,
      [ticketId, companyId],
    );
    if (!locked || locked.isGroup) return [];
    if (locked.botState?.lastMessageId !== undefined && locked.botState.lastMessageId >= messageId) return [];
    if (locked.status !== 'pending' || locked.userId !== null) return locked.chatbot ? this.stop(tx, locked, messageId) : [];

    // an agent spoke (here or from the phone) before this message: the bot keeps quiet on this ticket
    const [seen] = await queryPrepared<{ agent: boolean; earlier: boolean }>(
      tx,
      `SELECT EXISTS (SELECT 1 FROM tickets.messages WHERE "ticketId" = $1 AND id < $2 AND "fromMe" AND NOT "isBot") AS agent,
              EXISTS (SELECT 1 FROM tickets.messages WHERE "ticketId" = $1 AND id < $2) AS earlier`,
      [ticketId, messageId],
    );
    if (seen?.agent) return this.stop(tx, locked, messageId);
    // a conversation that was going before the bot existed is not greeted halfway through
    if (locked.botState === null && seen?.earlier) return this.stop(tx, locked, messageId);
    if (locked.botState === null) {
      const rated = await this.rating(tx, locked, messageId, body);
      if (rated) return rated;
    }

    const [connection] = await queryPrepared<{ queueIds: number[]; greetingMessage: string; bot: ConnectionBot }>(
      tx,
      `SELECT "queueIds", "greetingMessage", bot FROM tickets.connections WHERE id = $1 AND "companyId" = $2`,
      [locked.whatsappId, companyId],
    );
    if (!connection) return [];
    const settings = await this.settingsOf(tx, companyId);
    const queues = await queryPrepared<BotQueue & { orderQueue: number | null }>(
      tx,
      `SELECT id, name, "greetingMessage", "outOfHoursMessage", schedules, "orderQueue" FROM tickets.queues
        WHERE "companyId" = $1 AND id = ANY($2::int[]) ORDER BY "orderQueue" ASC NULLS LAST, lower(name), id`,
      [companyId, connection.queueIds ?? []],
    );
    const options = (
      await queryPrepared<Omit<BotOption, 'option'> & { option: string }>(
        tx,
        `SELECT id, "queueId", "parentId", option, title, message FROM tickets.queue_options WHERE "companyId" = $1 AND "queueId" = ANY($2::int[])`,
        [companyId, queues.map((q) => q.id)],
      )
    ).map((o) => ({ ...o, option: Number(o.option) }));

    const outcome = botReply({
      state: locked.botState,
      body,
      now: new Date(),
      queues,
      options,
      connection: { ...connection.bot, greetingMessage: connection.greetingMessage ?? '' },
      settings,
      queueId: locked.queueId,
    });
    const state: BotState = { ...outcome.state, lastMessageId: messageId };
    const moved = outcome.queueId !== locked.queueId;
    await tx.query(
      `UPDATE tickets.tickets SET "botState" = $3, chatbot = $4, "queueId" = $5${moved || outcome.chatbot !== locked.chatbot ? `, "updatedAt" = now()` : ''}
        WHERE id = $1 AND "companyId" = $2`,
      [ticketId, companyId, JSON.stringify(state), outcome.chatbot, outcome.queueId],
    );
    const row = (await this.tickets.findById(companyId, ticketId, tx)) as TicketRow;
    if (outcome.replies.length === 0) {
      return moved || outcome.chatbot !== locked.chatbot ? this.outbox.add(tx, [ticketUpdatedEvent(this.view(row))]) : [];
    }
    const items = outcome.replies.map((text) => ({ row, body: fillVariables(text, { contactName: row.contactName, ticketId: row.id, timeZone: settings.timeZone }), bot: true }));
    // the customer has just written through this connection: the replies queue behind it whatever its state
    const { outboxIds } = await this.messages.sendManyInTransaction(tx, items, { connectionsChecked: true });
    return outboxIds;
  }

  /** The bot is quiet on this ticket from now on. */
  private async stop(tx: EntityManager, locked: LockedTicket, messageId: number): Promise<string[]> {
    const state: BotState = { ...(locked.botState ?? { attempts: 0 }), step: 'done', lastMessageId: messageId };
    await tx.query(`UPDATE tickets.tickets SET "botState" = $3, chatbot = false${locked.chatbot ? `, "updatedAt" = now()` : ''} WHERE id = $1 AND "companyId" = $2`, [
      locked.id,
      locked.companyId,
      JSON.stringify(state),
    ]);
    if (!locked.chatbot) return [];
    const row = (await this.tickets.findById(locked.companyId, locked.id, tx)) as TicketRow;
    return this.outbox.add(tx, [ticketUpdatedEvent(this.view(row))]);
  }

  /**
   * The customer's first message after a conversation closed with a rating request: 1 to 3 is the rating of
   * that closed ticket (kept for the dashboard); the company's completion text thanks them and this short
   * conversation closes at once. Anything else passes the request over and the bot greets as usual.
   */
  private async rating(tx: EntityManager, locked: LockedTicket, messageId: number, body: string): Promise<string[] | null> {
    const [asked] = await queryPrepared<{ id: number; fresh: boolean }>(
      tx,
      `SELECT id, "ratingAskedAt" > now() - $5::interval AS fresh FROM tickets.tickets
        WHERE "contactId" = $1 AND "whatsappId" = $2 AND "companyId" = $3 AND "ratingAskedAt" IS NOT NULL AND status = 'closed' AND id <> $4
        ORDER BY "ratingAskedAt" DESC LIMIT 1 FOR UPDATE`,
      [locked.contactId, locked.whatsappId, locked.companyId, locked.id, RATING_WINDOW],
    );
    if (!asked) return null;
    // answered or passed over, the request is settled; an answer counts only within the window
    const rating = asked.fresh ? ratingOf(body) : null;
    await tx.query(`UPDATE tickets.tickets SET "ratingAskedAt" = NULL, rating = COALESCE($3::smallint, rating) WHERE id = $1 AND "companyId" = $2`, [asked.id, locked.companyId, rating]);
    if (rating === null) return null;
    const [connection] = await queryPrepared<{ bot: ConnectionBot }>(tx, `SELECT bot FROM tickets.connections WHERE id = $1`, [locked.whatsappId]);
    const settings = await this.settingsOf(tx, locked.companyId);
    const state: BotState = { step: 'done', attempts: 0, greeted: true, lastMessageId: messageId };
    await tx.query(`UPDATE tickets.tickets SET status = 'closed', chatbot = false, "unreadMessages" = 0, "botState" = $3, "updatedAt" = now() WHERE id = $1 AND "companyId" = $2`, [
      locked.id,
      locked.companyId,
      JSON.stringify(state),
    ]);
    const row = (await this.tickets.findById(locked.companyId, locked.id, tx)) as TicketRow;
    const thanks = (connection?.bot.complationMessage ?? '').trim();
    if (!thanks) return this.outbox.add(tx, [ticketUpdatedEvent(this.view(row))]);
    const text = fillVariables(thanks, { contactName: row.contactName, ticketId: row.id, timeZone: settings.timeZone });
    return (await this.messages.sendManyInTransaction(tx, [{ row, body: text, bot: true }], { connectionsChecked: true })).outboxIds;
  }

  private async settingsOf(tx: EntityManager, companyId: number): Promise<BotSettings> {
    const rows = await queryPrepared<{ key: string; value: string }>(
      tx,
      `SELECT key, value FROM tickets.company_settings WHERE "companyId" = $1 AND key = ANY($2::text[])`,
      [companyId, ['scheduleType', 'sendGreetingMessageOneQueues', TIME_ZONE_SETTING, COMPANY_SCHEDULES_KEY]],
    );
    const value = (key: string) => rows.find((r) => r.key === key)?.value;
    let companySchedules: WorkingDay[] = [];
    try {
      const parsed: unknown = JSON.parse(value(COMPANY_SCHEDULES_KEY) ?? '[]');
      if (Array.isArray(parsed)) companySchedules = parsed as WorkingDay[];
    } catch {
      this.logger.warn({ companyId }, 'bot: the company working hours are not readable; treated as none');
    }
    return {
      scheduleType: value('scheduleType') ?? 'disabled',
      companySchedules,
      // the product's default: enabled
      sendGreetingMessageOneQueues: (value('sendGreetingMessageOneQueues') ?? 'enabled') === 'enabled',
      timeZone: companyTimeZone(value(TIME_ZONE_SETTING)),
    };
  }

  private view(row: TicketRow) {
    return ticketView(row, (id) => this.callers.nameOf(row.companyId, id));
  }
}
