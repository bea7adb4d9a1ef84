import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ApiIdentity } from '@wa/auth';
import type { ApiMessageState, ApiMessageStatus, MessageDto } from '@wa/contracts';
import {
  checkMediaFile,
  DomainError,
  MediaStorage,
  newMediaKey,
  readUploaded,
  type CheckedMedia,
  type UploadedDiskFile,
  invalidField,
} from '@wa/server-kit';
import { toVoiceNote, type VoiceNote } from '../conversation/sending/voice-note.js';
import { specialContent } from '../conversation/sending/special-content.js';
import { DataSource, type EntityManager } from 'typeorm';
import { ContactEntity, TicketEntity, messageOfRow } from '../database/entities/index.js';
import { contactNumber, contactUpdated, contactView } from '../conversation/contacts/contacts.service.js';
import { ConversationSender, type OutgoingItem, type SentMedia } from '../conversation/sending/conversation-sender.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';
import { creationFailed } from '../conversation/core/creation-failed.js';
import { messageView, type TicketRow } from '../conversation/core/ticket-view.js';
import { TicketsRepository } from '../conversation/core/tickets.repository.js';
import {
  CLAIM_API_REQUEST,
  DELETE_EXPIRED_API_REQUEST,
  INSERT_CONTACT_OF_NUMBER,
  LOCK_CONTACT_TICKET,
  LOOK_UP,
  SELECT_API_MESSAGE,
  SELECT_API_REQUEST_RESPONSE,
  UPDATE_API_REQUESTS_RESPONSE,
} from './api-messages.queries.js';

/** A closed ticket of the contact on the connection touched this recently takes an API send (as the product does). */
const TICKET_REUSED_FOR = '2 hours';

/** What a message's ack means to an integrator. */
export function stateOf(ack: number, failedReason?: string | null): ApiMessageState {
  if (ack === 0 && failedReason) return 'failed';
  if (ack >= 4) return 'read';
  if (ack >= 3) return 'delivered';
  if (ack >= 1) return 'sent';
  return 'queued';
}

