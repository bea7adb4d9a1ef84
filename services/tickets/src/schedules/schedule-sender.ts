import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FileMediaType } from '@wa/server-kit';
import { DomainError } from '@wa/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { ContactEntity, ScheduleEntity, TicketEntity } from '../database/entities/index.js';
import { CallerService } from '../identity/caller.service.js';
import { MessagesService } from '../messages/messages.service.js';
import { Outbox } from '../outbox/outbox.service.js';
import { ReadModels } from '../read-models/read-models.repository.js';
import { ticketUpdatedEvent } from '../tickets/ticket-events.js';
import { ticketView, type TicketRow } from '../tickets/ticket-view.js';
import { TicketsRepository } from '../tickets/tickets.repository.js';
import { scheduleUpdatedEvent } from './schedule-view.js';

/**
 * Sends a due schedule exactly once: under the row's lock it checks the schedule is still waiting for this
 * very time, opens or reuses the contact's ticket, and stores the message (sent like an agent's, through the
 * outbox to the connection's session) with `sentAt` and status ENVIADA, all in one transaction. A second
 * run (a job added twice, a worker that died after the commit) finds it sent and does nothing.
 */
@Injectable()
export class ScheduleSender {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tickets: TicketsRepository,
    private readonly readModels: ReadModels,
    private readonly messages: MessagesService,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
  ) {}

  async send(companyId: number, scheduleId: number, sendAt: Date): Promise<void> {
    const outboxIds = await this.db.transaction(async (tx) => {
      const s = await this.waiting(tx, companyId, scheduleId, sendAt);
      if (!s) return [];
      const contact = await tx.getRepository(ContactEntity).findOneBy({ id: s.contactId, companyId });
      if (!contact) throw new DomainError('ERR_NO_CONTACT_FOUND');
      const { row, events } = await this.ticketFor(tx, s, contact);
      const text = await this.messages.withVariables(row, s.body);
      const media = s.mediaPath
        ? { key: s.mediaPath, fileName: s.mediaName ?? 'file', mimetype: s.mediaMimetype ?? 'application/octet-stream', size: s.mediaSize ?? 0, mediaType: (s.mediaType ?? 'image') as FileMediaType }
        : undefined;
      const sent = await this.messages.sendInTransaction(tx, row, text, undefined, media);
      await tx.getRepository(ScheduleEntity).update({ id: s.id }, { status: 'ENVIADA', sentAt: new Date(), ticketId: row.id, reason: null });
      const saved = (await tx.getRepository(ScheduleEntity).findOneBy({ id: s.id })) as ScheduleEntity;
      return [...(await this.outbox.add(tx, [...events, scheduleUpdatedEvent({ ...saved, contactName: contact.name, contactNumber: contact.number })])), ...sent.outboxIds];
    });
    await this.outbox.flush(outboxIds);
  }

  /** The last attempt failed: status ERRO with the reason (unless it was sent or changed meanwhile). */
  async fail(companyId: number, scheduleId: number, sendAt: Date, reason: string): Promise<void> {
    const outboxIds = await this.db.transaction(async (tx) => {
      const s = await this.waiting(tx, companyId, scheduleId, sendAt);
      if (!s) return [];
      await tx.getRepository(ScheduleEntity).update({ id: s.id }, { status: 'ERRO', reason: reason.slice(0, 1000) });
      const saved = (await tx.getRepository(ScheduleEntity).findOneBy({ id: s.id })) as ScheduleEntity;
      const contact = await tx.getRepository(ContactEntity).findOneBy({ id: s.contactId, companyId });
      return this.outbox.add(tx, [scheduleUpdatedEvent({ ...saved, contactName: contact?.name ?? null, contactNumber: contact?.number ?? null })]);
    });
    await this.outbox.flush(outboxIds);
  }

  /** The schedule, locked, when it still waits to be sent at `sendAt` (a moved one's old job finds another time). */
  private async waiting(tx: EntityManager, companyId: number, scheduleId: number, sendAt: Date): Promise<ScheduleEntity | null> {
    const s = await tx.getRepository(ScheduleEntity).findOne({ where: { id: scheduleId, companyId }, lock: { mode: 'pessimistic_write' } });
    if (!s || s.status !== 'PENDENTE' || s.sentAt || s.sendAt.getTime() !== sendAt.getTime()) return null;
    return s;
  }

  /**
   * The contact's ticket that is still going (open or pending, the latest), or a new one on the company's
   * default connection, open and held by the schedule's author.
   */
  private async ticketFor(tx: EntityManager, s: ScheduleEntity, contact: ContactEntity): Promise<{ row: TicketRow; events: ReturnType<typeof ticketUpdatedEvent>[] }> {
    const going: Array<{ id: number }> = await tx.query(
      `SELECT id FROM tickets.tickets WHERE "companyId" = $1 AND "contactId" = $2 AND status <> 'closed' ORDER BY "updatedAt" DESC, id DESC LIMIT 1`,
      [s.companyId, contact.id],
    );
    if (going[0]) return { row: (await this.tickets.findById(s.companyId, going[0].id, tx)) as TicketRow, events: [] };
    const connection = await this.readModels.defaultConnection(s.companyId);
    if (!connection) throw new DomainError('ERR_NO_DEF_WAPP_FOUND');
    const saved = await tx.getRepository(TicketEntity).save(
      tx.getRepository(TicketEntity).create({
        companyId: s.companyId,
        contactId: contact.id,
        whatsappId: connection.id,
        queueId: null,
        userId: s.userId,
        status: 'open',
        isGroup: contact.isGroup,
      }),
    );
    const row = (await this.tickets.findById(s.companyId, saved.id, tx)) as TicketRow;
    return { row, events: [ticketUpdatedEvent(ticketView(row, (id) => this.callers.nameOf(s.companyId, id)))] };
  }
}
