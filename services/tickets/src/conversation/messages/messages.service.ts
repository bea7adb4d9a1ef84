import { Injectable } from '@nestjs/common';
import { specialContent } from '../sending/special-content.js';
import { InjectDataSource } from '@nestjs/typeorm';
import { TicketSubjects, WaSubjects, type MessageDto, type MessagesPage, type TicketUnreadEvent, type WaOutboundSend } from '@wa/contracts';
import { whatsappMessageId } from '@wa/domain';
import {
  DomainError,
  MediaStorage,
  checkMediaFile,
  newMediaKey,
  readUploaded,
  type CheckedMedia,
  type UploadedDiskFile,
} from '@wa/server-kit';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { MessageEntity } from '../../database/entities/index.js';
import { CallerService, type Caller } from '../../identity/caller.service.js';
import { announceStored } from '../core/announce.js';
import { Outbox } from '../../outbox/outbox.service.js';
import { withQuotes } from '../core/quoted-messages.queries.js';
import { decodeCursor, encodeCursor, messageView, ticketView, type MessageRead, type TicketRow } from '../core/ticket-view.js';
import { TicketsRepository } from '../core/tickets.repository.js';
import { assertCanSee } from '../core/visibility.js';
import { MessageChanges } from './message-changes.service.js';
import { ConversationSender, type SentMedia } from '../sending/conversation-sender.js';
import { SET_REACTION_BY_ID, UPDATE_MESSAGES_READ, UPDATE_TICKETS_UNREAD_MESSAGES, messagesPage } from './messages.queries.js';
import { toVoiceNote, type VoiceNote } from '../sending/voice-note.js';

export const MESSAGES_PAGE_SIZE = 20;

/**
 * How long an edit or a deletion of a message sent moments ago waits for it to reach WhatsApp (its first tick,
 * ack 1): the session sends it within a second or so; one not out by then is refused.
 */
export const SEND_WAIT_MS = 12_000;
/** How often the waiting change reads the message's row again. */
const SEND_POLL_MS = 100;
/** How long after its send WhatsApp still takes an edit of a message (15 minutes). */
export const EDIT_WINDOW_MS = 15 * 60_000;
/** How long after its send WhatsApp still deletes a message for everyone (about two and a half days: 60 hours). */
export const DELETE_WINDOW_MS = 60 * 3_600_000;

