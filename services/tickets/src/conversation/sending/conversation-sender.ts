import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WaSubjects, type MessageDto, type MessageLocation, type WaOutboundSend } from '@wa/contracts';
import { DomainError, type CheckedMedia } from '@wa/server-kit';
import { companyTimeZone, TIME_ZONE_SETTING, whatsappMessageId } from '@wa/domain';
import { DataSource, type EntityManager } from 'typeorm';
import { queryPrepared } from '@wa/database';
import { MessageEntity } from '../../database/entities/index.js';
import { CallerService } from '../../identity/caller.service.js';
import { Outbox, type OutgoingEvent } from '../../outbox/outbox.service.js';
import { ReadModels } from '../../read-models/read-models.repository.js';
import { announceStored } from '../core/announce.js';
import { creationFailed } from '../core/creation-failed.js';
import { quotedMessages } from '../core/quoted-messages.queries.js';
import { messageView, type MessageRead, type TicketRow } from '../core/ticket-view.js';
import { TicketsRepository, type BotPlace } from '../core/tickets.repository.js';
import { fillVariables } from './message-variables.js';
import { storeOutgoing, textAtOnceSql, type OutgoingRow } from './sending.queries.js';

/** A checked file, stored under `key`. */
export type SentMedia = CheckedMedia & { key: string };

/** One message to send: its ticket, its text (variables already filled), a quoted message, a file. */
export interface OutgoingItem {
  row: TicketRow;
  body: string;
  quotedMsgId?: number;
  media?: SentMedia;
  /** its slot in the connection's pace (public API): the session sends it no earlier */
  pace?: { notBefore: number; intervalMs: number };
  /** sent by the bot (stored marked as the bot's), not by an agent */
  bot?: boolean;
  /** sent by the public messages API (stored marked so: GET /api/messages/{id} answers these alone) */
  viaApi?: boolean;
  /** the file (an OGG/Opus audio) goes as a WhatsApp voice note */
  voice?: boolean;
  /** a place sent instead of a text (stored mediaType 'locationMessage', body "lat,long") */
  location?: MessageLocation;
  /** a contact card sent instead of a text (stored mediaType 'vcard', body its vCard) */
  contact?: { name: string; number: string };
}

/**
 * The one engine that puts our messages into a conversation: agents' sends, the bot's replies, schedules,
 * expiry and closing texts, greetings and the public API all store and publish through it. A send is stored
 * with ack 0 and its ticket touched in one statement, and its `wa.outbound.send` and announcements go to the
 * outbox in the caller's transaction; the public API's common call (a text into a ticket just read) takes the
 * one-statement fast path, sendTextAtOnce.
 */
