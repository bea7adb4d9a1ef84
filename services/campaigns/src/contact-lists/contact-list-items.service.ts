import { Injectable } from '@nestjs/common';
import type { ContactListItemDto } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import type { EntityManager } from 'typeorm';
import { Outbox } from '../platform/outbox.service.js';
import { itemView, listEvent } from './contact-list-events.js';
import type { CreateContactListItemDto, ListContactListItemsQueryDto, UpdateContactListItemDto } from './contact-lists.dto.js';
import { ContactListsRepository } from './contact-lists.repository.js';
import { CONTACT_LISTS_PAGE_SIZE } from './contact-lists.service.js';
import { phoneNumberVariants } from '@wa/domain';
import { listNumber } from './list-number.js';
import { NumberCheckWorker } from './number-check.worker.js';

/** GET /contact-list-items (the contract has no page type for it). */
export interface ContactListItemsPage {
  contacts: ContactListItemDto[];
  hasMore: boolean;
}

/** A typed number as stored, or refused with the field named. */
function itemNumber(typed: string): string {
  const number = listNumber(typed);
  if (!number)
    throw new DomainError('ERR_WAPP_INVALID_CONTACT', { details: [{ field: 'number', messages: ['ERR_WAPP_INVALID_CONTACT'] }] });
  return number;
}

/**
 * A contact list's items (spec 02 §2, §3, §7): one per number in a list (the 9th-digit variants are one), scoped
 * to the caller's company (another company's list or item: 404). An item added or given a new number is
 * checked on WhatsApp by the background check within seconds.
 */
@Injectable()
export class ContactListItemsService {
  constructor(
    private readonly repo: ContactListsRepository,
    private readonly outbox: Outbox,
    private readonly checker: NumberCheckWorker,
  ) {}

  async page(companyId: number, query: ListContactListItemsQueryDto): Promise<ContactListItemsPage> {
    if (!(await this.repo.list(companyId, query.contactListId))) throw new DomainError('ERR_NO_CONTACT_LIST_FOUND');
    const page = query.pageNumber ?? 1;
    const term = query.searchParam?.trim() || undefined;
    const rows = await this.repo.items(
      companyId,
      query.contactListId,
      term,
      (page - 1) * CONTACT_LISTS_PAGE_SIZE,
      CONTACT_LISTS_PAGE_SIZE + 1,
    );
    return { contacts: rows.slice(0, CONTACT_LISTS_PAGE_SIZE).map(itemView), hasMore: rows.length > CONTACT_LISTS_PAGE_SIZE };
  }

  async get(companyId: number, id: number): Promise<ContactListItemDto> {
    const row = Number.isSafeInteger(id) ? await this.repo.item(companyId, id) : null;
    if (!row) throw new DomainError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
    return itemView(row);
  }

  async create(companyId: number, body: CreateContactListItemDto): Promise<ContactListItemDto> {
    const number = itemNumber(body.number);
    const { item, ids } = await this.repo.transaction(async (tx) => {
      // the list's row lock makes the duplicate check and the insert one step
      if (!(await this.repo.lockList(tx, companyId, body.contactListId))) throw new DomainError('ERR_NO_CONTACT_LIST_FOUND');
      await this.refuseTaken(tx, body.contactListId, number);
      const row = await this.repo.insertItem(tx, companyId, body.contactListId, {
        name: body.name.trim(),
        number,
        email: body.email?.trim() ?? '',
      });
      const item = itemView(row);
      return { item, ids: await this.outbox.add(tx, [listEvent(companyId, item.contactListId, { action: 'item', item })]) };
    });
    await this.outbox.flush(ids);
    this.checker.wake();
    return item;
  }

  async update(companyId: number, id: number, body: UpdateContactListItemDto): Promise<ContactListItemDto> {
    const { item, ids, renumbered } = await this.repo.transaction(async (tx) => {
      const current = await this.repo.item(companyId, id, tx);
      if (!current) throw new DomainError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
      await this.repo.lockList(tx, companyId, current.contactListId);
      const number = body.number !== undefined ? itemNumber(body.number) : current.number;
      if (number !== current.number) await this.refuseTaken(tx, current.contactListId, number, id);
      const row = await this.repo.updateItem(tx, companyId, id, {
        name: body.name !== undefined ? body.name.trim() : current.name,
        number,
        email: body.email !== undefined ? (body.email?.trim() ?? '') : current.email,
      });
      if (!row) throw new DomainError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
      const item = itemView(row);
      const ids = await this.outbox.add(tx, [listEvent(companyId, item.contactListId, { action: 'item', item })]);
      return { item, ids, renumbered: number !== current.number };
    });
    await this.outbox.flush(ids);
    if (renumbered) this.checker.wake();
    return item;
  }

  async remove(companyId: number, id: number): Promise<void> {
    const ids = await this.repo.transaction(async (tx) => {
      const current = await this.repo.item(companyId, id, tx);
      if (!current || !(await this.repo.deleteItem(tx, companyId, id))) throw new DomainError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
      return this.outbox.add(tx, [listEvent(companyId, current.contactListId, { action: 'item-delete', itemId: id })]);
    });
    await this.outbox.flush(ids);
  }

  private async refuseTaken(tx: EntityManager, listId: number, number: string, exceptId?: number): Promise<void> {
    if (await this.repo.numberTaken(tx, listId, phoneNumberVariants(number), exceptId))
      throw new DomainError('ERR_DUPLICATED_LIST_ITEM', { details: [{ field: 'number', messages: ['ERR_DUPLICATED_LIST_ITEM'] }] });
  }
}
