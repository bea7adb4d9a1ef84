import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Streams, type MessageEvent } from '@wa/contracts';
import { keptPlansTransaction, queryPrepared } from '@wa/database';
import { deleteDurable, durableInfo, EventBus, type ConsumerHandle } from '@wa/event-bus';
import { MediaStorage, storedMediaOf } from '@wa/server-kit';
import { companyTimeZone, TIME_ZONE_SETTING, type WorkingDay } from '@wa/domain';
import { DataSource, type EntityManager } from 'typeorm';
import { TicketsEnv } from '../../config/env.js';
import { CallerService } from '../../identity/caller.service.js';
import { CompanyStandings, refusalText } from '../../identity/company-standings.js';
import { fillVariables } from '../../conversation/sending/message-variables.js';
import { ConversationSender, type SentMedia } from '../../conversation/sending/conversation-sender.js';
import { Outbox } from '../../outbox/outbox.service.js';
import { COMPANY_SCHEDULES_KEY, ReadModels } from '../../read-models/read-models.repository.js';
import { ticketUpdatedEvent } from '../../conversation/core/ticket-events.js';
import { ticketView, type TicketRow } from '../../conversation/core/ticket-view.js';
import { TicketsRepository } from '../../conversation/core/tickets.repository.js';
import { IntegrationAgent } from './integration-agent.js';
import { PromptAgent } from './prompt-agent.js';
import { DONE_TICKETS, LOCK_TICKETS, LOCK_TICKETS_WITH_MENUS, PLACE_TICKETS } from './bot.queries.js';
import { botReply, ratingOf, type BotOption, type BotQueue, type BotSettings, type BotState, type ConnectionBot } from './bot-rules.js';
import {
  CLOSE_RATED_TICKET,
  CONNECTION_BOT,
  DELEGATED_TURN,
  HAND_OVER_TICKET,
  KEEP_TYPEBOT_SESSION,
  LOCK_RATING_ASKED,
  SETTLE_RATING,
} from './bot.queries.js';

/** The company settings the bot reads. */
const BOT_SETTING_KEYS = ['scheduleType', 'sendGreetingMessageOneQueues', TIME_ZONE_SETTING, COMPANY_SCHEDULES_KEY] as const;
/** The durable consumer of `message.created` the bot answered from before it ran in the inbound path. */
const FORMER_LANE = 'tickets-bot';
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
  contactName: string;
  contactNumber: string;
  /** the conversation's first message, and its first one from an agent (not the bot): null when none */
  firstMessageId: string | null;
  firstAgentMessageId: string | null;
  /** a conversation the bot has not seen yet whose contact was asked for a rating when the last one on this connection closed */
  ratingAsked: boolean;
}

/** A connection's menu as CONNECTION_MENU reads it. */
interface MenuRow {
  greetingMessage: string | null;
  bot: ConnectionBot | null;
  queues: BotQueue[];
  options: Array<Omit<BotOption, 'option'> & { option: string }>;
  settings: Record<string, string>;
}

/** One customer message for the bot. */
export interface BotTurn {
  companyId: number;
  ticketId: number;
  messageId: number;
  body: string;
}

/** A customer message the queue's AI prompt answers. */
interface Delegate {
  companyId: number;
  ticketId: number;
  queueId: number;
  messageId: number;
}

/** What the bot reads of a connection: its queues in menu order, their options, its texts and limits. */
interface ConnectionMenu {
  greetingMessage: string;
  bot: ConnectionBot;
  queues: BotQueue[];
  options: BotOption[];
}

/**
 * The bot in the inbound path. The inbound consumer hands it what it has just stored and announced, after
 * the store's commit (the store never waits for it) and before the delivery is acked (a crash in between
 * redelivers it, and the turn is made then): a customer's message on a waiting ticket nobody has taken is
 * answered by `botReply`. A batch
 * of such messages (several conversations; one conversation's messages in order) is one transaction: the
 * tickets locked, the menus read once per connection, the new places in the menu written in one statement
 * and the replies sent in one (through the same outbox and provider as an agent's). A redelivered message
 * finds itself handled (`lastMessageId`) and does nothing. An agent's message (sent from here or from the
 * phone) or the ticket's acceptance stops the bot there.
 */
