import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { TicketSubjects, WaSubjects, type MessageDto, type MessagesPage, type TicketUnreadEvent, type WaOutboundSend } from '@wa/contracts';
import { companyTimeZone, DomainError, MediaStorage, TIME_ZONE_SETTING, checkMediaFile, newMediaKey, readUploaded, whatsappMessageId, type CheckedMedia, type UploadedDiskFile } from '@wa/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { queryPrepared } from '@wa/database';
import { MessageEntity, messageOfRow } from '../database/entities/index.js';
import { CallerService, type Caller } from '../identity/caller.service.js';
import { announceStored } from '../tickets/announce.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';
import { ReadModels } from '../read-models/read-models.repository.js';
import { decodeCursor, encodeCursor, messageView, TICKET_COLUMNS, TICKET_JOINS, ticketView, type TicketRow } from '../tickets/ticket-view.js';
import { TicketsRepository, touchedSql, touchedValues, type BotPlace } from '../tickets/tickets.repository.js';
import { assertCanSee } from '../tickets/visibility.js';
import { MessageChanges } from './message-changes.service.js';
import { fillVariables } from './message-variables.js';

export const MESSAGES_PAGE_SIZE = 20;

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
}

@Injectable()
export class MessagesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tickets: TicketsRepository,
    private readonly readModels: ReadModels,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
    private readonly storage: MediaStorage,
    private readonly changes: MessageChanges,
  ) {}

  /**
   * A page of a ticket's messages, newest page first, oldest first within the page (as the chat shows it).
   * Reading clears the ticket's unread count and says so to the company's sockets (a preview does not).
   */
  async list(caller: Caller, ticketId: number, pageNumber = 1, cursor?: string, preview = false): Promise<MessagesPage> {
    const row = await this.visibleTicket(caller, ticketId);
    const after = decodeCursor(cursor);
    const qb = this.db
      .getRepository(MessageEntity)
      .createQueryBuilder('m')
      .where('m."companyId" = :companyId AND m."ticketId" = :ticketId', { companyId: caller.companyId, ticketId })
      .orderBy('m."sentAt"', 'DESC')
      .addOrderBy('m.seq', 'DESC', 'NULLS FIRST')
      .addOrderBy('m.id', 'DESC')
      .addSelect('m."sentAt"::text', 'sortKey')
      .limit(MESSAGES_PAGE_SIZE + 1);
    if (after && after.length === 3) {
      qb.andWhere(
        `(m."sentAt" < :s::timestamptz OR (m."sentAt" = :s::timestamptz AND (COALESCE(m.seq, 9223372036854775807) < :q OR (COALESCE(m.seq, 9223372036854775807) = :q AND m.id < :i))))`,
        { s: after[0], q: after[1], i: after[2] },
      );
    } else {
      qb.offset((pageNumber - 1) * MESSAGES_PAGE_SIZE);
    }
    const { entities, raw } = await qb.getRawAndEntities();
    const hasMore = entities.length > MESSAGES_PAGE_SIZE;
    const page = entities.slice(0, MESSAGES_PAGE_SIZE);
    const last = page.length - 1;
    const nextCursor =
      hasMore && last >= 0 ? encodeCursor([(raw[last] as { sortKey: string }).sortKey, page[last].seq ?? '9223372036854775807', page[last].id]) : null;
    if (row.unreadMessages > 0 && !preview) await this.markRead(caller, row);
    return {
      messages: page.reverse().map((m) => messageView(m)),
      hasMore,
      nextCursor,
      ticket: ticketView(preview ? row : { ...row, unreadMessages: 0 }, (id) => this.callers.nameOf(caller.companyId, id)),
    };
  }

  /** An agent's text: stored with ack 0, sent by the session that owns the connection, acks raise it. */
  async send(caller: Caller, ticketId: number, body: string, quotedMsgId?: number): Promise<MessageDto> {
    const row = await this.visibleTicket(caller, ticketId);
    const text = await this.withVariables(row, body);
    const { message, outboxIds } = await this.db.transaction(async (tx) => this.sendInTransaction(tx, row, text, quotedMsgId));
    await this.outbox.flush(outboxIds);
    return message;
  }

  /**
   * Files (with `caption` on the first): each checked by its bytes before any is stored (one refused,
   * none sent), stored, then one message per file in one transaction, sent like a text. Files of a
   * send that failed are removed again.
   */
  async sendMedia(caller: Caller, ticketId: number, files: UploadedDiskFile[], caption: string, quotedMsgId?: number): Promise<MessageDto[]> {
    const row = await this.visibleTicket(caller, ticketId);
    await this.connectedConnection(row);
    const checked: CheckedMedia[] = [];
    for (const f of files) checked.push(await checkMediaFile(f));
    const keys: string[] = [];
    try {
      const media: SentMedia[] = [];
      for (const [i, c] of checked.entries()) {
        const key = newMediaKey(caller.companyId, c.fileName);
        keys.push(key);
        await this.storage.put(key, readUploaded(files[i]));
        media.push({ ...c, key });
      }
      const { messages, outboxIds } = await this.db.transaction(async (tx) => {
        const out: MessageDto[] = [];
        const ids: string[] = [];
        for (const [i, m] of media.entries()) {
          const text = i === 0 ? await this.withVariables(row, caption.trim()) : '';
          const sent = await this.sendInTransaction(tx, row, text, i === 0 ? quotedMsgId : undefined, m);
          out.push(sent.message);
          ids.push(...sent.outboxIds);
        }
        return { messages: out, outboxIds: ids };
      });
      await this.outbox.flush(outboxIds);
      return messages;
    } catch (err) {
      await Promise.all(keys.map((k) => this.storage.delete(k).catch(() => undefined)));
      throw err;
    }
  }

  /**
   * Edits the text of a message sent from here (POST /messages/edit/{id}): WhatsApp changes it first,
   * through the connection's session (ERR_EDITING_WAPP_MSG when it refuses); then it is stored, marked
   * edited and announced.
   */
  async edit(caller: Caller, messageId: number, body: string): Promise<MessageDto> {
    const { message, row } = await this.ownMessage(caller, messageId, 'ERR_EDITING_WAPP_MSG');
    await this.changes.ask(row, { action: 'edit', to: row.contactNumber, waMessageId: message.wid, fromMe: true, text: body }, 'ERR_EDITING_WAPP_MSG');
    return this.store(row, message, { body, isEdited: true });
  }

  /**
   * Deletes a message sent from here for everyone (DELETE /messages/{id}): WhatsApp revokes it first
   * (ERR_DELETE_WAPP_MSG when it refuses); it stays stored, marked deleted, its text kept for the record.
   */
  async remove(caller: Caller, messageId: number): Promise<MessageDto> {
    const { message, row } = await this.ownMessage(caller, messageId, 'ERR_DELETE_WAPP_MSG');
    if (message.isDeleted) return messageView(message);
    await this.changes.ask(row, { action: 'delete', to: row.contactNumber, waMessageId: message.wid, fromMe: true }, 'ERR_DELETE_WAPP_MSG');
    return this.store(row, message, { isDeleted: true });
  }

  /** A message of a ticket the caller sees, sent from this connection and already on WhatsApp. */
  private async ownMessage(caller: Caller, messageId: number, refused: 'ERR_EDITING_WAPP_MSG' | 'ERR_DELETE_WAPP_MSG'): Promise<{ message: MessageEntity; row: TicketRow }> {
    const message = Number.isSafeInteger(messageId) ? await this.db.getRepository(MessageEntity).findOneBy({ id: String(messageId), companyId: caller.companyId }) : null;
    if (!message) throw new DomainError('ERR_NO_MESSAGE_FOUND');
    const row = await this.visibleTicket(caller, message.ticketId);
    if (!message.fromMe) throw new DomainError(refused, {}, 'Only messages sent from this connection can be changed.');
    if (refused === 'ERR_EDITING_WAPP_MSG' && message.isDeleted) throw new DomainError(refused, {}, 'A deleted message cannot be edited.');
    if (refused === 'ERR_EDITING_WAPP_MSG' && message.mediaType !== 'chat') throw new DomainError(refused, {}, 'Only text messages can be edited.');
    if (message.ack < 1) throw new DomainError(refused, {}, 'The message has not reached WhatsApp yet.');
    await this.connectedConnection(row);
    return { message, row };
  }

  private async store(row: TicketRow, message: MessageEntity, change: Partial<Pick<MessageEntity, 'body' | 'isEdited' | 'isDeleted'>>): Promise<MessageDto> {
    const outboxIds = await this.db.transaction(async (tx) => {
      await tx.getRepository(MessageEntity).update({ id: message.id, companyId: row.companyId }, { ...change, updatedAt: new Date() });
      const saved = (await tx.getRepository(MessageEntity).findOneBy({ id: message.id })) as MessageEntity;
      const ticket = (await this.tickets.findById(row.companyId, row.id, tx)) as TicketRow;
      return this.outbox.add(tx, announceStored('updated', [saved], [ticket], (companyId, id) => this.callers.nameOf(companyId, id)));
    });
    await this.outbox.flush(outboxIds);
    return messageView((await this.db.getRepository(MessageEntity).findOneBy({ id: message.id })) as MessageEntity);
  }

  /** An agent's text with its variables filled ({{name}}, {{ms}}…: quick replies carry them). */
  async withVariables(row: TicketRow, text: string, tx?: EntityManager): Promise<string> {
    if (!text.includes('{{')) return text;
    const timeZone = companyTimeZone(await this.readModels.setting(row.companyId, TIME_ZONE_SETTING, tx));
    return fillVariables(text, { contactName: row.contactName, ticketId: row.id, timeZone });
  }

  private async connectedConnection(row: TicketRow, tx?: EntityManager): Promise<void> {
    const connection = await this.readModels.connection(row.companyId, row.whatsappId, tx);
    if (!connection || connection.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
  }

  /** The send, inside the caller's transaction (accepting a ticket sends its greeting in the same one). */
  async sendInTransaction(tx: EntityManager, row: TicketRow, body: string, quotedMsgId?: number, media?: SentMedia): Promise<{ message: MessageDto; outboxIds: string[] }> {
    const { messages, outboxIds } = await this.sendManyInTransaction(tx, [{ row, body, quotedMsgId, media }]);
    return { message: messages[0] as MessageDto, outboxIds };
  }

  /**
   * Sends, inside the caller's transaction, one message per item in the items' order (each connection's
   * sends leave in that order): all stored with ack 0 in one statement, each ticket's last message set (and
   * the tickets read back) in one, the sends and their announcements written to the outbox in one. A batch of
   * scheduled messages due together shares it. Every item's connection must be up (ERR_WAPP_NOT_INITIALIZED),
   * checked here unless the caller has just checked it (`connectionsChecked`). `botPlaces`: the bot's new place
   * in the menu of tickets it answers, written with their last message (one row version).
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
      await this.connectedConnection(row, tx);
      checked.add(key);
    }
    const repo = tx.getRepository(MessageEntity);
    const sentAt = new Date();
    const fresh: OutgoingRow[] = [];
    const quotes: Array<MessageEntity | null> = [];
    for (const item of items) {
      const { row, quotedMsgId } = item;
      const quoted = quotedMsgId ? await repo.findOneBy({ id: String(quotedMsgId), ticketId: row.id, companyId: row.companyId }) : null;
      quotes.push(quoted);
      fresh.push(outgoingMessage(item, sentAt, quoted));
    }
    // each ticket's last message: its last item's text, or its file's name
    const lastOf = new Map<number, string>();
    fresh.forEach((m, i) => lastOf.set(m.ticketId, m.body || items[i]?.media?.fileName || ''));
    const { saved, updated } = await storeOutgoing(tx, fresh, lastOf, opts.botPlaces);
    const messages = saved.map((m) => messageView(m));
    const sends = saved.map((m, i) => sendEvent(m, items[i] as OutgoingItem, quotes[i]?.wid ?? null));
    const events = [...sends, ...announceStored('created', saved, updated, (companyId, id) => this.callers.nameOf(companyId, id))];
    return { messages, outboxIds: await this.outbox.add(tx, events) };
  }

  /**
   * A text alone (no file, no quote) into a ticket read moments ago, in one statement and no transaction of
   * its own: the message (with the id `messageId`, taken from the sequence then), the ticket's last message
   * and the outbox rows are written together, or nothing is. The ticket's row must be the version read then
   * (`rowVersion`, its xmin): its announcement is that row with the new last message. Answers null, having
   * written nothing, when the ticket changed since or the company records webhooks: the caller sends through
   * sendManyInTransaction then. One round trip to PostgreSQL instead of five.
   */
  async sendTextAtOnce(item: OutgoingItem & { rowVersion: string; messageId: string }): Promise<{ message: MessageDto; outboxIds: string[] } | null> {
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
    const events = [sendEvent(m, item, null), ...announceStored('created', [m], [touched], (companyId, id) => this.callers.nameOf(companyId, id))];
    if (this.outbox.makesDeliveries(events)) return null;
    const [done] = await this.tickets.keyed<{ outboxIds: string[] }>(
      `WITH t AS (
         UPDATE tickets.tickets x SET "lastMessage" = $3, "updatedAt" = $4
          WHERE x.id = $1 AND x."companyId" = $2 AND x.xmin::text = $5
         RETURNING x.id, x."contactId", x."whatsappId"),
       m AS (
         INSERT INTO tickets.messages (id, "companyId", "ticketId", "contactId", "whatsappId", wid, body, "fromMe", "mediaType", ack, read, "isBot", "viaApi", "sentAt", "createdAt", "updatedAt")
         SELECT $6, $2, t.id, t."contactId", t."whatsappId", $7, $3, true, 'chat', 0, true, $8, $9, $4, $4, $4 FROM t
         RETURNING id),
       o AS (${this.outbox.insertSql(10)} WHERE EXISTS (SELECT 1 FROM m) RETURNING id)
       SELECT ARRAY(SELECT id::text FROM o ORDER BY id) AS "outboxIds" FROM m`,
      [row.id, row.companyId, body, at, item.rowVersion, item.messageId, m.wid, m.isBot, m.viaApi, ...this.outbox.insertValues(events)],
    );
    if (!done) return null;
    return { message: messageView(m), outboxIds: done.outboxIds };
  }

  private async markRead(caller: Caller, row: TicketRow): Promise<void> {
    const outboxIds = await this.db.transaction(async (tx) => {
      await tx.query(`UPDATE tickets.tickets SET "unreadMessages" = 0 WHERE id = $1 AND "companyId" = $2`, [row.id, caller.companyId]);
      await tx.query(`UPDATE tickets.messages SET read = true WHERE "ticketId" = $1 AND read = false`, [row.id]);
      const event: TicketUnreadEvent = { companyId: caller.companyId, ticketId: row.id, queueId: row.queueId, userId: row.userId };
      return this.outbox.add(tx, [{ subject: TicketSubjects.ticketUnread(caller.companyId, row.id), msgId: `ticket-unread:${row.id}:${Date.now()}`, payload: event }]);
    });
    await this.outbox.flush(outboxIds);
  }

  private async visibleTicket(caller: Caller, ticketId: number): Promise<TicketRow> {
    const row = await this.tickets.findById(caller.companyId, ticketId);
    if (!row) throw new DomainError('ERR_NO_TICKET_FOUND');
    assertCanSee(caller, row);
    return row;
  }
}

