import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { supervises } from '@wa/auth';
import type { TagDto, TagsPage, TicketDto } from '@wa/contracts';
import { isUniqueViolation } from '@wa/database';
import { DomainError } from '@wa/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { TagEntity } from '../../database/entities/index.js';
import { likeEscaped } from '@wa/database';
import type { Caller } from '../../identity/caller.service.js';
import { Outbox } from '../../outbox/outbox.service.js';
import { ticketUpdatedEvent } from '../core/ticket-events.js';
import { ticketView, type TicketRow } from '../core/ticket-view.js';
import { TicketsRepository } from '../core/tickets.repository.js';
import { assertCanSee } from '../core/visibility.js';
import { CallerService } from '../../identity/caller.service.js';
import type { CreateTagDto, ListTagsQueryDto, UpdateTagDto } from './tags.dto.js';
import {
  COUNT_COMPANY_TAGS,
  DELETE_TICKET_TAGS,
  DELETE_TICKET_TAGS_NOT_IN,
  INSERT_TICKET_TAG,
  INSERT_TICKET_TAGS_MANY,
  SELECT_OPEN_TICKETS_OF_TAG,
  SELECT_TICKETS_OF_TAG,
  TAG_NAME_LIKE,
  tagsPageSql,
} from './tags.queries.js';

export const TAGS_PAGE_SIZE = 20;
export const TAGS_LIST_LIMIT = 1000;

const view = (t: TagEntity & { ticketsCount?: number | string }): TagDto => ({
  id: t.id,
  name: t.name,
  color: t.color,
  kanban: t.kanban,
  userId: t.userId,
  companyId: t.companyId,
  ...(t.ticketsCount !== undefined ? { ticketsCount: Number(t.ticketsCount) } : {}),
});

const duplicated = () =>
  new DomainError('ERR_VALIDATION', { details: [{ field: 'name', messages: ['Tag já existe'] }] }, 'A tag with this name already exists.');

/**
 * Tags of spec 01/02: the company's tags (paged with their ticket counts, a list for pickers), and the
 * tags of a ticket: set as a whole (`sync`), one added, or all removed. A ticket's change goes out as
 * `ticket.updated` with its tags, through the outbox; only someone who sees the ticket changes them.
 */
/** spec 02 §6: only an admin or a supervisor marks a tag for the kanban (or takes the mark off). */
function assertMayMarkKanban(caller: Caller, wanted: number, current: number): void {
  if (wanted !== current && !supervises(caller))
    throw new DomainError('ERR_NO_PERMISSION', { field: 'kanban' }, 'Only admins and supervisors mark a tag for the kanban.');
}

