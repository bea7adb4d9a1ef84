import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  TicketSubjects,
  type ContactCreated,
  type ContactDeletedEvent,
  type ContactDto,
  type ContactsPage,
  type ContactUpdatedEvent,
  type TicketDeletedEvent,
} from '@wa/contracts';
import { isUniqueViolation } from '@wa/database';
import { DomainError, InjectRedis, MediaStorage, dropFiles } from '@wa/server-kit';
import { canonicalPhoneNumber, companyTimeZone, lidOfAddress, shownNumber, startOfDayIn, TIME_ZONE_SETTING } from '@wa/domain';
import { scheduleFilesOf, storedFilesOf } from '../media/media-files.queries.js';
import { addDays } from 'date-fns';
import type { Redis } from 'ioredis';
import { DataSource, type EntityManager } from 'typeorm';
import { ContactEntity, TicketEntity } from '../../database/entities/index.js';
import type { Caller } from '../../identity/caller.service.js';
import { Outbox, type OutgoingEvent } from '../../outbox/outbox.service.js';
import { ReadModels } from '../../read-models/read-models.repository.js';
import type { CreateContactDto, ListContactsQueryDto, UpdateContactDto } from './contacts.dto.js';
import { WhatsappCheck } from './whatsapp-check.service.js';
import { contactByNumber, contactsByName, contactsFilter, contactsPage, countContacts } from './contacts.queries.js';

export const CONTACTS_PAGE_SIZE = 20;
/** A filter matching at most this many rows is served by its own index, then sorted (see page). */
const NARROW_FILTER = 5000;
/** How long a company's contact count is reused (seconds). */
const COUNT_TTL_S = 30;
const countKey = (companyId: number) => `tickets:contacts:count:${companyId}`;
/** `/contacts/list` feeds pickers: the first this many by name */
export const CONTACTS_LIST_LIMIT = 1000;