/** The send of a stored message (`wa.outbound.send…`, paced for the public API) for the connection's session. */
function sendEvent(m: MessageEntity, item: OutgoingItem, quotedWaMessageId: string | null): OutgoingEvent {
  const { row, media, pace } = item;
  const send: WaOutboundSend = {
    companyId: row.companyId,
    connectionId: row.whatsappId,
    waMessageId: m.wid,
    to: row.contactNumber,
    body: m.body,
    ticketId: row.id,
    messageId: Number(m.id),
    quotedWaMessageId,
    media: media ? { key: media.key, mimetype: media.mimetype, fileName: media.fileName, size: media.size, mediaType: media.mediaType } : null,
    ...(pace ? { pace } : {}),
  };
  const subject = pace ? WaSubjects.outboundPaced(row.whatsappId) : WaSubjects.outbound(row.whatsappId);
  return { subject, msgId: WaSubjects.outboundMsgId(m.wid), payload: send };
}

/** What an outgoing message is stored with; the rest are the table's defaults. */
type OutgoingRow = Pick<
  MessageEntity,
  'companyId' | 'ticketId' | 'contactId' | 'whatsappId' | 'wid' | 'body' | 'fromMe' | 'mediaType' | 'mediaUrl' | 'ack' | 'read' | 'sentAt' | 'quotedMsgId' | 'isBot' | 'viaApi'
