import { Injectable } from '@nestjs/common';
import type { ContactListDto } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import type { EntityManager } from 'typeorm';
import { Outbox } from '../platform/outbox.service.js';
import { listEvent, listView } from './contact-list-events.js';
import type { ContactListBodyDto, ListContactListsQueryDto } from './contact-lists.dto.js';
import { ContactListsRepository } from './contact-lists.repository.js';

/** GET /contact-lists (the contract has no page type for it). */
export interface ContactListsPage {
  records: ContactListDto[];
  hasMore: boolean;
  count: number;
}

/** Lists, items: 20 a page like the other lists. */
export const CONTACT_LISTS_PAGE_SIZE = 20;

/** The most lists GET /contact-lists/list answers (a picker, not a page). */
export const CONTACT_LISTS_PICKER_LIMIT = 1000;

/** Contact lists of spec 02 (§2, §3, §7), scoped to the caller's company; every change goes out through the outbox. */
@Injectable()
export class ContactListsService {
  constructor(
    private readonly repo: ContactListsRepository,
    private readonly outbox: Outbox,
  ) {}

  async page(companyId: number, query: ListContactListsQueryDto): Promise<ContactListsPage> {
    const page = query.pageNumber ?? 1;
    const { rows, count } = await this.repo.page(
      companyId,
      query.searchParam?.trim() || undefined,
      (page - 1) * CONTACT_LISTS_PAGE_SIZE,
      CONTACT_LISTS_PAGE_SIZE + 1,
    );
    return { records: rows.slice(0, CONTACT_LISTS_PAGE_SIZE).map(listView), hasMore: rows.length > CONTACT_LISTS_PAGE_SIZE, count };
  }

  /** GET /contact-lists/list (the campaign dialog's picker): the first CONTACT_LISTS_PICKER_LIMIT by name. */
  async all(companyId: number): Promise<ContactListDto[]> {
    return (await this.repo.all(companyId, CONTACT_LISTS_PICKER_LIMIT)).map(listView);
  }

  async get(companyId: number, id: number): Promise<ContactListDto> {
    const row = Number.isSafeInteger(id) ? await this.repo.list(companyId, id) : null;
    if (!row) throw new DomainError('ERR_NO_CONTACT_LIST_FOUND');
    return listView(row);
  }

  async create(companyId: number, body: ContactListBodyDto): Promise<ContactListDto> {
    const { record, ids } = await this.repo.transaction(async (tx) => {
      const id = await this.repo.createList(tx, companyId, body.name.trim());
      const record = await this.view(companyId, id, tx);
      return { record, ids: await this.outbox.add(tx, [listEvent(companyId, id, { action: 'create', record })]) };
    });
    await this.outbox.flush(ids);
    return record;
  }

  async update(companyId: number, id: number, body: ContactListBodyDto): Promise<ContactListDto> {
    const { record, ids } = await this.repo.transaction(async (tx) => {
      if (!(await this.repo.renameList(tx, companyId, id, body.name.trim()))) throw new DomainError('ERR_NO_CONTACT_LIST_FOUND');
      const record = await this.view(companyId, id, tx);
      return { record, ids: await this.outbox.add(tx, [listEvent(companyId, id, { action: 'update', record })]) };
    });
    await this.outbox.flush(ids);
    return record;
  }

  /** The list and its items (a campaign that named it keeps no list). */
  async remove(companyId: number, id: number): Promise<void> {
    const ids = await this.repo.transaction(async (tx) => {
      if (!(await this.repo.deleteList(tx, companyId, id))) throw new DomainError('ERR_NO_CONTACT_LIST_FOUND');
      return this.outbox.add(tx, [listEvent(companyId, id, { action: 'delete' })]);
    });
    await this.outbox.flush(ids);
  }

  private async view(companyId: number, id: number, tx: EntityManager): Promise<ContactListDto> {
    const row = await this.repo.list(companyId, id, tx);
    if (!row) throw new DomainError('ERR_NO_CONTACT_LIST_FOUND');
    return listView(row);
  }
}
