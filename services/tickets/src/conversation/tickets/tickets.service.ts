import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  TicketSubjects,
  type OtherOpenTicketBody,
  type TicketDeletedEvent,
  type TicketDto,
  type TicketsPage,
  type TicketStatus,
} from '@wa/contracts';
import { DomainError, MediaStorage, dropFiles } from '@wa/server-kit';
import { isUniqueViolation } from '@wa/database';
import { DataSource } from 'typeorm';
import { ContactEntity, QueueEntity, TicketEntity } from '../../database/entities/index.js';
import { ContactsService } from '../contacts/contacts.service.js';
import { WhatsappCheck } from '../contacts/whatsapp-check.service.js';
import { CallerService, type Caller } from '../../identity/caller.service.js';
import { assertOwnedIds } from '../../identity/owned-ids.js';
import { Outbox } from '../../outbox/outbox.service.js';
import { ReadModels } from '../../read-models/read-models.repository.js';
import { listTicketsQuery } from './queries/list-tickets.queries.js';
import { decodeCursor, encodeCursor, ticketView, type TicketRow } from '../core/ticket-view.js';
import type { CreateTicketDto, KanbanTicketsQueryDto, ListTicketsQueryDto, UpdateTicketDto } from './tickets.dto.js';
import { TicketsRepository } from '../core/tickets.repository.js';
import { assertCanSee } from '../core/visibility.js';
import { creationFailed } from '../core/creation-failed.js';
import { ticketUpdatedEvent } from '../core/ticket-events.js';
import { ChangeTicket } from './use-cases/change-ticket.js';
import { ticketTransition } from './use-cases/ticket-transition.js';
import { storedFilesOf } from '../media/media-files.queries.js';

export const TICKETS_PAGE_SIZE = 40;

