import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ContactsImportReport } from '@wa/contracts';
import { format } from '@fast-csv/format';
import { exportCell } from '@wa/server-kit';
import { canonicalPhoneNumber } from '@wa/domain';
import { isEmail } from 'class-validator';
import type { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { ContactEntity } from '../../database/entities/index.js';
import type { Caller } from '../../identity/caller.service.js';
import { Outbox } from '../../outbox/outbox.service.js';
import { contactUpdated, ContactsService, contactView } from './contacts.service.js';
import type { SheetRow } from './contacts-spreadsheet.js';
import { UPSERT_CONTACTS } from './contacts-transfer.queries.js';
import { contactsAfter } from './contacts.queries.js';

/** Rows written per statement (and per transaction) of an import. */
const IMPORT_BATCH = 500;
/** Rows read per query of an export. */
const EXPORT_BATCH = 1000;

interface GoodRow {
  name: string;
  number: string;
  email: string;
}

/** What is wrong with a sheet row, in the form's own words (spec 01 §5); null when nothing is. */
export function rowProblem(row: SheetRow): string | null {
  if (!row.name) return 'Required';
  if (row.name.length < 2) return 'Too Short!';
  if (row.name.length > 50) return 'Too Long!';
  if (!row.number) return 'Required';
  if (!canonicalPhoneNumber(row.number)) return 'ERR_WAPP_INVALID_CONTACT';
  if (row.email && (row.email.length > 200 || !isEmail(row.email))) return 'Invalid email';
  return null;
}

/**
 * Contacts in and out in bulk (spec 02 §2 contacts page): a spreadsheet's good rows are created, or
 * update the contact with that number (name, and email when the row has one); each bad row is reported
 * with its row number and reason and nothing of it is written. Export: every contact of the company as
 * CSV with a semicolon separator, streamed in batches (never the whole list in memory).
 */
@Injectable()
export class ContactsTransfer {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: Outbox,
    private readonly contacts: ContactsService,
  ) {}

  /** `keepNames`: a known contact keeps its name unless it is only its number (a phone's address book). */
  async importRows(caller: Caller, rows: SheetRow[], opts: { keepNames?: boolean } = {}): Promise<ContactsImportReport> {
    const report: ContactsImportReport = { created: 0, updated: 0, failed: [] };
    const good = new Map<string, GoodRow>();
    for (const row of rows) {
      const problem = rowProblem(row);
      if (problem) {
        report.failed.push({ row: row.row, number: row.number, error: problem });
        continue;
      }
      const number = canonicalPhoneNumber(row.number) as string;
      good.delete(number); // a number twice: the later row wins
      good.set(number, { name: row.name, number, email: row.email });
    }
    const all = [...good.values()];
    for (let i = 0; i < all.length; i += IMPORT_BATCH) {
      const batch = all.slice(i, i + IMPORT_BATCH);
      const { created, updated, outboxIds } = await this.db.transaction(async (tx) => {
        const written: Array<ContactEntity & { inserted: boolean }> = await tx.query(UPSERT_CONTACTS, [
          caller.companyId,
          batch.map((r) => r.name),
          batch.map((r) => r.number),
          batch.map((r) => r.email),
          opts.keepNames === true,
        ]);
        const outboxIds = await this.outbox.add(
          tx,
          written.map((c) => contactUpdated(contactView(c))),
        );
        const created = written.filter((c) => c.inserted).length;
        return { created, updated: written.length - created, outboxIds };
      });
      await this.outbox.flush(outboxIds);
      report.created += created;
      report.updated += updated;
    }
    report.failed.sort((a, b) => a.row - b.row);
    if (all.length > 0) await this.contacts.countChanged(caller.companyId);
    return report;
  }

  /**
   * Writes the company's contacts as CSV (name;number;email) to `out`, batch by batch; a cell that would
   * run as a formula (a name from a WhatsApp profile such as `=HYPERLINK(...)`) is written as text.
   */
  async exportCsv(caller: Caller, out: Writable): Promise<void> {
    const csv = format({ delimiter: ';', headers: ['name', 'number', 'email'], writeBOM: true });
    csv.pipe(out);
    let after = 0;
    for (;;) {
      const rows = await contactsAfter(this.db, caller.companyId, after, EXPORT_BATCH);
      for (const c of rows) {
        if (!csv.write({ name: exportCell(c.name), number: exportCell(c.number), email: exportCell(c.email) }))
          await new Promise((resolve) => csv.once('drain', resolve));
      }
      const last = rows[rows.length - 1];
      if (!last || rows.length < EXPORT_BATCH) break;
      after = last.id;
    }
    csv.end();
    await new Promise<void>((resolve, reject) => {
      out.once('finish', resolve);
      out.once('close', resolve);
      out.once('error', reject);
    });
  }
}
