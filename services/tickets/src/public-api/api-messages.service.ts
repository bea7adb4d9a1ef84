import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ApiIdentity } from '@wa/auth';
import type { ApiMessageState, ApiMessageStatus } from '@wa/contracts';
import { checkMediaFile, DomainError, MediaStorage, newMediaKey, readUploaded, type UploadedDiskFile } from '@wa/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { ContactEntity, MessageEntity, TicketEntity } from '../database/entities/index.js';
import { contactNumber, contactUpdated, contactView } from '../contacts/contacts.service.js';
import { MessagesService, type OutgoingItem, type SentMedia } from '../messages/messages.service.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';
import { ReadModels } from '../read-models/read-models.repository.js';
import type { TicketRow } from '../tickets/ticket-view.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';

/** How long an Idempotency-Key's first answer is kept. */
export const IDEMPOTENCY_TTL_H = 24;

/** What a message's ack means to an integrator. */
export function stateOf(ack: number, failedReason?: string | null): ApiMessageState {
  if (ack === 0 && failedReason) return 'failed';
  if (ack >= 4) return 'read';
  if (ack >= 3) return 'delivered';
  if (ack >= 1) return 'sent';
  return 'queued';
}

const statusOf = (m: MessageEntity, number: string): ApiMessageStatus => ({
  id: Number(m.id),
  ticketId: m.ticketId,
  number,
  body: m.body,
  mediaType: m.mediaType,
  state: stateOf(m.ack, m.failedReason),
  ack: m.ack,
  reason: m.ack === 0 ? (m.failedReason ?? null) : null,
  createdAt: m.createdAt.toISOString(),
  updatedAt: m.updatedAt.toISOString(),
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
    private readonly messages: MessagesService,
    private readonly tickets: TicketsRepository,
    private readonly readModels: ReadModels,
    private readonly outbox: Outbox,
    private readonly storage: MediaStorage,
  ) {}

  /** Sends `body` (and the files, the first captioned with it) to `number`; answers the (first) message. */
  async send(api: ApiIdentity, typedNumber: string, body: string, files: UploadedDiskFile[], idempotencyKey?: string): Promise<ApiMessageStatus> {
    const number = contactNumber(typedNumber);
    const text = body.trim();
    if (!text && files.length === 0) {
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'body', messages: ['Obrigatório'] }] }, 'A body (or a file in medias) is required.');
    }
    const connection = await this.readModels.connection(api.companyId, api.connectionId);
    if (!connection) throw new DomainError('ERR_NO_WAPP_FOUND');
    if (connection.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    const checked = [];
    for (const f of files) checked.push(await checkMediaFile(f));
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
        const contact = await this.contactOf(tx, api.companyId, number, events);
        const row = await this.ticketOf(tx, api, contact);
        const items: OutgoingItem[] = media.length
          ? media.map((m, i) => ({ row, body: i === 0 ? text : '', media: m, pace: api.pace }))
          : [{ row, body: text, pace: api.pace }];
        const sent = await this.messages.sendManyInTransaction(tx, items);
        const first = (await tx.getRepository(MessageEntity).findOneBy({ id: String(sent.messages[0]?.id), companyId: api.companyId })) as MessageEntity;
        const answer = statusOf(first, number);
        if (idempotencyKey) {
          await tx.query(`UPDATE tickets.api_requests SET response = $3 WHERE "connectionId" = $1 AND key = $2`, [api.connectionId, idempotencyKey, JSON.stringify(answer)]);
        }
        return { answer, outboxIds: [...sent.outboxIds, ...(await this.outbox.add(tx, events))], repeated: false };
      });
      if (repeated) await this.forget(media);
      await this.outbox.flush(outboxIds);
      return answer;
    } catch (err) {
      await this.forget(media);
      throw err;
    }
  }

  /** A message sent through this connection: its state and ack. */
  async status(api: ApiIdentity, id: number): Promise<ApiMessageStatus> {
    const m = Number.isSafeInteger(id) && id > 0 ? await this.db.getRepository(MessageEntity).findOneBy({ id: String(id), companyId: api.companyId, whatsappId: api.connectionId, fromMe: true }) : null;
    if (!m) throw new DomainError('ERR_NO_MESSAGE_FOUND');
    const contact = m.contactId ? await this.db.getRepository(ContactEntity).findOneBy({ id: m.contactId, companyId: api.companyId }) : null;
    return statusOf(m, contact?.number ?? '');
  }

  /**
   * Takes the key for this call, or answers the first call's answer. A second call made while the first
   * is still running waits for it (the key's row is locked until the first commits).
   */
  private async claimKey(tx: EntityManager, api: ApiIdentity, key: string): Promise<ApiMessageStatus | null> {
    await tx.query(`DELETE FROM tickets.api_requests WHERE "connectionId" = $1 AND key = $2 AND "createdAt" < now() - interval '${IDEMPOTENCY_TTL_H} hours'`, [api.connectionId, key]);
    const taken: unknown[] = await tx.query(
      `INSERT INTO tickets.api_requests ("connectionId", key, "companyId") VALUES ($1, $2, $3) ON CONFLICT ("connectionId", key) DO NOTHING RETURNING key`,
      [api.connectionId, key, api.companyId],
    );
    if (taken.length > 0) return null;
    const [first] = (await tx.query(`SELECT response FROM tickets.api_requests WHERE "connectionId" = $1 AND key = $2`, [api.connectionId, key])) as Array<{ response: ApiMessageStatus | null }>;
    if (!first?.response) throw new DomainError('ERR_SERVICE_UNAVAILABLE', { retryAfter: 1 }, 'The first call with this Idempotency-Key is still running.');
    return first.response;
  }

  /** The company's contact of this number, made (named by its number) when there is none. */
  private async contactOf(tx: EntityManager, companyId: number, number: string, events: OutgoingEvent[]): Promise<ContactEntity> {
    const made: Array<{ id: number }> = await tx.query(
      `INSERT INTO tickets.contacts ("companyId", name, number) VALUES ($1, $2, $2) ON CONFLICT ("companyId", number) DO NOTHING RETURNING id`,
      [companyId, number],
    );
    const contact = (await tx.getRepository(ContactEntity).findOneBy({ companyId, number })) as ContactEntity;
    if (made.length > 0) events.push(contactUpdated(contactView(contact)));
    return contact;
  }

  /**
   * The contact's ticket on this connection that is still going (the latest), else one of its tickets there
   * touched within the last two hours (as the product does), else a new one, stored closed as the product
   * does for API sends: the message is in the contact's history, and a reply opens a ticket in the pending
   * list as any customer's message does.
   */
  private async ticketOf(tx: EntityManager, api: ApiIdentity, contact: ContactEntity): Promise<TicketRow> {
    // calls to the same contact at once make one ticket, not one each
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('api-ticket:' || $1::text), $2)`, [api.connectionId, contact.id]);
    const [going] = (await tx.query(
      `SELECT id FROM tickets.tickets
        WHERE "companyId" = $1 AND "contactId" = $2 AND "whatsappId" = $3 AND (status <> 'closed' OR "updatedAt" > now() - interval '2 hours')
        ORDER BY (status <> 'closed') DESC, "updatedAt" DESC, id DESC LIMIT 1`,
      [api.companyId, contact.id, api.connectionId],
    )) as Array<{ id: number }>;
    const id =
      going?.id ??
      (
        await tx.getRepository(TicketEntity).save(
          tx.getRepository(TicketEntity).create({ companyId: api.companyId, contactId: contact.id, whatsappId: api.connectionId, queueId: null, userId: null, status: 'closed', isGroup: contact.isGroup }),
        )
      ).id;
    return (await this.tickets.findById(api.companyId, id, tx)) as TicketRow;
  }

  private async forget(media: SentMedia[]): Promise<void> {
    await Promise.all(media.map((m) => this.storage.delete(m.key).catch(() => undefined)));
  }
}