@Injectable()
export class TicketsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tickets: TicketsRepository,
    private readonly readModels: ReadModels,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
    private readonly contacts: ContactsService,
    private readonly whatsapp: WhatsappCheck,
    private readonly storage: MediaStorage,
    private readonly change: ChangeTicket,
  ) {}

  /** The kanban board's cards (GET /ticket/kanban): the open and waiting tickets the caller sees, newest first, with their tags. */
  async kanban(caller: Caller, q: KanbanTicketsQueryDto): Promise<TicketsPage> {
    return this.list(caller, { queueIds: q.queueIds, cursor: q.cursor, pageNumber: q.pageNumber, showAll: true }, ['open', 'pending']);
  }

  async list(caller: Caller, q: ListTicketsQueryDto, statuses?: TicketStatus[]): Promise<TicketsPage> {
    const cursor = decodeCursor(q.cursor);
    const pageNumber = q.pageNumber ?? 1;
    const { sql, params } = listTicketsQuery(caller, {
      statuses,
      status: q.status,
      searchParam: q.searchParam,
      showAll: q.showAll,
      queueIds: q.queueIds,
      users: q.users,
      tags: q.tags,
      withUnreadMessages: q.withUnreadMessages,
      date: q.date,
      updatedAt: q.updatedAt,
      after: cursor && cursor.length === 2 ? { updatedAt: String(cursor[0]), id: Number(cursor[1]) } : undefined,
      offset: (pageNumber - 1) * TICKETS_PAGE_SIZE,
      limit: TICKETS_PAGE_SIZE,
    });
    const rows = await this.tickets.list(sql, params, !q.searchParam?.trim());
    const hasMore = rows.length > TICKETS_PAGE_SIZE;
    const page = rows.slice(0, TICKETS_PAGE_SIZE);
    const last = page[page.length - 1];
    return {
      tickets: page.map((r) => this.view(r)),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor([last.sortKey, last.id]) : null,
    };
  }

  async get(caller: Caller, id: number): Promise<TicketDto> {
    const row = Number.isSafeInteger(id) ? await this.tickets.findById(caller.companyId, id) : null;
    return this.visible(caller, row);
  }

  async getByUuid(caller: Caller, uuid: string): Promise<TicketDto> {
    const row = /^[0-9a-f-]{36}$/i.test(uuid) ? await this.tickets.findByUuid(caller.companyId, uuid) : null;
    return this.visible(caller, row);
  }

  /**
   * An agent opens a conversation with a contact; refused when someone already holds one (ERR_OTHER_OPEN_TICKET),
   * or with ERR_CREATING_TICKET when the row cannot be written (its contact or queue went away meanwhile).
   */
  async create(caller: Caller, dto: CreateTicketDto): Promise<TicketDto> {
    if (!caller.isAdmin && !dto.queueId) {
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'queueId', messages: ['Selecione uma fila'] }] }, 'Selecione uma fila');
    }
    const contact = await this.db.getRepository(ContactEntity).findOneBy({ id: dto.contactId, companyId: caller.companyId });
    if (!contact) throw new DomainError('ERR_NO_CONTACT_FOUND');
    const connection = dto.whatsappId
      ? await this.readModels.connection(caller.companyId, dto.whatsappId)
      : await this.readModels.defaultConnection(caller.companyId);
    if (!connection) throw new DomainError(dto.whatsappId ? 'ERR_NO_WAPP_FOUND' : 'ERR_NO_DEF_WAPP_FOUND');
    if (dto.queueId) await this.mustFindQueue(caller.companyId, dto.queueId);
    if (caller.isAdmin && dto.userId && dto.userId !== caller.id) await this.callers.assertCompanyUser(caller.companyId, dto.userId);
    if (!caller.isAdmin && dto.queueId && !caller.queueIds.includes(dto.queueId)) throw new DomainError('ERR_NO_PERMISSION');
    // asks the phone: only once the caller may open it at all
    await this.assertOnWhatsapp(contact, connection.id);
    const status: TicketStatus = dto.status ?? 'open';
    const userId = status === 'pending' ? null : caller.isAdmin && dto.userId ? dto.userId : caller.id;
    const existing = await this.tickets.openFor(caller.companyId, contact.id, connection.id);
    if (existing) throw this.conflict(existing);
    try {
      const { id, outboxIds } = await this.db.transaction(async (tx) => {
        const saved = await tx.getRepository(TicketEntity).save(
          tx.getRepository(TicketEntity).create({
            companyId: caller.companyId,
            contactId: contact.id,
            whatsappId: connection.id,
            queueId: dto.queueId ?? null,
            userId,
            status,
            isGroup: contact.isGroup,
          }),
        );
        const row = (await this.tickets.findById(caller.companyId, saved.id, tx)) as TicketRow;
        return { id: saved.id, outboxIds: await this.outbox.add(tx, [ticketUpdatedEvent(this.view(row))]) };
      });
      await this.outbox.flush(outboxIds);
      return this.view((await this.tickets.findById(caller.companyId, id)) as TicketRow);
    } catch (err) {
      // the contact or queue deleted meanwhile: ERR_CREATING_TICKET (spec 01 §8), not a 500
      if (!isUniqueViolation(err)) throw creationFailed(err, 'ERR_CREATING_TICKET');
      const holder = await this.tickets.openFor(caller.companyId, contact.id, connection.id);
      throw holder ? this.conflict(holder) : new DomainError('ERR_CREATING_TICKET');
    }
  }

  /**
   * Accept, return, resolve, reopen and transfer (spec 01 §4): the ids the change names checked, the state machine
   * (ticketTransition) gives the patch and what goes to the customer, applied in one transaction.
   */
  async update(caller: Caller, id: number, dto: UpdateTicketDto): Promise<TicketDto> {
    const current = await this.tickets.findById(caller.companyId, id);
    this.visible(caller, current);
    const row = current as TicketRow;
    // a user id in the body must be a user of the caller's company, whatever it is used for
    if (typeof dto.userId === 'number' && dto.userId !== caller.id) await this.callers.assertCompanyUser(caller.companyId, dto.userId);
    // so must the prompt and the integration put on it (the bot would run another company's, on its key)
    await assertOwnedIds(this.db, caller.companyId, [
      { field: 'promptId', kind: 'prompt', ids: dto.promptId },
      { field: 'integrationId', kind: 'integration', ids: dto.integrationId },
    ]);
    const transition = ticketTransition(row, dto, caller);
    if (transition.checks.queueId !== undefined) await this.mustFindQueue(caller.companyId, transition.checks.queueId);
    if (transition.checks.whatsappId !== undefined && !(await this.readModels.connection(caller.companyId, transition.checks.whatsappId)))
      throw new DomainError('ERR_NO_WAPP_FOUND');
    if (Object.keys(transition.patch).length === 0) return this.view(row);
    try {
      await this.change.apply(caller, row, transition);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // reopening while another conversation with the contact is open on that connection
      const holder = await this.tickets.openFor(caller.companyId, row.contactId, transition.patch.whatsappId ?? row.whatsappId);
      throw holder ? this.conflict(holder) : err;
    }
    return this.view((await this.tickets.findById(caller.companyId, id)) as TicketRow);
  }

  async remove(caller: Caller, id: number): Promise<void> {
    const row = await this.tickets.findById(caller.companyId, id);
    if (!row) throw new DomainError('ERR_NO_TICKET_FOUND');
    const { outboxIds, files } = await this.db.transaction(async (tx) => {
      const files = await storedFilesOf(tx, caller.companyId, [id]);
      await tx.getRepository(TicketEntity).delete({ id, companyId: caller.companyId });
      const event: TicketDeletedEvent = { companyId: caller.companyId, ticketId: id, queueId: row.queueId, userId: row.userId };
      return {
        outboxIds: await this.outbox.add(tx, [
          { subject: TicketSubjects.ticketDeleted(caller.companyId, id), msgId: `ticket-deleted:${id}`, payload: event },
        ]),
        files,
      };
    });
    await this.outbox.flush(outboxIds);
    // its messages' files go with it
    await dropFiles(this.storage, files);
  }

  /**
   * A conversation opens only with a number on WhatsApp: one never checked is checked now through the
   * ticket's connection (and the answer kept); one WhatsApp does not know is refused. When nobody can tell
   * (the phone is away), it opens: the message waits in the outbox like any other. When the phone is up
   * but WhatsApp failed to answer, ERR_WAPP_CHECK_CONTACT (try again).
   */
  private async assertOnWhatsapp(contact: ContactEntity, connectionId: number): Promise<void> {
    if (contact.isGroup) return;
    let valid = contact.isWhatsappValid;
    if (valid === null) {
      valid = await this.whatsapp.isOnWhatsapp(contact.companyId, contact.number, connectionId, { strict: true });
      if (valid !== null) await this.contacts.recordCheck(contact.companyId, contact.id, valid);
    }
    if (valid === false) throw new DomainError('ERR_WAPP_INVALID_CONTACT');
  }

  private visible(caller: Caller, row: TicketRow | null): TicketDto {
    if (!row) throw new DomainError('ERR_NO_TICKET_FOUND');
    assertCanSee(caller, row);
    return this.view(row);
  }

  private async mustFindQueue(companyId: number, queueId: number): Promise<QueueEntity> {
    const queue = await this.db.getRepository(QueueEntity).findOneBy({ id: queueId, companyId });
    if (!queue)
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'queueId', messages: ['queue not found'] }] }, 'Queue not found');
    return queue;
  }

  private conflict(holder: TicketRow): DomainError {
    const body: Omit<OtherOpenTicketBody, 'error' | 'message'> = {
      userId: holder.userId,
      userName: holder.userId ? this.callers.nameOf(holder.companyId, holder.userId) || null : null,
      queueName: holder.queueName,
      ticketId: holder.id,
    };
    return new DomainError('ERR_OTHER_OPEN_TICKET', body);
  }

  view(row: TicketRow): TicketDto {
    return ticketView(row, (id) => this.callers.nameOf(row.companyId, id));
  }
}
