import { Injectable } from '@nestjs/common';
import {
  ADDRESS_BOOK_PAGE_MAX,
  sessionCommandSubject,
  type AddressBookCommand,
  type AddressBookEntry,
  type AddressBookPage,
  type ContactsImportReport,
  type ErrorCode,
} from '@wa/contracts';
import { EventBus, NoRespondersError, request } from '@wa/event-bus';
import { DomainError } from '@wa/server-kit';
import type { Caller } from '../../identity/caller.service.js';
import { ReadModels } from '../../read-models/read-models.repository.js';
import { ContactsTransfer } from './contacts-transfer.service.js';

/** Most contacts an import reads from a phone (a phone's address book rarely holds more). */
export const PHONE_IMPORT_MAX = 20_000;
const PAGE_TIMEOUT_MS = 15_000;

type Reply = { ok: true; result: AddressBookPage } | { ok: false; code?: ErrorCode; message?: string };

/**
 * POST /contacts/import: the phone's address book, read through the connection's session page by page,
 * imported like a spreadsheet (one number, one contact; names as the phone keeps them; bad numbers reported).
 */
@Injectable()
export class PhoneContacts {
  constructor(
    private readonly bus: EventBus,
    private readonly readModels: ReadModels,
    private readonly transfer: ContactsTransfer,
  ) {}

  async import(caller: Caller, whatsappId?: number): Promise<ContactsImportReport> {
    const connection = whatsappId
      ? await this.readModels.connection(caller.companyId, whatsappId)
      : await this.readModels.defaultConnection(caller.companyId);
    if (!connection) throw new DomainError(whatsappId ? 'ERR_NO_WAPP_FOUND' : 'ERR_NO_DEF_WAPP_FOUND');
    if (connection.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    const entries: AddressBookEntry[] = [];
    for (let page = 1; entries.length < PHONE_IMPORT_MAX; page++) {
      const command: AddressBookCommand = { action: 'contacts', page, pageSize: ADDRESS_BOOK_PAGE_MAX };
      let reply: Reply;
      try {
        reply = await request<Reply>(this.bus, sessionCommandSubject(connection.id), command, { timeoutMs: PAGE_TIMEOUT_MS });
      } catch (err) {
        if (err instanceof NoRespondersError) throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
        throw new DomainError('ERR_SERVICE_UNAVAILABLE', {}, 'The phone did not answer in time.');
      }
      if (!reply.ok)
        throw new DomainError(reply.code === 'ERR_WAPP_NOT_INITIALIZED' ? 'ERR_WAPP_NOT_INITIALIZED' : 'ERR_SERVICE_UNAVAILABLE');
      entries.push(...reply.result.contacts);
      if (!reply.result.hasMore) break;
    }
    const rows = entries
      .slice(0, PHONE_IMPORT_MAX)
      .map((e, i) => ({ row: i + 1, name: (e.name || e.number).trim().slice(0, 50), number: e.number, email: '' }));
    // names the company gave its contacts stay; the phone names the new ones and those known only by number
    return this.transfer.importRows(caller, rows, { keepNames: true });
  }
}
