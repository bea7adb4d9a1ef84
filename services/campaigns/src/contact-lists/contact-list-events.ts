import {
  CampaignSubjects,
  type ContactListChangedEvent,
  type ContactListDto,
  type ContactListImportProgress,
  type ContactListItemDto,
} from '@wa/contracts';
import { randomUUID } from 'node:crypto';
import type { OutgoingEvent } from '../platform/outbox.service.js';
import type { ItemRow, ListRow } from './contact-lists.repository.js';

const iso = (d: Date | string) => new Date(d).toISOString();

export const listView = (l: ListRow): ContactListDto => ({
  id: l.id,
  name: l.name,
  companyId: l.companyId,
  contactsCount: Number(l.contactsCount ?? 0),
  createdAt: iso(l.createdAt),
  updatedAt: iso(l.updatedAt),
});

export const itemView = (i: ItemRow): ContactListItemDto => ({
  id: i.id,
  name: i.name,
  number: i.number,
  email: i.email,
  isWhatsappValid: i.isWhatsappValid ?? null,
  contactListId: i.contactListId,
  companyId: i.companyId,
  createdAt: iso(i.createdAt),
  updatedAt: iso(i.updatedAt),
});

type Body = ContactListChangedEvent extends infer E ? (E extends unknown ? Omit<E, 'companyId' | 'contactListId' | 'at'> : never) : never;

/** A ContactListChangedEvent on the list's subject (CampaignSubjects.list), for the outbox. */
export function listEvent(companyId: number, contactListId: number, body: Body): OutgoingEvent {
  const payload = { companyId, contactListId, ...body, at: new Date().toISOString() } as ContactListChangedEvent;
  return { subject: CampaignSubjects.list(companyId, contactListId), msgId: `contact-list:${contactListId}:${randomUUID()}`, payload };
}

export const importEvent = (companyId: number, progress: ContactListImportProgress): OutgoingEvent =>
  listEvent(companyId, progress.contactListId, { action: 'import', progress });
