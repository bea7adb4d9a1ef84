import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  inboundLaneKey,
  inboundMessagesOf,
  Streams,
  WaSubjects,
  type MessageEvent,
  type WaInboundBatch,
  type WaInboundMessage,
} from '@wa/contracts';
import { EventBus, isTransientError, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { DataSource } from 'typeorm';
import { AutomationFacade, BOT_DONE } from '../../automation/automation.facade.js';
import { CampaignReplies } from '../../campaigns/campaign-replies.js';
import { TicketsEnv } from '../../config/env.js';
import { ConnectionEntity, ContactEntity, MessageEntity, messageOfRow } from '../../database/entities/index.js';
import { contactUpdated, contactView } from '../../conversation/contacts/contacts.service.js';
import { Outbox, type OutgoingEvent } from '../../outbox/outbox.service.js';
import type { TicketRow } from '../../conversation/core/ticket-view.js';
import { CallerService } from '../../identity/caller.service.js';
import { announceStored } from '../../conversation/core/announce.js';
import { publishBatched } from '../../conversation/core/ticket-events.js';
import { withQuotes } from '../../conversation/core/quoted-messages.queries.js';
import { TicketsRepository } from '../../conversation/core/tickets.repository.js';
import { ContactLids } from '../contact-lids.js';
import { ContactPictures } from '../../conversation/contacts/pictures/contact-pictures.js';
import { GroupMessages } from '../group-messages.js';
import { InboundHistory } from '../history.js';
import { InboundResends } from '../resends.js';
import { InboundReactions } from '../store-inbound-reactions.js';
import { storeInbound } from '../store-inbound.js';
import {
  SELECT_CONNECTIONS_BY_ID,
  SELECT_CONTACTS_BY_ID,
  SELECT_DELETED_COMPANIES_BY_ID,
  SELECT_MESSAGES_BY_ID,
} from './wa-inbound.queries.js';

/**
 * `wa.inbound.*` → PostgreSQL, the path that must lose nothing and double nothing: a batch is stored
 * in one transaction, then announced (its messages in one `message.batch` per company), then given to the bot
 * (after the commit: the store never waits for it); acked only after all three. A redelivered or retried
 * message finds its row and is announced and given to the bot again (the event's msg id and the bot's own
 * record of what it answered make that harmless).
 */
@Injectable()
export class WaInboundConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WaInboundConsumer.name);
  private handle: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly env: TicketsEnv,
    private readonly tickets: TicketsRepository,
    private readonly callers: CallerService,
    private readonly outbox: Outbox,
    private readonly automation: AutomationFacade,
    private readonly campaignReplies: CampaignReplies,
    private readonly groups: GroupMessages,
    private readonly resends: InboundResends,
    private readonly lids: ContactLids,
    private readonly pictures: ContactPictures,
    private readonly history: InboundHistory,
    private readonly reactions: InboundReactions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<WaInboundMessage | WaInboundBatch>({
      stream: Streams.WA.name,
      durable: 'tickets-inbound',
      filterSubjects: [WaSubjects.allInbound],
      // a connection's messages in the order it published them, alone or in batches (a batch holds many conversations)
      orderKey: inboundLaneKey,
      concurrency: this.env.INBOUND_CONCURRENCY,
      batchSize: this.env.INBOUND_BATCH_SIZE,
      ackWaitMs: this.env.INBOUND_ACK_WAIT_MS,
      handler: (batch) => this.handle_(batch),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  /**
   * The stored rows, as the entity has them (bigint columns as numbers where the entity says so), each with the
   * message it answers (a customer's reply: one more read for the batch, only when one answers a message).
   */
  private async messagesById(ids: number[]): Promise<MessageEntity[]> {
    const rows = await this.tickets.keyed<Parameters<typeof messageOfRow>[0]>(SELECT_MESSAGES_BY_ID, [ids]);
    return withQuotes(this.db, rows.map(messageOfRow));
  }

  /**
   * A customer writing for the first time made their contact in this batch: the contacts pages hear of it
   * (`contact.updated`). A ticket made in the same call as its message (one transaction: equal timestamps)
   * is a first message from that contact or the first after a closed conversation; only then are the
   * contacts read, so a busy conversation costs nothing more.
   */
  private async newContacts(messages: MessageEntity[], tickets: TicketRow[]): Promise<OutgoingEvent[]> {
    const byId = new Map(tickets.map((t) => [t.id, t]));
    const contactIds = new Set<number>();
    /** the connection each contact wrote on (its profile picture is asked through that connection's session) */
    const connectionOf = new Map<number, number>();
    for (const m of messages) {
      const ticket = byId.get(m.ticketId);
      if (ticket && !m.fromMe && new Date(ticket.createdAt).getTime() === new Date(m.createdAt).getTime()) {
        contactIds.add(ticket.contactId);
        connectionOf.set(ticket.contactId, ticket.whatsappId);
      }
    }
    if (contactIds.size === 0) return [];
    // the rows as the entity has them (every column is one of its fields), without the ORM's cost per row
    const contacts = await this.tickets.keyed<ContactEntity>(SELECT_CONTACTS_BY_ID, [[...contactIds]]);
    // their profile pictures are fetched in the background, gathered into jobs, not waited for (one asked within a day is skipped)
    this.pictures.fetchSoon(
      contacts.flatMap((c) => {
        const connectionId = connectionOf.get(c.id);
        return connectionId ? [{ contactId: c.id, companyId: c.companyId, connectionId }] : [];
      }),
    );
    return contacts.map((c) => contactUpdated(contactView(c)));
  }

  /**
   * A delivery's messages, a batch's one by one (each with its batch's place in the stream: messages of the same
   * instant are ordered by their seq, then by their ids, which the store takes in the order given), stored
   * INBOUND_BATCH_SIZE at a time in their order. A failure fails the delivery: its retry finds the first ones stored.
   */
  private async handle_(events: BusMessage<WaInboundMessage | WaInboundBatch>[]): Promise<void> {
    const messages: BusMessage<WaInboundMessage>[] = events.flatMap((m) => inboundMessagesOf(m.data).map((data) => ({ ...m, data })));
    for (let i = 0; i < messages.length; i += this.env.INBOUND_BATCH_SIZE) {
      await this.store(messages.slice(i, i + this.env.INBOUND_BATCH_SIZE));
    }
  }

  private async store(batch: BusMessage<WaInboundMessage>[]): Promise<void> {
    const connectionIds = [...new Set(batch.map((m) => m.data.connectionId))];
    const connections = new Map(
      (await this.tickets.keyed<Pick<ConnectionEntity, 'id' | 'queueIds'>>(SELECT_CONNECTIONS_BY_ID, [connectionIds])).map(
        (c) => [c.id, c] as const,
      ),
    );
    // a connection this service does not know: a new one whose event is late, or one of a deleted company (its
    // messages still on their way are dropped; only this rare case asks)
    const unknownCompanies = [...new Set(batch.filter((m) => !connections.has(m.data.connectionId)).map((m) => m.data.companyId))];
    const gone = unknownCompanies.length
      ? new Set(((await this.db.query(SELECT_DELETED_COMPANIES_BY_ID, [unknownCompanies])) as Array<{ id: number }>).map((r) => r.id))
      : null;
    if (gone?.size) {
      this.logger.warn(
        { companies: [...gone], dropped: batch.filter((m) => gone.has(m.data.companyId)).length },
        'messages of deleted companies dropped',
      );
      batch = batch.filter((m) => !gone.has(m.data.companyId));
      if (batch.length === 0) return;
    }
    // group messages of companies that ignore them (CheckMsgIsGroup): acked with the batch, nothing stored
    batch = await this.groups.withoutIgnored(batch);
    if (batch.length === 0) return;
    // reactions are no messages: kept on the messages they react to (store-inbound-reactions.ts)
    batch = await this.reactions.apart(batch);
    if (batch.length === 0) return;
    // the phone's resends of messages stored waiting (undecryptable) replace them after the store (resends.ts)
    const { rest, resends } = await this.resends.split(batch);
    batch = rest;
    // a bare LID whose contact is known (WhatsApp told its number) is that contact's message
    batch = await this.lids.resolve(batch);
    // history sync's messages go only into their conversations' open tickets, before a live message may open one (history.ts)
    batch = await this.history.storeApart(batch);
    let stored = await storeInbound(
      this.db,
      batch.map((m) => ({ data: m.data, seq: m.streamSeq })),
      connections,
      (sql, values) => this.tickets.keyed(sql, values),
    );
    // a LID's merge under way while its bare-LID messages were stored is finished now: they may have changed ticket
    const merged = await this.lids.settle(batch);
    if (merged.size > 0) stored = stored.map((s) => ({ ...s, ticketId: merged.get(s.ticketId) ?? s.ticketId }));
    // a resent message's text reaches the bot now (its waiting message said nothing to it)
    await this.botTurn(await this.resends.afterStore(stored, batch, resends));
    // announce what is new, and what a repeat found already stored: a redelivery (after a crash) or a retry
    // in this process (an earlier call of this delivery may have committed, then failed to publish)
    const repeated = batch.some((m) => m.deliveryCount > 1 || m.attempt > 1);
    const announce = stored.filter((s) => s.isNew || repeated);
    if (announce.length === 0) return;
    const [messageRows, ticketRows] = await Promise.all([
      this.messagesById(announce.map((s) => s.id)),
      // with what the bot's turn below asks of them first (one read less in every batch)
      this.tickets.findByKeys<{ botDone: boolean }>(
        announce.map((s) => ({ companyId: s.companyId, id: s.ticketId })),
        undefined,
        `${BOT_DONE} AS "botDone"`,
      ),
    ]);
    // a contact answering a campaign: the new ticket shows the campaign message first (only batches that opened one ask)
    const campaignMessages = await this.campaignReplies.take(messageRows, ticketRows);
    const events = announceStored('created', [...campaignMessages, ...messageRows], ticketRows, (companyId, id) =>
      this.callers.nameOf(companyId, id),
    );
    events.push(...(await this.newContacts(messageRows, ticketRows)));
    // the company's webhook hears of them before anyone else does (a crash before this is a redelivery)
    await this.outbox.recordAlone(events);
    // onto the bus the batch's messages go as one `message.batch` per company (one stream message, one delivery)
    await publishBatched(this.bus, events);
    if (repeated) this.logger.log({ count: announce.length }, 'inbound: repeated messages announced again');
    // the bot's turn, in this lane (each conversation in order), once its messages are announced (the
    // customer's message reaches the screens before the bot's reply). An outage fails the delivery and the
    // turn is made at its retry; a fault of the bot's own leaves the messages stored and the bot quiet there.
    const created = events.filter((e) => e.subject.startsWith('message.created.')).map((e) => e.payload as MessageEvent);
    const done = new Set(ticketRows.filter((t) => t.botDone).map((t) => t.id));
    await this.botTurn(created, done);
  }

  /** The bot's turn on stored messages: an outage fails the delivery (retried); a fault of its own is logged. */
  private async botTurn(messages: MessageEvent[], done?: ReadonlySet<number>): Promise<void> {
    if (messages.length === 0) return;
    await this.automation.answerStored(messages, done).catch((err: unknown) => {
      if (isTransientError(err)) throw err;
      this.logger.error(
        { err: String(err), messages: messages.length },
        'inbound: the bot failed on stored messages; they wait for an agent',
      );
    });
  }
}