@Injectable()
export class MessagesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tickets: TicketsRepository,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
    private readonly storage: MediaStorage,
    private readonly changes: MessageChanges,
    private readonly sender: ConversationSender,
  ) {}

  /** The changes (edits, deletions) of each message being changed in this process, chained in the order asked. */
  private readonly changing = new Map<string, Promise<unknown>>();

  /**
   * A page of a ticket's messages, newest page first, oldest first within the page (as the chat shows it).
   * Reading clears the ticket's unread count and says so to the company's sockets (a preview does not).
   */
  async list(caller: Caller, ticketId: number, pageNumber = 1, cursor?: string, preview = false): Promise<MessagesPage> {
    const row = await this.visibleTicket(caller, ticketId);
    const after = decodeCursor(cursor);
    const keyset =
      after && after.length === 3
        ? { sentAt: String(after[0]), seq: after[1] as string | number, id: after[2] as string | number }
        : undefined;
    const { entities, raw } = await messagesPage(
      this.db,
      caller.companyId,
      ticketId,
      keyset,
      (pageNumber - 1) * MESSAGES_PAGE_SIZE,
      MESSAGES_PAGE_SIZE + 1,
    );
    const hasMore = entities.length > MESSAGES_PAGE_SIZE;
    // the messages the page's messages answer, with their contacts: one more read for the page, when any does
    const page = await withQuotes(this.db, entities.slice(0, MESSAGES_PAGE_SIZE));
    const last = page.length - 1;
    const nextCursor =
      hasMore && last >= 0
        ? encodeCursor([(raw[last] as { sortKey: string }).sortKey, page[last].seq ?? '9223372036854775807', page[last].id])
        : null;
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
    const text = await this.sender.withVariables(row, body);
    const { message, outboxIds } = await this.db.transaction(async (tx) => this.sender.sendInTransaction(tx, row, text, quotedMsgId));
    await this.outbox.flush(outboxIds);
    return message;
  }

  /** A place or a contact card instead of a text (the console's "Localização" / "Contato"), sent like a text. */
  async sendSpecial(caller: Caller, ticketId: number, location: unknown, contact: unknown, quotedMsgId?: number): Promise<MessageDto> {
    const extra = specialContent(location, contact, 0);
    const row = await this.visibleTicket(caller, ticketId);
    const { message, outboxIds } = await this.db.transaction(async (tx) =>
      this.sender.sendInTransaction(tx, row, '', quotedMsgId, undefined, extra),
    );
    await this.outbox.flush(outboxIds);
    return message;
  }

  /**
   * Files (with `caption` on the first): each checked by its bytes before any is stored (one refused,
   * none sent), stored, then one message per file in one transaction, sent like a text. Files of a
   * send that failed are removed again.
   */
  async sendMedia(
    caller: Caller,
    ticketId: number,
    files: UploadedDiskFile[],
    caption: string,
    quotedMsgId?: number,
    voice = false,
  ): Promise<MessageDto[]> {
    const row = await this.visibleTicket(caller, ticketId);
    await this.sender.assertConnected(row);
    if (voice && files.length !== 1)
      throw new DomainError(
        'ERR_VALIDATION',
        { details: [{ field: 'medias', messages: ['A voice note is one audio file.'] }] },
        'medias: A voice note is one audio file.',
      );
    const checked: CheckedMedia[] = [];
    for (const f of files) checked.push(await checkMediaFile(f));
    // a voice note: the audio transcoded to OGG/Opus, what WhatsApp plays as one (its file removed at the end)
    let note: VoiceNote | undefined;
    if (voice) {
      note = await toVoiceNote(files[0] as UploadedDiskFile, checked[0] as CheckedMedia);
      files = [note.file];
      checked[0] = note.checked;
    }
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
          const text = i === 0 ? await this.sender.withVariables(row, caption.trim()) : '';
          const sent = await this.sender.sendInTransaction(tx, row, text, i === 0 ? quotedMsgId : undefined, m, { voice });
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
    } finally {
      await note?.discard();
    }
  }

  /**
   * Reacts to a message of a ticket the caller may write to (POST /messages/{id}/react): the reaction goes to
   * WhatsApp through the connection's session (`{ react }`), and is kept on the message (ours replaced; '' takes
   * it away), announced as `message.updated`. A reaction is no message of its own.
   */
  async react(caller: Caller, messageId: number, emoji: string): Promise<MessageDto> {
    const message = Number.isSafeInteger(messageId)
      ? await this.db.getRepository(MessageEntity).findOneBy({ id: String(messageId), companyId: caller.companyId })
      : null;
    if (!message) throw new DomainError('ERR_NO_MESSAGE_FOUND');
    const row = await this.visibleTicket(caller, message.ticketId);
    await this.sender.assertConnected(row);
    const send: WaOutboundSend = {
      companyId: row.companyId,
      connectionId: row.whatsappId,
      waMessageId: whatsappMessageId(),
      to: row.contactNumber,
      body: emoji,
      ticketId: row.id,
      messageId: Number(message.id),
      reaction: { waMessageId: message.wid, fromMe: message.fromMe, emoji },
    };
    const { saved, outboxIds } = await this.db.transaction(async (tx) => {
      await tx.query(SET_REACTION_BY_ID, [row.companyId, message.id, null, emoji, true, '']);
      const [read] = (await withQuotes(tx, [
        (await tx.getRepository(MessageEntity).findOneBy({ id: message.id, companyId: row.companyId })) as MessageEntity,
      ])) as [MessageRead];
      const ticket = (await this.tickets.findById(row.companyId, row.id, tx)) as TicketRow;
      return {
        saved: read,
        outboxIds: await this.outbox.add(tx, [
          { subject: WaSubjects.outbound(row.whatsappId), msgId: WaSubjects.outboundMsgId(send.waMessageId), payload: send },
          ...announceStored('updated', [read], [ticket], (companyId, id) => this.callers.nameOf(companyId, id)),
        ]),
      };
    });
    await this.outbox.flush(outboxIds);
    return messageView(saved);
  }

  /**
   * Edits the text of a message sent from here (POST /messages/edit/{id}): WhatsApp changes it first,
   * through the connection's session (ERR_EDITING_WAPP_MSG when it refuses); then it is stored, marked
   * edited and announced. A message sent moments ago is first waited for (ownMessage).
   */
  async edit(caller: Caller, messageId: number, body: string): Promise<MessageDto> {
    return this.inTurn(caller, messageId, async () => {
      const { message, row } = await this.ownMessage(caller, messageId, 'ERR_EDITING_WAPP_MSG');
      await this.changes.ask(
        row,
        { action: 'edit', to: row.contactNumber, waMessageId: message.wid, fromMe: true, text: body },
        'ERR_EDITING_WAPP_MSG',
      );
      return this.store(row, message, { body, isEdited: true });
    });
  }

  /**
   * Deletes a message sent from here for everyone (DELETE /messages/{id}): WhatsApp revokes it first
   * (ERR_DELETE_WAPP_MSG when it refuses); it stays stored, marked deleted, its text kept for the record.
   */
  async remove(caller: Caller, messageId: number): Promise<MessageDto> {
    return this.inTurn(caller, messageId, async () => {
      const { message, row } = await this.ownMessage(caller, messageId, 'ERR_DELETE_WAPP_MSG');
      if (message.isDeleted) return messageView((await withQuotes(this.db, [message]))[0] as MessageRead);
      await this.changes.ask(
        row,
        { action: 'delete', to: row.contactNumber, waMessageId: message.wid, fromMe: true },
        'ERR_DELETE_WAPP_MSG',
      );
      return this.store(row, message, { isDeleted: true });
    });
  }

  /**
   * The changes of one message go out one after another, in the order they were asked (in this process): two
   * edits made moments after the send both wait for it, and WhatsApp and the stored row end on the last one.
   */
  private inTurn<T>(caller: Caller, messageId: number, change: () => Promise<T>): Promise<T> {
    const key = `${caller.companyId}|${messageId}`;
    const turn = (this.changing.get(key) ?? Promise.resolve()).then(change);
    const done = turn.then(
      () => undefined,
      () => undefined,
    );
    this.changing.set(key, done);
    void done.then(() => {
      if (this.changing.get(key) === done) this.changing.delete(key);
    });
    return turn;
  }

  /**
   * A message of a ticket the caller sees, sent from this connection and on WhatsApp: one sent moments ago (no
   * tick yet, ack 0) is waited for first (sentOut), as the change needs it there. One past the window WhatsApp
   * changes messages in (EDIT_WINDOW_MS, DELETE_WINDOW_MS) is refused with ERR_FETCH_WAPP_MSG (spec 01 §8: too old).
   */
  private async ownMessage(
    caller: Caller,
    messageId: number,
    refused: 'ERR_EDITING_WAPP_MSG' | 'ERR_DELETE_WAPP_MSG',
  ): Promise<{ message: MessageEntity; row: TicketRow }> {
    let message = Number.isSafeInteger(messageId)
      ? await this.db.getRepository(MessageEntity).findOneBy({ id: String(messageId), companyId: caller.companyId })
      : null;
    if (!message) throw new DomainError('ERR_NO_MESSAGE_FOUND');
    const row = await this.visibleTicket(caller, message.ticketId);
    if (!message.fromMe) throw new DomainError(refused, {}, 'Only messages sent from this connection can be changed.');
    if (refused === 'ERR_EDITING_WAPP_MSG' && message.mediaType !== 'chat')
      throw new DomainError(refused, {}, 'Only text messages can be edited.');
    if (message.ack < 1) message = await this.sentOut(message, refused);
    if (refused === 'ERR_EDITING_WAPP_MSG' && message.isDeleted) throw new DomainError(refused, {}, 'A deleted message cannot be edited.');
    // past WhatsApp's window the phone no longer has the message to change (the product's "too old to fetch")
    const window = refused === 'ERR_EDITING_WAPP_MSG' ? EDIT_WINDOW_MS : DELETE_WINDOW_MS;
    if (!message.isDeleted && Date.now() - new Date(message.sentAt).getTime() > window)
      throw new DomainError(
        'ERR_FETCH_WAPP_MSG',
        {},
        refused === 'ERR_EDITING_WAPP_MSG'
          ? 'WhatsApp takes edits of a message for 15 minutes after it was sent.'
          : 'WhatsApp deletes a message for everyone up to 60 hours after it was sent.',
      );
    await this.sender.assertConnected(row);
    return { message, row };
  }

  /**
   * A message still on its way (ack 0), once its send has reached WhatsApp: the session's first tick (ack 1),
   * stored by the ack path, read from its row every SEND_POLL_MS for up to SEND_WAIT_MS. The change then goes
   * out after the send, as WhatsApp needs. A send given up (failedReason) or not out by then is refused, as
   * before: 'The message has not reached WhatsApp yet.'
   */
  private async sentOut(message: MessageEntity, refused: 'ERR_EDITING_WAPP_MSG' | 'ERR_DELETE_WAPP_MSG'): Promise<MessageEntity> {
    const deadline = Date.now() + SEND_WAIT_MS;
    let now: MessageEntity | null = message;
    while (now && now.ack < 1 && !now.failedReason && Date.now() < deadline) {
      await sleep(Math.min(SEND_POLL_MS, Math.max(0, deadline - Date.now())));
      now = await this.db.getRepository(MessageEntity).findOneBy({ id: message.id, companyId: message.companyId });
    }
    if (!now) throw new DomainError('ERR_NO_MESSAGE_FOUND');
    if (now.ack < 1) throw new DomainError(refused, {}, 'The message has not reached WhatsApp yet.');
    return now;
  }

  /** The change stored, announced (`message.updated`, with the message it answers) and answered. */
  private async store(
    row: TicketRow,
    message: MessageEntity,
    change: Partial<Pick<MessageEntity, 'body' | 'isEdited' | 'isDeleted'>>,
  ): Promise<MessageDto> {
    const { saved, outboxIds } = await this.db.transaction(async (tx) => {
      await tx.getRepository(MessageEntity).update({ id: message.id, companyId: row.companyId }, { ...change, updatedAt: new Date() });
      const [read] = (await withQuotes(tx, [
        (await tx.getRepository(MessageEntity).findOneBy({ id: message.id, companyId: row.companyId })) as MessageEntity,
      ])) as [MessageRead];
      const ticket = (await this.tickets.findById(row.companyId, row.id, tx)) as TicketRow;
      return {
        saved: read,
        outboxIds: await this.outbox.add(
          tx,
          announceStored('updated', [read], [ticket], (companyId, id) => this.callers.nameOf(companyId, id)),
        ),
      };
    });
    await this.outbox.flush(outboxIds);
    return messageView(saved);
  }

  private async markRead(caller: Caller, row: TicketRow): Promise<void> {
    const outboxIds = await this.db.transaction(async (tx) => {
      await tx.query(UPDATE_TICKETS_UNREAD_MESSAGES, [row.id, caller.companyId]);
      await tx.query(UPDATE_MESSAGES_READ, [row.id, caller.companyId]);
      const event: TicketUnreadEvent = { companyId: caller.companyId, ticketId: row.id, queueId: row.queueId, userId: row.userId };
      return this.outbox.add(tx, [
        { subject: TicketSubjects.ticketUnread(caller.companyId, row.id), msgId: `ticket-unread:${row.id}:${Date.now()}`, payload: event },
      ]);
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