>;

/**
 * Outgoing messages stored, ids taken in the given order, and their tickets touched (touchedSql: the last message,
 * the bot's place), in one statement whose text never changes (its plan is kept, whatever their number). Answers
 * the stored rows in the given order, and the touched tickets as they now are (as JSON, on the first row: one
 * statement answers one shape of row).
 */
async function storeOutgoing(
  tx: EntityManager,
  rows: readonly OutgoingRow[],
  lastOf: ReadonlyMap<number, string>,
  botPlaces: ReadonlyMap<number, BotPlace> | undefined,
): Promise<{ saved: MessageEntity[]; updated: TicketRow[] }> {
  const col = <T>(f: (r: OutgoingRow) => T) => rows.map(f);
  const stored = await queryPrepared<Parameters<typeof messageOfRow>[0] & { touchedTickets: TicketRow[] | null }>(
    tx,
    `WITH ins AS (
       INSERT INTO tickets.messages ("companyId", "ticketId", "contactId", "whatsappId", wid, body, "fromMe", "mediaType", "mediaUrl", ack, read, "sentAt", "quotedMsgId", "isBot", "viaApi")
       SELECT company, ticket, contact, whatsapp, wid, body, "fromMe", "mediaType", "mediaUrl", ack, read, "sentAt", quoted, bot, api
         FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::varchar[], $6::text[], $7::bool[], $8::varchar[], $9::text[], $10::smallint[], $11::bool[],
                     $12::timestamptz[], $13::bigint[], $14::bool[], $15::bool[])
              WITH ORDINALITY AS u(company, ticket, contact, whatsapp, wid, body, "fromMe", "mediaType", "mediaUrl", ack, read, "sentAt", quoted, bot, api, ord)
        ORDER BY ord
       RETURNING *),
     ${touchedSql(16)},
     views AS (SELECT json_agg(v) AS tickets FROM (SELECT ${TICKET_COLUMNS} FROM touched t ${TICKET_JOINS}) v)
     SELECT ins.*, views.tickets AS "touchedTickets" FROM ins LEFT JOIN views ON ins.id = (SELECT min(id) FROM ins)`,
    [
      col((r) => r.companyId),
      col((r) => r.ticketId),
      col((r) => r.contactId),
      col((r) => r.whatsappId),
      col((r) => r.wid),
      col((r) => r.body),
      col((r) => r.fromMe),
      col((r) => r.mediaType),
      col((r) => r.mediaUrl),
      col((r) => r.ack),
      col((r) => r.read),
      col((r) => r.sentAt),
      col((r) => r.quotedMsgId),
      col((r) => r.isBot),
      col((r) => r.viaApi),
      ...touchedValues(lastOf, botPlaces),
    ],
  );
  // JSON gives the timestamps as text: the rows as a read of the tickets gives them
  const updated = (stored.find((r) => r.touchedTickets)?.touchedTickets ?? []).map((t) => ({ ...t, createdAt: new Date(t.createdAt), updatedAt: new Date(t.updatedAt) }));
  // each row back to its item by its WhatsApp id (new and unique for each)
  const byWid = new Map(stored.map(({ touchedTickets: _, ...r }) => [r.wid, messageOfRow(r)]));
  return { saved: rows.map((r) => byWid.get(r.wid) as MessageEntity), updated };
}

/** A message we send, as stored (ack 0) before it goes out: the item's ticket, text, file and quote. */
function outgoingMessage({ row, body, media, bot, viaApi }: Pick<OutgoingItem, 'row' | 'body' | 'media' | 'bot' | 'viaApi'>, sentAt: Date, quoted: MessageEntity | null): OutgoingRow {
  return {
    companyId: row.companyId,
    ticketId: row.id,
    contactId: row.contactId,
    whatsappId: row.whatsappId,
    wid: whatsappMessageId(),
    // a document without a caption shows its name, as WhatsApp does
    body: media && !body && media.mediaType === 'application' ? media.fileName : body,
    fromMe: true,
    mediaType: media?.mediaType ?? 'chat',
    mediaUrl: media?.key ?? null,
    ack: 0,
    read: true,
    sentAt,
    quotedMsgId: quoted ? Number(quoted.id) : null,
    isBot: bot === true,
    viaApi: viaApi === true,
  };
}