@Injectable()
export class ConversationSender {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tickets: TicketsRepository,
    private readonly readModels: ReadModels,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
  ) {}

  /** An agent's text with its variables filled ({{name}}, {{ms}}…: quick replies carry them). */
  async withVariables(row: TicketRow, text: string, tx?: EntityManager): Promise<string> {
    if (!text.includes('{{')) return text;
    const timeZone = companyTimeZone(await this.readModels.setting(row.companyId, TIME_ZONE_SETTING, tx));
    return fillVariables(text, { contactName: row.contactName, ticketId: row.id, timeZone });
  }

  /** The ticket's connection is up, else ERR_WAPP_NOT_INITIALIZED. */
  async assertConnected(row: TicketRow, tx?: EntityManager): Promise<void> {
    const connection = await this.readModels.connection(row.companyId, row.whatsappId, tx);
    if (!connection || connection.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
  }

  /** The send, inside the caller's transaction (accepting a ticket sends its greeting in the same one). */
  async sendInTransaction(
    tx: EntityManager,
    row: TicketRow,
    body: string,
    quotedMsgId?: number,
    media?: SentMedia,
    extra?: Pick<OutgoingItem, 'voice' | 'location' | 'contact'>,
  ): Promise<{ message: MessageDto; outboxIds: string[] }> {
    const { messages, outboxIds } = await this.sendManyInTransaction(tx, [{ row, body, quotedMsgId, media, ...extra }]);
    return { message: messages[0] as MessageDto, outboxIds };
  }

  /**
   * Sends, inside the caller's transaction, one message per item in the items' order (each connection's
   * sends leave in that order): all stored with ack 0 in one statement, each ticket's last message set (and
   * the tickets read back) in one, the sends and their announcements written to the outbox in one. A batch of
   * scheduled messages due together shares it. Every item's connection must be up (ERR_WAPP_NOT_INITIALIZED),
   * checked here unless the caller has just checked it (`connectionsChecked`). `botPlaces`: the bot's new place
   * in the menu of tickets it answers, written with their last message (one row version). Messages PostgreSQL
   * refuses (their ticket was deleted meanwhile) fail the send with ERR_CREATING_MESSAGE.
   */
  async sendManyInTransaction(
    tx: EntityManager,
    items: readonly OutgoingItem[],
    opts: { connectionsChecked?: boolean; botPlaces?: ReadonlyMap<number, BotPlace> } = {},
  ): Promise<{ messages: MessageDto[]; outboxIds: string[] }> {
    if (items.length === 0) return { messages: [], outboxIds: [] };
    const checked = new Set<string>(opts.connectionsChecked ? items.map(({ row }) => `${row.companyId}|${row.whatsappId}`) : []);
    for (const { row } of items) {
      const key = `${row.companyId}|${row.whatsappId}`;
      if (checked.has(key)) continue;
      await this.assertConnected(row, tx);
      checked.add(key);
    }
    const sentAt = new Date();
    // the messages answered (a message of the same ticket), with their contacts, in one read for the batch
    const found = await quotedMessages(
      tx,
      items.filter((i) => i.quotedMsgId).map(({ row, quotedMsgId }) => ({ companyId: row.companyId, id: quotedMsgId as number })),
    );
    const quotes = items.map(({ row, quotedMsgId }) => {
      const quoted = quotedMsgId ? found.get(`${row.companyId}|${quotedMsgId}`) : undefined;
      return quoted && quoted.message.ticketId === row.id ? quoted : null;
    });
    const fresh = items.map((item, i) => outgoingMessage(item, sentAt, quotes[i]?.message ?? null));
    // each ticket's last message: its last item's text, or its file's name
    const lastOf = new Map<number, string>();
    fresh.forEach((m, i) => lastOf.set(m.ticketId, m.body || items[i]?.media?.fileName || ''));
    // a ticket deleted meanwhile (or a row PostgreSQL will not keep): ERR_CREATING_MESSAGE, nothing stored
    const stored = await storeOutgoing(tx, fresh, lastOf, opts.botPlaces).catch((err: unknown) => {
      throw creationFailed(err, 'ERR_CREATING_MESSAGE');
    });
    const saved: MessageRead[] = stored.saved.map((m, i) => Object.assign(m, { quoted: quotes[i] }));
    const updated = stored.updated;
    const messages = saved.map((m) => messageView(m));
    const sends = saved.map((m, i) => sendEvent(m, items[i] as OutgoingItem, quotes[i]?.message.wid ?? null));
    const events = [...sends, ...announceStored('created', saved, updated, (companyId, id) => this.callers.nameOf(companyId, id))];
    return { messages, outboxIds: await this.outbox.add(tx, events) };
  }

  /**
   * A text alone (no file, no quote) into a ticket read moments ago, in one statement: the message (with the id
   * `messageId`, taken from the sequence then), the ticket's last message and the outbox rows are written
   * together, or nothing is. The ticket's row must be the version read then (`rowVersion`, its xmin): its
   * announcement is that row with the new last message. When the company records webhooks, the statement and the
   * deliveries its events make (the outbox's taps) share one transaction. Answers null, having written nothing,
   * when the ticket changed since: the caller sends through sendManyInTransaction then. One round trip to
   * PostgreSQL instead of five (three more with webhooks).
   */
  async sendTextAtOnce(
    item: OutgoingItem & { rowVersion: string; messageId: string },
  ): Promise<{ message: MessageDto; outboxIds: string[] } | null> {
    const { row, body } = item;
    const at = new Date();
    // the row as the INSERT below writes it, with what the table's defaults would give
    const m = this.db.getRepository(MessageEntity).create({
      ...outgoingMessage({ row, body, bot: item.bot, viaApi: item.viaApi }, at, null),
      id: item.messageId,
      failedReason: null,
      isDeleted: false,
      isEdited: false,
      seq: null,
      createdAt: at,
      updatedAt: at,
    });
    const touched: TicketRow = { ...row, lastMessage: body, updatedAt: at };
    const events = [
      sendEvent(m, item, null),
      ...announceStored('created', [m], [touched], (companyId, id) => this.callers.nameOf(companyId, id)),
    ];
    const sql = textAtOnceSql(this.outbox.insertSql(10));
    const values = [
      row.id,
      row.companyId,
      body,
      at,
      item.rowVersion,
      item.messageId,
      m.wid,
      m.isBot,
      m.viaApi,
      ...this.outbox.insertValues(events),
    ];
    const done = this.outbox.makesDeliveries(events)
      ? await this.db.transaction(async (tx) => {
          const [written] = await queryPrepared<{ outboxIds: string[] }>(tx, sql, values);
          if (written) await this.outbox.recordAlone(events, tx);
          return written;
        })
      : (await this.tickets.keyed<{ outboxIds: string[] }>(sql, values))[0];
    if (!done) return null;
    return { message: messageView(m), outboxIds: done.outboxIds };
  }
}

