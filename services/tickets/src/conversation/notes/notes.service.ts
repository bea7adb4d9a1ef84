import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { TicketNoteDto } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { DataSource } from 'typeorm';
import { TicketNoteEntity } from '../../database/entities/index.js';
import { CallerService, type Caller } from '../../identity/caller.service.js';
import type { TicketRow } from '../core/ticket-view.js';
import { TicketsRepository } from '../core/tickets.repository.js';
import { assertCanSee } from '../core/visibility.js';
import type { CreateNoteDto, ListNotesQueryDto } from './notes.dto.js';

/** Newest first, this many per page (the drawer shows the first page and asks for more as it scrolls). */
export const NOTES_PAGE_SIZE = 100;

const view = (n: TicketNoteEntity): TicketNoteDto => ({
  id: n.id,
  note: n.note,
  ticketId: n.ticketId,
  contactId: n.contactId,
  user: { id: n.userId, name: n.userName },
  createdAt: new Date(n.createdAt).toISOString(),
});

/**
 * Internal notes of a ticket and its contact (spec 01 §3, §7): whoever sees the ticket reads and writes
 * them; the author or an admin deletes one. Everything is scoped to the caller's company.
 */
@Injectable()
export class NotesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tickets: TicketsRepository,
    private readonly callers: CallerService,
  ) {}

  async add(caller: Caller, dto: CreateNoteDto): Promise<TicketNoteDto> {
    await this.ticketSeenBy(caller, dto.ticketId, dto.contactId);
    const repo = this.db.getRepository(TicketNoteEntity);
    const saved = await repo.save(
      repo.create({
        companyId: caller.companyId,
        ticketId: dto.ticketId,
        contactId: dto.contactId,
        userId: caller.id,
        userName: this.callers.displayName(caller).slice(0, 100),
        note: dto.note,
      }),
    );
    return view(saved);
  }

  async list(caller: Caller, query: ListNotesQueryDto): Promise<TicketNoteDto[]> {
    await this.ticketSeenBy(caller, query.ticketId, query.contactId);
    const rows = await this.db.getRepository(TicketNoteEntity).find({
      where: { companyId: caller.companyId, ticketId: query.ticketId, contactId: query.contactId },
      order: { id: 'DESC' },
      take: NOTES_PAGE_SIZE,
      skip: ((query.pageNumber ?? 1) - 1) * NOTES_PAGE_SIZE,
    });
    return rows.map(view);
  }

  async remove(caller: Caller, id: number): Promise<void> {
    const repo = this.db.getRepository(TicketNoteEntity);
    const note = Number.isSafeInteger(id) ? await repo.findOneBy({ id, companyId: caller.companyId }) : null;
    if (!note) throw new DomainError('ERR_NO_NOTE_FOUND');
    await this.ticketSeenBy(caller, note.ticketId, note.contactId);
    if (note.userId !== caller.id && !caller.isAdmin) throw new DomainError('ERR_NO_PERMISSION', {}, 'Acesso não permitido');
    await repo.delete({ id, companyId: caller.companyId });
  }

  /** The ticket, of the caller's company and visible to them, whose contact is `contactId`. */
  private async ticketSeenBy(caller: Caller, ticketId: number, contactId: number): Promise<TicketRow> {
    const row = (await this.tickets.findById(caller.companyId, ticketId)) as TicketRow | null;
    if (!row) throw new DomainError('ERR_NO_TICKET_FOUND');
    assertCanSee(caller, row);
    if (row.contactId !== contactId) throw new DomainError('ERR_NO_CONTACT_FOUND');
    return row;
  }
}