export function contactView(c: ContactEntity): ContactDto {
  return {
    id: c.id,
    companyId: c.companyId,
    name: c.name,
    // a customer WhatsApp names only by a LID has no number to show (its address is no phone number)
    number: shownNumber(c.number),
    email: c.email,
    profilePicUrl: c.profilePicUrl,
    isGroup: c.isGroup,
    extraInfo: c.extraInfo ?? [],
    isWhatsappValid: c.isWhatsappValid ?? null,
    lid: c.lid ?? lidOfAddress(c.number),
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}

/** A typed number as stored: canonical, or refused with the field named. */
export function contactNumber(typed: string): string {
  const number = canonicalPhoneNumber(typed);
  if (!number)
    throw new DomainError('ERR_WAPP_INVALID_CONTACT', { details: [{ field: 'number', messages: ['ERR_WAPP_INVALID_CONTACT'] }] });
  return number;
}

export const contactUpdated = (contact: ContactDto): OutgoingEvent => ({
  subject: TicketSubjects.contactUpdated(contact.companyId, contact.id),
  msgId: `contact-updated:${contact.id}:${Date.parse(contact.updatedAt)}`,
  payload: { companyId: contact.companyId, contact } satisfies ContactUpdatedEvent,
});

/**
 * Contacts of spec 01 (§2 contacts page and modal, §3, §5, §7): paged and searched by name, number or
 * email, created and edited with their extra info, deleted by admins with their tickets. Numbers are kept
 * in one canonical form (`canonicalPhoneNumber`), so a number typed in any format, or WhatsApp's old form
 * of a Brazilian mobile, is one contact. Every change goes out as `contact.*` through the outbox.
 */
@Injectable()
export class ContactsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: Outbox,
    private readonly readModels: ReadModels,
    private readonly whatsapp: WhatsappCheck,
    @InjectRedis() private readonly redis: Redis,
    private readonly storage: MediaStorage,
  ) {}

  /**
   * A page by name with the count of all that match. The rows are found through the (companyId,
   * sortName, id) index, walked index-only to the page; when a filter leaves few rows (the count says so),
   * they are taken by the filter's own index and sorted instead. The count of a company's whole list is
   * kept in Redis for a while (our writes clear it; contacts arriving with messages show within
   * COUNT_TTL_S); a filtered count is exact.
   */
  async page(caller: Caller, query: ListContactsQueryDto): Promise<ContactsPage> {
    const term = query.searchParam?.trim().toLowerCase();
    let from: Date | undefined;
    let to: Date | undefined;
    if (query.date || query.dateStart || query.dateEnd) {
      const zone = companyTimeZone(await this.readModels.setting(caller.companyId, TIME_ZONE_SETTING));
      const first = query.date ?? query.dateStart;
      const last = query.date ?? query.dateEnd;
      if (first) from = startOfDayIn(first, zone);
      if (last) to = addDays(startOfDayIn(last, zone), 1);
    }
    const filter = contactsFilter(caller.companyId, term || undefined, from, to);
    const count = filter.filtered ? await countContacts(this.db, filter) : await this.companyCount(caller.companyId);
    const rows = await contactsPage(
      this.db,
      filter,
      filter.filtered && count <= NARROW_FILTER,
      ((query.pageNumber ?? 1) - 1) * CONTACTS_PAGE_SIZE,
      CONTACTS_PAGE_SIZE + 1,
    );
    return {
      contacts: rows.slice(0, CONTACTS_PAGE_SIZE).map(contactView),
      hasMore: rows.length > CONTACTS_PAGE_SIZE,
      count: Math.max(count, rows.length),
    };
  }

  /** How many contacts a company has (cached; see page). */
  private async companyCount(companyId: number): Promise<number> {
    const key = countKey(companyId);
    const cached = await this.redis.get(key).catch(() => null);
    if (cached !== null) return Number(cached);
    const n = await countContacts(this.db, contactsFilter(companyId, undefined, undefined, undefined));
    await this.redis.set(key, String(n), 'EX', COUNT_TTL_S).catch(() => undefined);
    return n;
  }

  /** After our own writes, the next page counts again. */
  async countChanged(companyId: number): Promise<void> {
    await this.redis.del(countKey(companyId)).catch(() => undefined);
  }

  async list(caller: Caller): Promise<ContactDto[]> {
    const rows = await contactsByName(this.db, caller.companyId, CONTACTS_LIST_LIMIT);
    return rows.map(contactView);
  }

  async get(caller: Caller, id: number): Promise<ContactDto> {
    return contactView(await this.find(caller.companyId, id));
  }

  /**
   * A new contact, checked on WhatsApp through the company's default connection. A number that is already
   * a contact's answers that contact (`alreadyExists`), unchanged; `invalido` says WhatsApp does not know it.
   */
  async create(caller: Caller, dto: CreateContactDto): Promise<ContactCreated> {
    const number = contactNumber(dto.number);
    const existing = await this.byNumber(caller.companyId, number);
    if (existing) return this.alreadyExists(existing);
    const valid = await this.whatsapp.isOnWhatsapp(caller.companyId, number);
    try {
      const contact = await this.write(async (tx) => {
        const repo = tx.getRepository(ContactEntity);
        return repo.save(
          repo.create({
            companyId: caller.companyId,
            name: dto.name.trim(),
            number,
            email: dto.email?.trim() ?? '',
            extraInfo: cleanExtraInfo(dto.extraInfo),
            isWhatsappValid: valid,
          }),
        );
      });
      await this.countChanged(caller.companyId);
      return { ...contact, invalido: valid === false };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // created meanwhile (an inbound message, another tab)
      const winner = await this.byNumber(caller.companyId, number);
      if (!winner) throw err;
      return this.alreadyExists(winner);
    }
  }

  async update(caller: Caller, id: number, dto: UpdateContactDto): Promise<ContactDto> {
    const current = await this.find(caller.companyId, id);
    const patch: Partial<ContactEntity> = {};
    if (dto.name !== undefined) patch.name = dto.name.trim();
    if (dto.email !== undefined) patch.email = dto.email?.trim() ?? '';
    if (dto.extraInfo !== undefined) patch.extraInfo = cleanExtraInfo(dto.extraInfo);
    if (dto.number !== undefined && !current.isGroup) {
      const number = contactNumber(dto.number);
      if (number !== current.number) {
        const other = await this.byNumber(caller.companyId, number);
        if (other && other.id !== current.id)
          throw new DomainError('ERR_DUPLICATED_CONTACT', { details: [{ field: 'number', messages: ['ERR_DUPLICATED_CONTACT'] }] });
        patch.number = number;
        // a LID's contact given its number keeps its LID: a later bare-LID message still finds it
        const lid = lidOfAddress(current.number);
        if (lid !== null && !current.lid) patch.lid = lid;
        patch.isWhatsappValid = await this.whatsapp.isOnWhatsapp(caller.companyId, number);
      }
    }
    try {
      return await this.write(async (tx) => {
        await tx.getRepository(ContactEntity).update({ id, companyId: caller.companyId }, { ...patch, updatedAt: new Date() });
        return (await tx.getRepository(ContactEntity).findOneBy({ id, companyId: caller.companyId })) as ContactEntity;
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw new DomainError('ERR_DUPLICATED_CONTACT', { details: [{ field: 'number', messages: ['ERR_DUPLICATED_CONTACT'] }] });
      throw err;
    }
  }

  /** Deletes a contact and its tickets (with their messages and notes); every open list hears of it. */
  async remove(caller: Caller, id: number): Promise<void> {
    await this.find(caller.companyId, id);
    const { outboxIds, files } = await this.db.transaction(async (tx) => {
      const tickets = await tx
        .getRepository(TicketEntity)
        .find({ where: { companyId: caller.companyId, contactId: id }, select: { id: true, queueId: true, userId: true } });
      const files = [
        ...(await storedFilesOf(
          tx,
          caller.companyId,
          tickets.map((t) => t.id),
        )),
        ...(await scheduleFilesOf(tx, caller.companyId, id)),
      ];
      await tx.getRepository(ContactEntity).delete({ id, companyId: caller.companyId });
      const events: OutgoingEvent[] = tickets.map((t) => ({
        subject: TicketSubjects.ticketDeleted(caller.companyId, t.id),
        msgId: `ticket-deleted:${t.id}`,
        payload: { companyId: caller.companyId, ticketId: t.id, queueId: t.queueId, userId: t.userId } satisfies TicketDeletedEvent,
      }));
      events.push({
        subject: TicketSubjects.contactDeleted(caller.companyId, id),
        msgId: `contact-deleted:${id}`,
        payload: { companyId: caller.companyId, contactId: id } satisfies ContactDeletedEvent,
      });
      return { outboxIds: await this.outbox.add(tx, events), files };
    });
    await this.outbox.flush(outboxIds);
    await this.countChanged(caller.companyId);
    await dropFiles(this.storage, files);
  }

  /** Records what WhatsApp said of a contact's number (a ticket opened with it asked again). */
  async recordCheck(companyId: number, id: number, valid: boolean): Promise<void> {
    await this.write(async (tx) => {
      await tx.getRepository(ContactEntity).update({ id, companyId }, { isWhatsappValid: valid, updatedAt: new Date() });
      return (await tx.getRepository(ContactEntity).findOneBy({ id, companyId })) as ContactEntity;
    });
  }

  async find(companyId: number, id: number): Promise<ContactEntity> {
    const row = Number.isSafeInteger(id) ? await this.db.getRepository(ContactEntity).findOneBy({ id, companyId }) : null;
    if (!row) throw new DomainError('ERR_NO_CONTACT_FOUND');
    return row;
  }

  /** The contact with this canonical number, or one stored under WhatsApp's old form of it. */
  byNumber(companyId: number, number: string, tx: EntityManager = this.db.manager): Promise<ContactEntity | null> {
    return contactByNumber(tx, companyId, number);
  }

  /** Runs a write and publishes the contact it answers, in the same transaction. */
  private async write(change: (tx: EntityManager) => Promise<ContactEntity>): Promise<ContactDto> {
    const { contact, outboxIds } = await this.db.transaction(async (tx) => {
      const contact = contactView(await change(tx));
      return { contact, outboxIds: await this.outbox.add(tx, [contactUpdated(contact)]) };
    });
    await this.outbox.flush(outboxIds);
    return contact;
  }

  private alreadyExists(existing: ContactEntity): ContactCreated {
    const view = contactView(existing);
    return { ...view, alreadyExists: true, existingContact: view, invalido: existing.isWhatsappValid === false };
  }
}

/** Extra-info rows as kept: trimmed names, rows without a name dropped. */
function cleanExtraInfo(rows: Array<{ name: string; value: string }> | undefined): Array<{ name: string; value: string }> {
  return (rows ?? []).map((r) => ({ name: r.name.trim(), value: r.value ?? '' })).filter((r) => r.name.length > 0);
}
