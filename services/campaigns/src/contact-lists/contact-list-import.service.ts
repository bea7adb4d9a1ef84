import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ContactListImportProgress } from '@wa/contracts';
import { DomainError, spreadsheetKind } from '@wa/server-kit';
import { isEmail } from 'class-validator';
import { Outbox } from '../platform/outbox.service.js';
import { importEvent, listEvent } from './contact-list-events.js';
import { readListSheet, type UploadedBuffer, type ListSheetRow } from './contact-list-sheet.js';
import { ContactListsRepository, type NewItem } from './contact-lists.repository.js';
import { listNumber } from './list-number.js';
import { NumberCheckWorker } from './number-check.worker.js';

/** Rows stored by one INSERT. */
export const IMPORT_BATCH = 1_000;
/** Progress goes out at most this often (and with the last batch). */
const PROGRESS_EVERY_MS = 500;

/** POST /contact-lists/{id}/upload: accepted, stored in the background. */
export interface ContactListImportAccepted {
  contactListId: number;
  /** the file's rows after the header; absent for an .xlsx, read after the answer (its progress says it) */
  total?: number;
}

/**
 * Imports a spreadsheet into a contact list (spec 02 §2, issue 40 item 2). The request reads and checks the file
 * (its type by its bytes, bounded, at most LIST_UPLOAD_MAX_ROWS rows) and answers at once; the rows are then
 * stored IMPORT_BATCH at a time (a number already in the list, or twice in the file, is skipped), and the
 * progress and the final counts (added, duplicates, invalid) go out live through the outbox with the batch that
 * made them. Stored items are checked on WhatsApp by the background check.
 */
@Injectable()
export class ContactListImport implements OnApplicationShutdown {
  private readonly logger = new Logger(ContactListImport.name);
  private readonly running = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly repo: ContactListsRepository,
    private readonly outbox: Outbox,
    private readonly checker: NumberCheckWorker,
  ) {}

  async start(companyId: number, listId: number, file: UploadedBuffer | undefined): Promise<ContactListImportAccepted> {
    if (!Number.isSafeInteger(listId) || !(await this.repo.list(companyId, listId))) throw new DomainError('ERR_NO_CONTACT_LIST_FOUND');
    // an .xlsx is checked by its bytes and its zip directory now (a bomb: 400 before anything is inflated) and read
    // after the answer; CSV and legacy .xls are read now (their header checked), which takes a moment only
    const late = file?.buffer?.length ? (await spreadsheetKind(file.buffer)) === 'xlsx' : false;
    const rows = late ? null : await readListSheet(file);
    const work = (rows ? this.store(companyId, listId, rows) : this.readAndStore(companyId, listId, file))
      .catch((err: unknown) => this.logger.error({ err: String(err), companyId, listId }, 'contact list import failed'))
      .finally(() => this.running.delete(work));
    this.running.add(work);
    return rows ? { contactListId: listId, total: rows.length } : { contactListId: listId };
  }

  /** An .xlsx read after the answer: a sheet it cannot use ends the import with the reason, live. */
  private async readAndStore(companyId: number, listId: number, file: UploadedBuffer | undefined): Promise<void> {
    let rows: ListSheetRow[];
    try {
      rows = await readListSheet(file);
    } catch (err) {
      const error = err instanceof DomainError ? err.message : 'The file could not be read.';
      const progress: ContactListImportProgress = {
        contactListId: listId,
        processed: 0,
        total: 0,
        added: 0,
        duplicates: 0,
        invalid: 0,
        done: true,
        error,
      };
      const ids = await this.repo.transaction((tx) => this.outbox.add(tx, [importEvent(companyId, progress)]));
      await this.outbox.flush(ids);
      return;
    }
    await this.store(companyId, listId, rows);
  }

  /** Imports under way end after their current batch (their last progress says so). */
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.running]);
  }

  private async store(companyId: number, listId: number, rows: ListSheetRow[]): Promise<void> {
    const progress: ContactListImportProgress = {
      contactListId: listId,
      processed: 0,
      total: rows.length,
      added: 0,
      duplicates: 0,
      invalid: 0,
      done: false,
    };
    const seen = new Set<string>();
    let lastSent = 0;
    let addedSinceSent = 0;
    for (let start = 0; start < rows.length || !progress.done; start += IMPORT_BATCH) {
      const batch: NewItem[] = [];
      for (const row of rows.slice(start, start + IMPORT_BATCH)) {
        const number = listNumber(row.number);
        const email = row.email;
        if (!number || (email !== '' && !isEmail(email))) progress.invalid++;
        else if (seen.has(number)) progress.duplicates++;
        else {
          seen.add(number);
          batch.push({ name: (row.name || number).slice(0, 50), number, email: email.slice(0, 255) });
        }
      }
      progress.processed = Math.min(rows.length, start + IMPORT_BATCH);
      const last = progress.processed >= rows.length || this.stopping;
      if (last) progress.done = true;
      if (last && this.stopping && progress.processed < rows.length) progress.error = 'stopped';
      const ids = await this.repo.transaction(async (tx) => {
        const added = batch.length ? await this.repo.insertMany(tx, companyId, listId, batch) : 0;
        if (added === 0 && batch.length && !(await this.repo.list(companyId, listId, tx))) {
          // the list was deleted meanwhile: nothing more to store
          progress.done = true;
          progress.error = 'list deleted';
        }
        progress.added += added;
        progress.duplicates += batch.length - added;
        addedSinceSent += added;
        if (!progress.done && Date.now() - lastSent < PROGRESS_EVERY_MS) return [];
        lastSent = Date.now();
        const events = [importEvent(companyId, { ...progress })];
        if (addedSinceSent > 0) events.push(listEvent(companyId, listId, { action: 'items' }));
        addedSinceSent = 0;
        return this.outbox.add(tx, events);
      });
      await this.outbox.flush(ids);
      if (batch.length) this.checker.wake();
      if (progress.done) break;
    }
    // rows are read once: let them go before the checks begin
    rows.length = 0;
  }
}