@Injectable()
export class TagsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tickets: TicketsRepository,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
  ) {}

  async page(caller: Caller, query: ListTagsQueryDto): Promise<TagsPage> {
    const params: unknown[] = [caller.companyId];
    let filter = '';
    const term = query.searchParam?.trim().toLowerCase();
    if (term) {
      params.push(`%${likeEscaped(term)}%`);
      filter = TAG_NAME_LIKE;
    }
    const offset = ((query.pageNumber ?? 1) - 1) * TAGS_PAGE_SIZE;
    const rows: Array<TagEntity & { ticketsCount: string }> = await this.db.query(tagsPageSql(filter, offset, TAGS_PAGE_SIZE + 1), params);
    return { tags: rows.slice(0, TAGS_PAGE_SIZE).map(view), hasMore: rows.length > TAGS_PAGE_SIZE };
  }

  async list(caller: Caller): Promise<TagDto[]> {
    const rows = await this.db
      .getRepository(TagEntity)
      .find({ where: { companyId: caller.companyId }, order: { name: 'ASC', id: 'ASC' }, take: TAGS_LIST_LIMIT });
    return rows.map(view);
  }

  /** The kanban's lanes (GET /tags/kanban): the company's tags marked for it, by name. */
  async kanban(caller: Caller): Promise<{ lista: TagDto[] }> {
    const rows = await this.db
      .getRepository(TagEntity)
      .find({ where: { companyId: caller.companyId, kanban: 1 }, order: { name: 'ASC', id: 'ASC' }, take: TAGS_LIST_LIMIT });
    return { lista: rows.map(view) };
  }

  async get(caller: Caller, id: number): Promise<TagDto> {
    return view(await this.find(caller.companyId, id));
  }

  async create(caller: Caller, dto: CreateTagDto): Promise<TagDto> {
    assertMayMarkKanban(caller, dto.kanban ?? 0, 0);
    const repo = this.db.getRepository(TagEntity);
    try {
      return view(
        await repo.save(
          repo.create({
            companyId: caller.companyId,
            name: dto.name.trim(),
            color: dto.color ?? '#A4CCCC',
            kanban: dto.kanban ?? 0,
            userId: caller.id,
          }),
        ),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicated();
      throw err;
    }
  }

  async update(caller: Caller, id: number, dto: UpdateTagDto): Promise<TagDto> {
    const tag = await this.find(caller.companyId, id);
    if (dto.kanban !== undefined) assertMayMarkKanban(caller, dto.kanban, tag.kanban);
    if (dto.name !== undefined) tag.name = dto.name.trim();
    if (dto.color !== undefined) tag.color = dto.color;
    if (dto.kanban !== undefined) tag.kanban = dto.kanban;
    try {
      const { saved, outboxIds } = await this.db.transaction(async (tx) => {
        const saved = await tx.getRepository(TagEntity).save(tag);
        // the open and pending tickets carrying it show its new name and colour at once (closed ones when read)
        const live: Array<{ ticketId: number }> = await tx.query(SELECT_OPEN_TICKETS_OF_TAG, [id, caller.companyId]);
        return {
          saved,
          outboxIds: await this.announce(
            tx,
            caller.companyId,
            live.map((r) => r.ticketId),
          ),
        };
      });
      await this.outbox.flush(outboxIds);
      return view(saved);
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicated();
      throw err;
    }
  }

  /** Admins and supervisors delete tags; an agent may not (it would take them off every ticket of the company). */
  async remove(caller: Caller, id: number): Promise<void> {
    if (!supervises(caller)) throw new DomainError('ERR_NO_PERMISSION', {}, 'Only admins and supervisors delete tags.');
    await this.find(caller.companyId, id);
    const outboxIds = await this.db.transaction(async (tx) => {
      const tagged: Array<{ ticketId: number }> = await tx.query(SELECT_TICKETS_OF_TAG, [id, caller.companyId]);
      await tx.getRepository(TagEntity).delete({ id, companyId: caller.companyId });
      return this.announce(
        tx,
        caller.companyId,
        tagged.map((t) => t.ticketId),
      );
    });
    await this.outbox.flush(outboxIds);
  }

  /** The ticket's tags become exactly `tagIds` (each a tag of the company). */
  async sync(caller: Caller, ticketId: number, tagIds: number[]): Promise<TicketDto> {
    return this.changeTicket(caller, ticketId, async (tx) => {
      const ids = [...new Set(tagIds)];
      await this.assertTags(tx, caller.companyId, ids);
      await tx.query(DELETE_TICKET_TAGS_NOT_IN, [ticketId, ids, caller.companyId]);
      if (ids.length) await tx.query(INSERT_TICKET_TAGS_MANY, [ticketId, ids, caller.companyId]);
    });
  }

  async add(caller: Caller, ticketId: number, tagId: number): Promise<TicketDto> {
    return this.changeTicket(caller, ticketId, async (tx) => {
      await this.assertTags(tx, caller.companyId, [tagId]);
      await tx.query(INSERT_TICKET_TAG, [ticketId, tagId, caller.companyId]);
    });
  }

  async clear(caller: Caller, ticketId: number): Promise<TicketDto> {
    return this.changeTicket(caller, ticketId, async (tx) => {
      await tx.query(DELETE_TICKET_TAGS, [ticketId, caller.companyId]);
    });
  }

  private async changeTicket(caller: Caller, ticketId: number, change: (tx: EntityManager) => Promise<void>): Promise<TicketDto> {
    const row = Number.isSafeInteger(ticketId) ? await this.tickets.findById(caller.companyId, ticketId) : null;
    if (!row) throw new DomainError('ERR_NO_TICKET_FOUND');
    assertCanSee(caller, row);
    const outboxIds = await this.db.transaction(async (tx) => {
      await change(tx);
      return this.announce(tx, caller.companyId, [ticketId]);
    });
    await this.outbox.flush(outboxIds);
    return this.view((await this.tickets.findById(caller.companyId, ticketId)) as TicketRow);
  }

  /** `ticket.updated` with their tags, for tickets whose tags changed. */
  private async announce(tx: EntityManager, companyId: number, ticketIds: number[]): Promise<string[]> {
    if (ticketIds.length === 0) return [];
    const rows = await this.tickets.findByIds(companyId, ticketIds, tx);
    return this.outbox.add(
      tx,
      // the ticket's own fields did not change: its usual msg id would be taken for a repeat and dropped
      rows.map((r) => ({ ...ticketUpdatedEvent(this.view(r)), msgId: `ticket-tags:${r.id}:${randomUUID()}` })),
    );
  }

  private async assertTags(tx: EntityManager, companyId: number, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const [{ n }] = await tx.query(COUNT_COMPANY_TAGS, [companyId, ids]);
    if (n !== ids.length) throw new DomainError('ERR_NO_TAG_FOUND');
  }

  private async find(companyId: number, id: number): Promise<TagEntity> {
    const row = Number.isSafeInteger(id) ? await this.db.getRepository(TagEntity).findOneBy({ id, companyId }) : null;
    if (!row) throw new DomainError('ERR_NO_TAG_FOUND');
    return row;
  }

  private view(row: TicketRow): TicketDto {
    return ticketView(row, (id) => this.callers.nameOf(row.companyId, id));
  }
}