const statusOf = (m: MessageDto, number: string): ApiMessageStatus => ({
  id: m.id,
  ticketId: m.ticketId,
  number,
  body: m.body,
  mediaType: m.mediaType,
  state: stateOf(m.ack, m.failedReason),
  ack: m.ack,
  reason: m.ack === 0 ? (m.failedReason ?? null) : null,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

/**
 * The public messages API (`/api/messages`), for a connection the gateway admitted: a send goes into the
 * contact's ticket on that connection and out through the same outbox and provider as an agent's reply. The
 * answer comes once the message is stored and its send queued (one transaction), never before.
 */
@Injectable()
export class ApiMessagesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sender: ConversationSender,
    private readonly tickets: TicketsRepository,
    private readonly outbox: Outbox,
    private readonly storage: MediaStorage,
  ) {}

  /** Sends `body` (and the files, the first captioned with it) to `number`; answers the (first) message. */
  async send(
    api: ApiIdentity,
    typedNumber: string,
    body: string,
    files: UploadedDiskFile[],
    idempotencyKey?: string,
    kind: { voice?: boolean; location?: unknown; contact?: unknown } = {},
  ): Promise<ApiMessageStatus> {
    const number = contactNumber(typedNumber);
    const text = body.trim();
    const { location, contact } = specialContent(kind.location, kind.contact, files.length);
    if (kind.voice && files.length !== 1) throw invalidField('medias', 'A voice note is one audio file.');
    if (!text && files.length === 0 && !location && !contact) {
      throw new DomainError(
        'ERR_VALIDATION',
        { details: [{ field: 'body', messages: ['Obrigatório'] }] },
        'A body (or a file in medias) is required.',
      );
    }
    // a call costs as few round trips to PostgreSQL as it can (each one may wait for a busy core): the
    // connection, the contact and its ticket to reuse are read in one
    const found = await this.lookUp(api, number);
    if (!found) throw new DomainError('ERR_NO_WAPP_FOUND');
    if (found.connectionStatus !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    if (found.ticket && files.length === 0 && !idempotencyKey && !location && !contact) {
      // the common call, a text into a ticket that exists: one statement (see sendTextAtOnce)
      const sent = await this.sender.sendTextAtOnce({
        row: found.ticket,
        rowVersion: found.rowVersion,
        messageId: found.nextMessageId,
        body: text,
        pace: api.pace,
        viaApi: true,
      });
      if (sent) {
        await this.outbox.flush(sent.outboxIds);
        return statusOf(sent.message, number);
      }
    }
    const checked = [];
    for (const f of files) checked.push(await checkMediaFile(f));
    // a voice note: the audio transcoded to OGG/Opus (its file removed at the end)
    let note: VoiceNote | undefined;
    if (kind.voice) {
      note = await toVoiceNote(files[0] as UploadedDiskFile, checked[0] as CheckedMedia);
      files = [note.file];
      checked[0] = note.checked;
    }
    const media: SentMedia[] = [];
    try {
      for (const [i, c] of checked.entries()) {
        const key = newMediaKey(api.companyId, c.fileName);
        await this.storage.put(key, readUploaded(files[i] as UploadedDiskFile));
        media.push({ ...c, key });
      }
      const { answer, outboxIds, repeated } = await this.db.transaction(async (tx) => {
        if (idempotencyKey) {
          const first = await this.claimKey(tx, api, idempotencyKey);
          if (first) return { answer: first, outboxIds: [], repeated: true };
        }
        const events: OutgoingEvent[] = [];
        const row =
          found.ticket ?? (await this.ticketOf(tx, api, found.contact ?? (await this.contactOf(tx, api.companyId, number, events))));
        const items: OutgoingItem[] = media.length
          ? media.map((m, i) => ({ row, body: i === 0 ? text : '', media: m, pace: api.pace, viaApi: true, voice: kind.voice === true }))
          : [{ row, body: text, pace: api.pace, viaApi: true, ...(location ? { location } : {}), ...(contact ? { contact } : {}) }];
        const sent = await this.sender.sendManyInTransaction(tx, items, { connectionsChecked: true });
        const answer = statusOf(sent.messages[0] as MessageDto, number);
        if (idempotencyKey) {
          await tx.query(UPDATE_API_REQUESTS_RESPONSE, [api.connectionId, idempotencyKey, JSON.stringify(answer), api.companyId]);
        }
        return { answer, outboxIds: [...sent.outboxIds, ...(await this.outbox.add(tx, events))], repeated: false };
      });
      if (repeated) await this.forget(media);
      await this.outbox.flush(outboxIds);
      return answer;
    } catch (err) {
      await this.forget(media);
      throw err;
    } finally {
      await note?.discard();
    }
  }

  /** A message this API sent through this connection: its state and ack (an agent's or the bot's reply is not the API's: 404). */
  async status(api: ApiIdentity, id: number): Promise<ApiMessageStatus> {
    // the message and its contact's number in one statement, by keys (a kept plan)
    const [row] =
      Number.isSafeInteger(id) && id > 0
        ? await this.tickets.keyed<Parameters<typeof messageOfRow>[0] & { contactNumber: string }>(SELECT_API_MESSAGE, [
            id,
            api.companyId,
            api.connectionId,
          ])
        : [];
    if (!row) throw new DomainError('ERR_NO_MESSAGE_FOUND');
    const { contactNumber, ...m } = row;
    return statusOf(messageView(messageOfRow(m)), contactNumber);
  }

  /**
   * The connection's status (null: no such connection of the company), the company's contact of this number
   * and the ticket a send to it goes into (see ticketOf), when they exist: one statement.
   */
  private async lookUp(
    api: ApiIdentity,
    number: string,
  ): Promise<{
    connectionStatus: string;
    contact: Pick<ContactEntity, 'id' | 'isGroup'> | null;
    ticket: TicketRow | null;
    /** the ticket row's version (xmin) as read here */
    rowVersion: string;
    /** an id for the message, taken from its sequence (unused when the send goes the long way: a gap) */
    nextMessageId: string;
  } | null> {
    // rows named by their keys, outside the transaction: a kept plan (planning this join cost more than running it)
    const [row] = await this.tickets.keyed<
      TicketRow & {
        connectionStatus: string;
        knownContactId: number | null;
        knownIsGroup: boolean | null;
        rowVersion: string;
        nextMessageId: string;
      }
    >(LOOK_UP, [api.companyId, api.connectionId, number, TICKET_REUSED_FOR]);
    if (!row) return null;
    const { connectionStatus, knownContactId, knownIsGroup, rowVersion, nextMessageId, ...ticket } = row;
    return {
      connectionStatus,
      contact: knownContactId === null ? null : { id: knownContactId, isGroup: Boolean(knownIsGroup) },
      ticket: ticket.id === null ? null : (ticket as TicketRow),
      rowVersion,
      nextMessageId,
    };
  }

  /**
   * Takes the key for this call, or answers the first call's answer. A second call made while the first
   * is still running waits for it (the key's row is locked until the first commits).
   */
  private async claimKey(tx: EntityManager, api: ApiIdentity, key: string): Promise<ApiMessageStatus | null> {
    await tx.query(DELETE_EXPIRED_API_REQUEST, [api.connectionId, key, api.companyId]);
    const taken: unknown[] = await tx.query(CLAIM_API_REQUEST, [api.connectionId, key, api.companyId]);
    if (taken.length > 0) return null;
    const [first] = (await tx.query(SELECT_API_REQUEST_RESPONSE, [api.connectionId, key, api.companyId])) as Array<{
      response: ApiMessageStatus | null;
    }>;
    if (!first?.response)
      throw new DomainError('ERR_SERVICE_UNAVAILABLE', { retryAfter: 1 }, 'The first call with this Idempotency-Key is still running.');
    return first.response;
  }

  /** The company's contact of this number, made (named by its number): the lookup found none. */
  private async contactOf(tx: EntityManager, companyId: number, number: string, events: OutgoingEvent[]): Promise<ContactEntity> {
    const made: Array<{ id: number }> = await tx.query(INSERT_CONTACT_OF_NUMBER, [companyId, number]);
    const contact = (await tx.getRepository(ContactEntity).findOneBy({ companyId, number })) as ContactEntity;
    if (made.length > 0) events.push(contactUpdated(contactView(contact)));
    return contact;
  }

  /**
   * A send goes into the contact's ticket on this connection that is still going (the latest), else one of
   * its tickets there touched within the last two hours (as the product does), else a new one, stored closed
   * as the product does for API sends: the message is in the contact's history, and a reply opens a ticket
   * in the pending list as any customer's message does. The lookup found none to reuse: this looks again
   * under a lock per contact (calls to the same contact at once make one ticket, not one each) and makes it.
   */
  private async ticketOf(tx: EntityManager, api: ApiIdentity, contact: Pick<ContactEntity, 'id' | 'isGroup'>): Promise<TicketRow> {
    await tx.query(LOCK_CONTACT_TICKET, [api.connectionId, contact.id]);
    const meanwhile = await this.tickets.latestFor(tx, api.companyId, contact.id, api.connectionId, TICKET_REUSED_FOR);
    if (meanwhile) return meanwhile;
    const made = await tx
      .getRepository(TicketEntity)
      .save(
        tx.getRepository(TicketEntity).create({
          companyId: api.companyId,
          contactId: contact.id,
          whatsappId: api.connectionId,
          queueId: null,
          userId: null,
          status: 'closed',
          isGroup: contact.isGroup,
        }),
      )
      .catch((err: unknown) => {
        throw creationFailed(err, 'ERR_CREATING_TICKET');
      });
    return (await this.tickets.findById(api.companyId, made.id, tx)) as TicketRow;
  }

  private async forget(media: SentMedia[]): Promise<void> {
    await Promise.all(media.map((m) => this.storage.delete(m.key).catch(() => undefined)));
  }
}