/** The send of a stored message (`wa.outbound.send…`, paced for the public API) for the connection's session. */
function sendEvent(m: MessageEntity, item: OutgoingItem, quotedWaMessageId: string | null): OutgoingEvent {
  const { row, media, pace, voice, location, contact } = item;
  const send: WaOutboundSend = {
    companyId: row.companyId,
    connectionId: row.whatsappId,
    waMessageId: m.wid,
    to: row.contactNumber,
    body: m.body,
    ticketId: row.id,
    messageId: Number(m.id),
    quotedWaMessageId,
    media: media
      ? {
          key: media.key,
          mimetype: media.mimetype,
          fileName: media.fileName,
          size: media.size,
          mediaType: media.mediaType,
          ...(voice ? { voice: true } : {}),
        }
      : null,
    ...(location ? { location } : {}),
    ...(contact ? { contact } : {}),
    ...(pace ? { pace } : {}),
  };
  const subject = pace ? WaSubjects.outboundPaced(row.whatsappId) : WaSubjects.outbound(row.whatsappId);
  return { subject, msgId: WaSubjects.outboundMsgId(m.wid), payload: send };
}

/** A message we send, as stored (ack 0) before it goes out: the item's ticket, text, file and quote. */
function outgoingMessage(
  { row, body, media, bot, viaApi, voice, location, contact }: OutgoingItem,
  sentAt: Date,
  quoted: MessageEntity | null,
): OutgoingRow {
  // a place or a contact card keeps the text older clients read: "lat,long", the vCard
  if (location) body = `${location.latitude},${location.longitude}`;
  if (contact) body = contactVcard(contact);
  const contents =
    voice && media
      ? { voice: true }
      : location
        ? { location }
        : contact
          ? { contacts: [{ name: contact.name, numbers: [contact.number] }] }
          : null;
  return {
    companyId: row.companyId,
    ticketId: row.id,
    contactId: row.contactId,
    whatsappId: row.whatsappId,
    wid: whatsappMessageId(),
    // a document without a caption shows its name, as WhatsApp does
    body: media && !body && media.mediaType === 'application' ? media.fileName : body,
    fromMe: true,
    mediaType: location ? 'locationMessage' : contact ? 'vcard' : (media?.mediaType ?? 'chat'),
    mediaUrl: media?.key ?? null,
    ack: 0,
    read: true,
    sentAt,
    quotedMsgId: quoted ? Number(quoted.id) : null,
    isBot: bot === true,
    viaApi: viaApi === true,
    contents,
  };
}

/** A contact card as the vCard WhatsApp carries (the number as its WhatsApp id, `waid`, so the card opens a chat). */
export function contactVcard(contact: { name: string; number: string }): string {
  const name = contact.name.replace(/[\r\n;]/g, ' ').trim();
  return ['BEGIN:VCARD', 'VERSION:3.0', `FN:${name}`, `TEL;type=CELL;waid=${contact.number}:+${contact.number}`, 'END:VCARD'].join('\n');
}