@Injectable()
export class BotService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(BotService.name);
  /** the former durable lane, while it is drained (retireOldLane) */
  private handle: ConsumerHandle | undefined;
  private retiring: Promise<void> | undefined;
  private stopping = false;
  /** each ticket's last message with the AI prompt, so a ticket's answers go out in order */
  private readonly delegating = new Map<string, Promise<void>>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly env: TicketsEnv,
    private readonly tickets: TicketsRepository,
    private readonly sender: ConversationSender,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
    private readonly agent: PromptAgent,
    private readonly flows: IntegrationAgent,
    private readonly readModels: ReadModels,
    private readonly storage: MediaStorage,
    private readonly standings: CompanyStandings,
  ) {}

  onApplicationBootstrap(): void {
    // the lane of the versions before: messages it still holds are answered, then it is removed
    this.retiring = this.retireOldLane().catch((err: unknown) =>
      this.logger.warn({ err: String(err) }, 'bot: the former durable lane not retired; tried again at the next start'),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.handle?.stop();
    await this.retiring;
    await Promise.all(this.delegating.values());
  }

  /**
   * Customer messages the inbound path has just stored and announced (their `message.created` payloads),
   * answered before that delivery is acked: a crash in between redelivers it, the store finds the messages
   * stored and they come here again (a message already answered is skipped under the ticket's lock).
   */
  async answerStored(events: readonly MessageEvent[], done?: ReadonlySet<number>): Promise<void> {
    const turns: BotTurn[] = [];
    for (const data of events) {
      const { message, ticket } = data ?? {};
      // only a customer's message on a waiting, untaken conversation (re-checked under the lock)
      if (!message || !ticket || message.fromMe || ticket.isGroup || ticket.status !== 'pending' || ticket.userId !== null) continue;
      // a message waiting for the phone's resend (undecryptable) says nothing yet: its text comes with the resend
      if (message.mediaType === 'ciphertext') continue;
      turns.push({ companyId: ticket.companyId, ticketId: ticket.id, messageId: message.id, body: message.body ?? '' });
    }
    if (turns.length === 0) return;
    // each conversation in the order its messages were stored
    turns.sort((a, b) => a.messageId - b.messageId);
    // a conversation the bot is done with says nothing more, unless working hours are kept (an out-of-hours
    // reply): those cost one read here instead of the locked turn (busy conversations stay cheap). `done`: the
    // caller read them already (BOT_DONE, with the tickets it announced, after the messages were stored)
    done ??= new Set(
      (await this.tickets.keyed<{ id: number }>(DONE_TICKETS, [turns.map((t) => t.companyId), turns.map((t) => t.ticketId)])).map(
        (r) => r.id,
      ),
    );
    const undone = done.size ? turns.filter((t) => !done.has(t.ticketId)) : turns;
    // a company disabled or past its due date gets its customers' messages stored, and no bot (issue 38 item 9)
    const inactive = undone.length ? await this.standings.inactiveOf(undone.map((t) => t.companyId)) : undefined;
    const left = inactive?.size ? undone.filter((t) => !inactive.has(t.companyId)) : undone;
    if (left.length === 0) return;
    const delegates: Delegate[] = [];
    // rows named by key only: every statement of the turn keeps its plan
    const outboxIds = await keptPlansTransaction(this.db, (tx) => this.answer(tx, left, delegates));
    await this.outbox.flush(outboxIds);
    for (const d of delegates) this.delegate(d);
  }

  /**
   * Versions before this one answered from a durable consumer of `message.created` (FORMER_LANE). Left
   * alone, it would keep every message published since; at start, what it still holds (published before the
   * upgrade, not yet answered) is answered as the inbound path would, then it is deleted. Several replicas
   * may do this at once: the turns are idempotent, and the one that finds the lane gone stops.
   */
  private async retireOldLane(): Promise<void> {
    // what the lane has answered (every message up to this stream sequence is acked; all of them when it holds
    // none), null when it is gone
    const answeredUpTo = async (): Promise<number | null> => {
      const info = await durableInfo(this.bus, Streams.TICKETS.name, FORMER_LANE);
      if (!info) return null;
      return info.num_pending === 0 && info.num_ack_pending === 0 ? Number.MAX_SAFE_INTEGER : info.ack_floor.stream_seq;
    };
    if ((await answeredUpTo()) === null) return;
    // what was published before this start is the lane's to answer; what comes after is the inbound path's
    const until = (await (await this.bus.connection.jetstreamManager()).streams.info(Streams.TICKETS.name)).state.last_seq;
    this.handle = await this.bus.consume<MessageEvent>({
      stream: Streams.TICKETS.name,
      durable: FORMER_LANE,
      filterSubjects: ['message.created.>'],
      orderKey: (subject) => subject.split('.').slice(2).join('.'),
      concurrency: 1,
      batchSize: this.env.BOT_BATCH_SIZE,
      handler: (batch) => this.answerStored(batch.map((m) => m.data)),
    });
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      if (this.stopping) return;
      const floor = await answeredUpTo();
      if (floor === null || floor >= until) break;
    }
    await this.handle.stop();
    this.handle = undefined;
    await deleteDurable(this.bus, Streams.TICKETS.name, FORMER_LANE);
    this.logger.log({ durable: FORMER_LANE }, 'bot: the former durable lane answered what it held and is removed');
  }

  /**
   * A message for the queue's AI prompt: answered after the bot's transaction, off the bot's lane (a slow
   * model holds up only its own conversation), one at a time per ticket. The answer goes out only if the
   * ticket is still the bot's and nothing newer was handed to the model; a failure, a timeout or the model's
   * hand-over leaves the ticket to the queue's agents (pending in its queue, the bot quiet).
   */
  private delegate(d: Delegate): void {
    const key = `${d.companyId}|${d.ticketId}`;
    const before = this.delegating.get(key) ?? Promise.resolve();
    const run = before
      .then(() => this.delegateNow(d))
      .catch((err: unknown) =>
        this.logger.warn({ ticketId: d.ticketId, err: String(err) }, 'bot: the queue’s agent failed; the ticket stays with its queue'),
      )
      .finally(() => {
        if (this.delegating.get(key) === run) this.delegating.delete(key);
      });
    this.delegating.set(key, run);
  }

  private async delegateNow(d: Delegate): Promise<void> {
    const [now] = await queryPrepared<LockedTicket & { body: string }>(this.db, DELEGATED_TURN, [d.ticketId, d.companyId, d.messageId]);
    if (!now) return;
    // the queue's outside flow when it has one, else its AI prompt; either only while the company is active and
    // its plan has the feature (the one plan check): else the conversation goes to the queue's agents, unasked
    const integration = await this.flows.of(d.companyId, d.queueId);
    const flag = integration ? 'useIntegrations' : 'useOpenAi';
    const refused = await this.standings.refusal(d.companyId, flag);
    const answer = refused
      ? { kind: 'hand-over' as const, reason: refusalText(refused, flag) }
      : integration
        ? await this.flows.answer(
            integration,
            { ...d, body: now.body, contact: { id: now.contactId, name: now.contactName, number: now.contactNumber } },
            now.botState,
          )
        : await this.agent.answer(d.companyId, d.queueId, d.ticketId, d.messageId);
    const texts = answer.kind === 'reply' ? answer.texts : [];
    // after the texts, a flow that ended the interaction hands the conversation over, in a turn of its own
    const turns = answer.kind === 'reply' && answer.handOver ? texts.length + 1 : texts.length;
    // one text per transaction when they go `delayMs` apart; each re-checks that the ticket is still the bot's
    for (let i = 0; i === 0 || i < turns; i++) {
      if (i > 0 && i < texts.length && answer.kind === 'reply' && answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      const outboxIds = await this.db.transaction(async (tx) => {
        const [ticket] = await queryPrepared<LockedTicket>(tx, LOCK_TICKETS, [[d.companyId], [d.ticketId]]);
        const still =
          ticket &&
          ticket.status === 'pending' &&
          ticket.userId === null &&
          ticket.botState?.step === 'delegate' &&
          ticket.botState.lastMessageId === d.messageId;
        if (!still) return null;
        if (answer.kind === 'hand-over' || i === texts.length) {
          this.logger.log(
            { ticketId: d.ticketId, reason: answer.kind === 'hand-over' ? answer.reason : 'the flow ended the interaction' },
            'bot: the conversation goes to the queue’s agents',
          );
          await tx.query(HAND_OVER_TICKET, [d.ticketId, d.companyId, JSON.stringify({ ...ticket.botState, step: 'done' })]);
          const [row] = await this.tickets.findByKeys([{ companyId: d.companyId, id: d.ticketId }], tx);
          return row ? this.outbox.add(tx, [ticketUpdatedEvent(this.view(row))]) : [];
        }
        if (i === 0 && answer.typebot !== undefined) {
          await tx.query(KEEP_TYPEBOT_SESSION, [d.ticketId, d.companyId, JSON.stringify({ ...ticket.botState, typebot: answer.typebot })]);
        }
        const text = texts[i];
        if (text === undefined) return [];
        return (
          await this.sender.sendManyInTransaction(tx, [{ row: ticket as unknown as TicketRow, body: text, bot: true }], {
            connectionsChecked: true,
          })
        ).outboxIds;
      });
      if (outboxIds === null) return;
      await this.outbox.flush(outboxIds);
    }
  }

  /** The bot's turns for these customer messages, inside the transaction; the outbox rows written. */
  async answer(tx: EntityManager, turns: BotTurn[], delegates: Delegate[] = []): Promise<string[]> {
    const keys = [...new Map(turns.map((t) => [`${t.companyId}|${t.ticketId}`, t])).values()];
    // the tickets locked, with the menus of their connections and their companies' settings (one statement)
    const locked = await queryPrepared<LockedTicket & { menu: MenuRow | null }>(tx, LOCK_TICKETS_WITH_MENUS, [
      keys.map((k) => k.companyId),
      keys.map((k) => k.ticketId),
      [...BOT_SETTING_KEYS],
    ]);
    const byTicket = new Map(locked.map((t) => [`${t.companyId}|${t.id}`, t]));
    const live = turns.filter((t) => {
      const ticket = byTicket.get(`${t.companyId}|${t.ticketId}`);
      return ticket && !ticket.isGroup && !(ticket.botState?.lastMessageId !== undefined && ticket.botState.lastMessageId >= t.messageId);
    });
    if (live.length === 0) return [];

    const { menus, settings } = this.menusOf(locked);
    for (const companyId of new Set(locked.map((t) => t.companyId)))
      if (!settings.has(companyId)) settings.set(companyId, await this.settingsOf(tx, companyId));

    const changed = new Map<LockedTicket, { bump: boolean }>();
    const replies: Array<{ ticket: LockedTicket; text: string; mediaPath?: string }> = [];
    const outboxIds: string[] = [];
    const now = new Date();
    for (const turn of live) {
      const ticket = byTicket.get(`${turn.companyId}|${turn.ticketId}`) as LockedTicket;
      if (ticket.botState?.lastMessageId !== undefined && ticket.botState.lastMessageId >= turn.messageId) continue;
      // did an agent speak before this message (here or from the phone), was it the conversation's first
      const agent = ticket.firstAgentMessageId !== null && Number(ticket.firstAgentMessageId) < turn.messageId;
      const earlier = ticket.firstMessageId !== null && Number(ticket.firstMessageId) < turn.messageId;
      const fresh = ticket.botState === null;
      const stop = () => {
        changed.set(ticket, { bump: (changed.get(ticket)?.bump ?? false) || ticket.chatbot });
        ticket.botState = { ...(ticket.botState ?? { attempts: 0 }), step: 'done', lastMessageId: turn.messageId };
        ticket.chatbot = false;
      };
      // taken, answered by an agent, or a conversation going before the bot existed: the bot keeps quiet there
      if (ticket.status !== 'pending' || ticket.userId !== null || agent || (fresh && earlier)) {
        if (ticket.status !== 'closed') stop();
        continue;
      }
      if (fresh && ticket.ratingAsked) {
        const rated = await this.rating(tx, ticket, turn.messageId, turn.body, settings.get(ticket.companyId) as BotSettings);
        if (rated) {
          outboxIds.push(...rated);
          ticket.status = 'closed';
          changed.delete(ticket);
          continue;
        }
      }
      const menu = menus.get(`${ticket.companyId}|${ticket.whatsappId}`);
      if (!menu) continue;
      const outcome = botReply({
        state: ticket.botState,
        body: turn.body,
        now,
        queues: menu.queues,
        options: menu.options,
        connection: { ...menu.bot, greetingMessage: menu.greetingMessage },
        settings: settings.get(ticket.companyId) as BotSettings,
        queueId: ticket.queueId,
      });
      const bump = outcome.queueId !== ticket.queueId || outcome.chatbot !== ticket.chatbot;
      changed.set(ticket, { bump: (changed.get(ticket)?.bump ?? false) || bump });
      ticket.botState = { ...outcome.state, lastMessageId: turn.messageId };
      ticket.queueId = outcome.queueId;
      ticket.chatbot = outcome.chatbot;
      // the file of the queue or option reached goes with the first text, as its caption, or alone
      const texts = outcome.mediaPath && outcome.replies.length === 0 ? [''] : outcome.replies;
      texts.forEach((text, n) => replies.push({ ticket, text, mediaPath: n === 0 ? outcome.mediaPath : undefined }));
      if (outcome.delegate && outcome.queueId !== null)
        delegates.push({ companyId: ticket.companyId, ticketId: ticket.id, queueId: outcome.queueId, messageId: turn.messageId });
    }
    if (changed.size === 0) return outboxIds;

    // the replies: the file of a queue or option read once; a file gone from the storage leaves its text to go alone
    const files = new Map<string, SentMedia>();
    for (const key of new Set(replies.flatMap((r) => (r.mediaPath ? [r.mediaPath] : [])))) {
      const file = await storedMediaOf(this.storage, key);
      if (file) files.set(key, file);
    }
    const items = replies
      .map(({ ticket, text, mediaPath }) => ({
        ticket,
        // what a send reads of its ticket; the announcement reads the ticket again as the send leaves it
        row: ticket as unknown as TicketRow,
        body: fillVariables(text, {
          contactName: ticket.contactName,
          ticketId: ticket.id,
          timeZone: (settings.get(ticket.companyId) as BotSettings).timeZone,
        }),
        media: mediaPath ? files.get(mediaPath) : undefined,
        bot: true,
      }))
      .filter((item) => item.body.trim() || item.media);
    // a ticket answered has its new place written with its reply's last message (one row version); the others here
    const answered = new Set(items.map((i) => i.ticket));
    const rows = [...changed.entries()];
    const alone = rows.filter(([t]) => !answered.has(t));
    if (alone.length > 0) {
      await tx.query(PLACE_TICKETS, [
        alone.map(([t]) => t.id),
        alone.map(([t]) => JSON.stringify(t.botState)),
        alone.map(([t]) => t.chatbot),
        alone.map(([t]) => t.queueId),
        alone.map(([, c]) => c.bump),
      ]);
    }
    // a ticket that moved or stopped without a reply is announced on its own; a reply announces its ticket
    const quiet = alone.filter(([, c]) => c.bump).map(([t]) => ({ companyId: t.companyId, id: t.id }));
    if (quiet.length > 0) {
      const views = await this.tickets.findByKeys(quiet, tx);
      outboxIds.push(
        ...(await this.outbox.add(
          tx,
          views.map((row) => ticketUpdatedEvent(this.view(row))),
        )),
      );
    }
    if (items.length > 0) {
      // the customer has just written through these connections: the replies queue behind it whatever their state
      const botPlaces = new Map([...answered].map((t) => [t.id, { botState: t.botState, chatbot: t.chatbot, queueId: t.queueId }]));
      outboxIds.push(...(await this.sender.sendManyInTransaction(tx, items, { connectionsChecked: true, botPlaces })).outboxIds);
    }
    return outboxIds;
  }

  /** The menus read with the locked tickets (LOCK_TICKETS_WITH_MENUS), by company and connection, and the bot's settings of their companies. */
  private menusOf(locked: ReadonlyArray<{ companyId: number; whatsappId: number; menu: MenuRow | null }>): {
    menus: Map<string, ConnectionMenu>;
    settings: Map<number, BotSettings>;
  } {
    const menus = new Map<string, ConnectionMenu>();
    const settings = new Map<number, BotSettings>();
    for (const { companyId, whatsappId, menu } of locked) {
      if (!menu) continue;
      menus.set(`${companyId}|${whatsappId}`, {
        greetingMessage: menu.greetingMessage ?? '',
        bot: menu.bot ?? {},
        queues: menu.queues,
        options: menu.options.map((o) => ({ ...o, option: Number(o.option) })),
      });
      if (!settings.has(companyId)) settings.set(companyId, this.botSettings(companyId, new Map(Object.entries(menu.settings))));
    }
    return { menus, settings };
  }

  /**
   * The customer's first message after a conversation closed with a rating request: 1 to 3 is the rating of
   * that closed ticket (kept for the dashboard); the company's completion text thanks them and this short
   * conversation closes at once. Anything else passes the request over and the bot greets as usual.
   */
  private async rating(
    tx: EntityManager,
    locked: LockedTicket,
    messageId: number,
    body: string,
    settings: BotSettings,
  ): Promise<string[] | null> {
    const [asked] = await queryPrepared<{ id: number; fresh: boolean }>(tx, LOCK_RATING_ASKED, [
      locked.contactId,
      locked.whatsappId,
      locked.companyId,
      locked.id,
      RATING_WINDOW,
    ]);
    if (!asked) return null;
    // answered or passed over, the request is settled; an answer counts only within the window
    const rating = asked.fresh ? ratingOf(body) : null;
    await tx.query(SETTLE_RATING, [asked.id, locked.companyId, rating]);
    if (rating === null) return null;
    const [connection] = await queryPrepared<{ bot: ConnectionBot }>(tx, CONNECTION_BOT, [locked.whatsappId, locked.companyId]);
    const state: BotState = { step: 'done', attempts: 0, greeted: true, lastMessageId: messageId };
    await tx.query(CLOSE_RATED_TICKET, [locked.id, locked.companyId, JSON.stringify(state)]);
    const row = (await this.tickets.findById(locked.companyId, locked.id, tx)) as TicketRow;
    const thanks = (connection?.bot.complationMessage ?? '').trim();
    if (!thanks) return this.outbox.add(tx, [ticketUpdatedEvent(this.view(row))]);
    const text = fillVariables(thanks, { contactName: row.contactName, ticketId: row.id, timeZone: settings.timeZone });
    return (await this.sender.sendManyInTransaction(tx, [{ row, body: text, bot: true }], { connectionsChecked: true })).outboxIds;
  }

  private async settingsOf(tx: EntityManager, companyId: number): Promise<BotSettings> {
    return this.botSettings(companyId, await this.readModels.settings(companyId, BOT_SETTING_KEYS, tx));
  }

  /** The bot's settings from the company's values of BOT_SETTING_KEYS. */
  private botSettings(companyId: number, values: Map<string, string>): BotSettings {
    const value = (key: string) => values.get(key);
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
