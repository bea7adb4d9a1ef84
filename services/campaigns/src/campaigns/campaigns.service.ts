import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import type { CampaignDto, CampaignReport } from '@wa/contracts';
import {
  checkMediaFile,
  dropFiles,
  DomainError,
  exportCell,
  isMediaKey,
  MediaStorage,
  readUploaded,
  type UploadedDiskFile,
} from '@wa/server-kit';
import type { EntityManager } from 'typeorm';
import type { CampaignEntity } from '../database/entities/index.js';
import { CampaignLifecycle } from '../dispatch/campaign-lifecycle.js';
import { TicketsClient } from '../platform/tickets-client.js';
import { ConnectionsRepository } from '../platform/connections.repository.js';
import { CampaignRecords, campaignView } from '../records/campaign-records.js';
import type { CreateCampaignDto, ListCampaignsQueryDto, UpdateCampaignDto } from './campaigns.dto.js';
import { CampaignsRepository, type CampaignFields, type ShippingExportRow } from './campaigns.repository.js';
import { editability, MESSAGE_FIELDS } from './editability.js';

export const CAMPAIGNS_PAGE_SIZE = 20;
const EXPORT_BATCH = 1000;

type Detail = { field: string; messages: string[] };
const invalid = (details: Detail[]) =>
  new DomainError('ERR_VALIDATION', { details }, details.map((d) => `${d.field}: ${d.messages.join(', ')}`).join('; '));

const notEditable = (id: number, status: string, fields?: string[]) =>
  new DomainError('ERR_CAMPAIGN_NOT_EDITABLE', { campaignId: id, status, ...(fields ? { fields } : {}) });

/** The fields a PUT may carry besides the messages (what a CANCELADA campaign keeps as it is). */
const OTHER_FIELDS = ['name', 'confirmation', 'scheduledAt', 'whatsappId', 'contactListId', 'tagListId', 'fileListId'] as const;

const minuteOf = (d: Date | string | null): number | null => (d === null ? null : Math.floor(new Date(d).getTime() / 60_000));

/** A date in the past means now (the dispatcher starts it at once). */
const scheduleOf = (text: string | null | undefined, now: Date): Date | null => {
  if (text === undefined || text === null) return null;
  const at = new Date(text);
  return at.getTime() < now.getTime() ? now : at;
};

/**
 * Campaigns (spec 02 §7 "Campaigns"): without a date a campaign is INATIVA, with one PROGRAMADA (complete:
 * audience, connection, a message); the editability of §4 is checked on the locked row, so a start the
 * dispatcher makes at the same moment is never overwritten. Every change is announced in its transaction and
 * the dispatcher told after the commit (`armed`).
 */
@Injectable()
export class CampaignsService {
  private readonly logger = new Logger(CampaignsService.name);

  constructor(
    private readonly repo: CampaignsRepository,
    private readonly records: CampaignRecords,
    private readonly lifecycle: CampaignLifecycle,
    private readonly connections: ConnectionsRepository,
    private readonly storage: MediaStorage,
    private readonly tickets: TicketsClient,
  ) {}

  async page(companyId: number, query: ListCampaignsQueryDto): Promise<{ records: CampaignDto[]; hasMore: boolean; count: number }> {
    const pageNumber = query.pageNumber ?? 1;
    const offset = (pageNumber - 1) * CAMPAIGNS_PAGE_SIZE;
    const { rows, count } = await this.repo.page(companyId, query.searchParam?.trim() || null, CAMPAIGNS_PAGE_SIZE, offset);
    return { records: rows.map(campaignView), hasMore: count > offset + rows.length, count };
  }

  async get(companyId: number, id: number): Promise<CampaignDto> {
    const record = Number.isSafeInteger(id) ? await this.records.record(companyId, id) : null;
    if (!record) throw new DomainError('ERR_NO_CAMPAIGN_FOUND');
    return record;
  }

  async create(companyId: number, dto: CreateCampaignDto): Promise<CampaignDto> {
    const now = new Date();
    const scheduledAt = scheduleOf(dto.scheduledAt, now);
    const fields: CampaignFields & { name: string } = {
      name: dto.name.trim(),
      ...this.messagesOf(dto),
      confirmation: dto.confirmation ?? false,
      scheduledAt,
      whatsappId: dto.whatsappId ?? null,
      contactListId: dto.contactListId ?? null,
      tagListId: dto.tagListId ?? 'Nenhuma',
      fileListId: dto.fileListId ?? null,
      status: scheduledAt ? 'PROGRAMADA' : 'INATIVA',
    };
    await this.checkReferences(companyId, dto);
    if (fields.status === 'PROGRAMADA') this.checkComplete(fields);
    const record = await this.repo.transaction(async (tx) => {
      const id = await this.repo.insert(tx, companyId, fields);
      const created = (await this.records.record(companyId, id, tx)) as CampaignDto;
      await this.records.created(tx, created);
      return created;
    });
    this.records.flush();
    if (record.status === 'PROGRAMADA') await this.arm(companyId, record.id);
    return record;
  }

  async update(companyId: number, id: number, dto: UpdateCampaignDto): Promise<CampaignDto> {
    await this.checkReferences(companyId, dto);
    const { record, rearm } = await this.repo.transaction(async (tx) => {
      const current = await this.lockedOrThrow(tx, companyId, id);
      const now = new Date();
      const may = editability(current, now);
      if (may === 'none') throw notEditable(id, current.status);
      const patch: CampaignFields = this.messagesOf(dto);
      if (may === 'messages') {
        const changed = OTHER_FIELDS.filter((f) => dto[f] !== undefined && !this.same(current, f, dto[f]));
        if (changed.length) throw notEditable(id, current.status, changed);
      } else {
        if (dto.name !== undefined) patch.name = dto.name.trim();
        if (dto.confirmation !== undefined) patch.confirmation = dto.confirmation;
        if (dto.whatsappId !== undefined) patch.whatsappId = dto.whatsappId;
        if (dto.contactListId !== undefined) patch.contactListId = dto.contactListId;
        if (dto.tagListId !== undefined) patch.tagListId = dto.tagListId;
        if (dto.fileListId !== undefined) patch.fileListId = dto.fileListId;
        if (dto.scheduledAt !== undefined)
          patch.scheduledAt = this.same(current, 'scheduledAt', dto.scheduledAt) ? current.scheduledAt : scheduleOf(dto.scheduledAt, now);
        const next = { ...current, ...patch };
        // a date makes it PROGRAMADA, no date INATIVA (spec 02 §4)
        patch.status = next.scheduledAt ? 'PROGRAMADA' : 'INATIVA';
        if (patch.status === 'PROGRAMADA') this.checkComplete({ ...next, status: patch.status });
        // a start armed for the old schedule or state no longer fires
        if (patch.status !== current.status || next.scheduledAt?.getTime() !== current.scheduledAt?.getTime())
          patch.version = current.version + 1;
      }
      // a stopped campaign's form sent back unchanged changes nothing
      if (Object.keys(patch).length) await this.repo.update(tx, companyId, id, patch);
      const record = (await this.records.changed(tx, companyId, id)) as CampaignDto;
      return { record, rearm: current.status === 'PROGRAMADA' || record.status === 'PROGRAMADA' };
    });
    this.records.flush();
    if (rearm) await this.arm(companyId, id);
    return record;
  }

  /** A running campaign is stopped first (POST /campaigns/{id}/cancel); any other goes with its rows and file. */
  async remove(companyId: number, id: number): Promise<void> {
    const removed = await this.repo.transaction(async (tx) => {
      const current = await this.lockedOrThrow(tx, companyId, id);
      if (current.status === 'EM_ANDAMENTO') throw notEditable(id, current.status);
      await this.repo.delete(tx, companyId, id);
      await this.records.deleted(tx, companyId, id);
      return current;
    });
    this.records.flush();
    if (removed.status === 'PROGRAMADA') await this.arm(companyId, id);
    await this.dropFile(removed.mediaPath);
  }

  /**
   * The campaign's attachment (multipart `file`), checked by its bytes like chat media and kept under
   * `<companyId>/campaign-<id>-<uuid>/<name>`; only while the campaign may change in full.
   */
  async attachMedia(companyId: number, id: number, file: UploadedDiskFile | undefined): Promise<CampaignDto> {
    await this.mayChangeMedia(companyId, id);
    if (!file) throw invalid([{ field: 'file', messages: ['Obrigatório'] }]);
    const checked = await checkMediaFile(file, 'file');
    const key = `${companyId}/campaign-${id}-${randomUUID()}/${checked.fileName}`;
    await this.storage.put(key, readUploaded(file));
    let previous: string | null;
    let record: CampaignDto;
    try {
      ({ previous, record } = await this.setMedia(companyId, id, key, checked.fileName));
    } catch (err) {
      await this.storage.delete(key).catch(() => undefined);
      throw err;
    }
    await this.dropFile(previous);
    return record;
  }

  async detachMedia(companyId: number, id: number): Promise<CampaignDto> {
    const { previous, record } = await this.setMedia(companyId, id, null, null);
    await this.dropFile(previous);
    return record;
  }

  async report(companyId: number, id: number): Promise<CampaignReport> {
    await this.get(companyId, id);
    return this.records.report(companyId, id);
  }

  /**
   * The campaign's rows as CSV (semicolon-separated, like the contacts export), page by page to `out`; every
   * cell through exportCell (a contact's name such as `=HYPERLINK(…)` is written as text).
   */
  async exportCsv(companyId: number, id: number, out: Writable): Promise<void> {
    const header = [
      'number',
      'name',
      'email',
      'status',
      'message',
      'sentAt',
      'deliveredAt',
      'readAt',
      'failedAt',
      'failedReason',
      'confirmationMessage',
      'confirmationRequestedAt',
      'confirmedAt',
    ];
    // a client that goes away ends the export (no wait for a drain that never comes)
    const write = async (text: string) => {
      if (!out.write(text) && !out.destroyed)
        await new Promise<void>((resolve) => {
          const done = () => {
            out.off('drain', done);
            out.off('close', done);
            resolve();
          };
          out.once('drain', done);
          out.once('close', done);
        });
    };
    await write(`\uFEFF${header.map(csvCell).join(';')}\r\n`);
    let after = '0';
    for (;;) {
      const rows = await this.repo.shippingsAfter(companyId, id, after, EXPORT_BATCH);
      if (rows.length) await write(rows.map(csvLine).join(''));
      if (rows.length < EXPORT_BATCH || out.destroyed) break;
      after = String(rows[rows.length - 1].id);
    }
    out.end();
  }

  /** POST /campaigns/{id}/cancel: the dispatcher stops it (another company's id: the same 404 as every route). */
  async cancel(companyId: number, id: number): Promise<CampaignDto> {
    await this.get(companyId, id);
    return this.lifecycle.cancel(companyId, id);
  }

  async restart(companyId: number, id: number): Promise<CampaignDto> {
    await this.get(companyId, id);
    return this.lifecycle.restart(companyId, id);
  }

  /** Tells the dispatcher after the commit; the change stands even when this fails (its sweep finds due campaigns). */
  private async arm(companyId: number, id: number): Promise<void> {
    await this.lifecycle
      .armed(companyId, id)
      .catch((err: unknown) => this.logger.warn({ err, campaignId: id }, 'campaign not armed now; the sweep will'));
  }

  private messagesOf(dto: CreateCampaignDto | UpdateCampaignDto): CampaignFields {
    const out: CampaignFields = {};
    for (const f of MESSAGE_FIELDS) if (dto[f] !== undefined) out[f] = dto[f];
    return out;
  }

  /** Whether a field a client sent is what the campaign has (dates to the minute: the form's date input has no seconds). */
  private same(current: CampaignEntity, field: (typeof OTHER_FIELDS)[number], value: unknown): boolean {
    if (field === 'scheduledAt') return minuteOf((value as string | null) ?? null) === minuteOf(current.scheduledAt);
    if (field === 'name') return String(value).trim() === current.name;
    return value === current[field];
  }

  /**
   * The connection, the contact list, the tag and the file list given must be the company's. tickets answers for
   * the tag and the file list; when it cannot be asked, they are let through (the start skips what is not there).
   */
  private async checkReferences(companyId: number, dto: CreateCampaignDto | UpdateCampaignDto): Promise<void> {
    if (dto.whatsappId && !(await this.connections.find(companyId, dto.whatsappId))) throw new DomainError('ERR_NO_WAPP_FOUND');
    if (dto.contactListId && !(await this.repo.contactListExists(companyId, dto.contactListId)))
      throw new DomainError('ERR_NO_CONTACT_LIST_FOUND');
    const tagId = dto.tagListId && /^\d+$/.test(dto.tagListId) ? Number(dto.tagListId) : null;
    const fileListId = dto.fileListId ?? null;
    try {
      if (tagId !== null && !(await this.tickets.tagExists(companyId, tagId))) throw new DomainError('ERR_NO_TAG_FOUND');
      if (fileListId !== null && !(await this.tickets.fileList(companyId, fileListId)))
        throw new DomainError('ERR_NOT_FOUND', { field: 'fileListId' }, 'File list not found.');
    } catch (err) {
      if (err instanceof DomainError) throw err;
      this.logger.warn(
        { companyId, err: (err as Error)?.message },
        'tickets not reachable: the tag and file list are checked at the start',
      );
    }
  }

  /** A scheduled campaign can be sent: an audience (a list or a tag), a connection, a message (and a confirmation text when asked). */
  private checkComplete(c: CampaignFields): void {
    const details: Detail[] = [];
    if (!c.contactListId && (!c.tagListId || c.tagListId === 'Nenhuma'))
      details.push({ field: 'contactListId', messages: ['Choose a contact list or a tag'] });
    if (!c.whatsappId) details.push({ field: 'whatsappId', messages: ['Required'] });
    const filled = (fields: readonly string[]) => fields.some((f) => String(c[f as keyof CampaignFields] ?? '').trim() !== '');
    if (!filled(MESSAGE_FIELDS.slice(0, 5))) details.push({ field: 'message1', messages: ['Required'] });
    if (c.confirmation && !filled(MESSAGE_FIELDS.slice(5))) details.push({ field: 'confirmationMessage1', messages: ['Required'] });
    if (details.length) throw invalid(details);
  }

  private async lockedOrThrow(tx: EntityManager, companyId: number, id: number): Promise<CampaignEntity> {
    const row = Number.isSafeInteger(id) ? await this.repo.locked(tx, companyId, id) : null;
    if (!row) throw new DomainError('ERR_NO_CAMPAIGN_FOUND');
    return row;
  }

  private async mayChangeMedia(companyId: number, id: number): Promise<void> {
    const c = await this.get(companyId, id);
    if (editability({ status: c.status, scheduledAt: c.scheduledAt }, new Date()) !== 'all') throw notEditable(id, c.status);
  }

  /** Sets (or clears) the attachment on the locked row, rechecking editability there. */
  private async setMedia(
    companyId: number,
    id: number,
    key: string | null,
    name: string | null,
  ): Promise<{ previous: string | null; record: CampaignDto }> {
    const out = await this.repo.transaction(async (tx) => {
      const current = await this.lockedOrThrow(tx, companyId, id);
      if (editability(current, new Date()) !== 'all') throw notEditable(id, current.status);
      await this.repo.update(tx, companyId, id, { mediaPath: key, mediaName: name });
      const record = (await this.records.changed(tx, companyId, id)) as CampaignDto;
      return { previous: current.mediaPath, record };
    });
    this.records.flush();
    return out;
  }

  private async dropFile(mediaPath: string | null): Promise<void> {
    if (mediaPath && isMediaKey(mediaPath)) await dropFiles(this.storage, [mediaPath]);
  }
}

/** A CSV cell: formula-safe, quoted when it holds the separator, a quote or a line break. */
function csvCell(value: string | number | Date | null | undefined): string {
  const text = exportCell(value instanceof Date ? value.toISOString() : value);
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const when = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function csvLine(r: ShippingExportRow): string {
  return (
    [
      r.number,
      r.name,
      r.email,
      r.status,
      r.message,
      when(r.sentAt),
      when(r.deliveredAt),
      when(r.readAt),
      when(r.failedAt),
      r.failedReason,
      r.confirmationMessage,
      when(r.confirmationRequestedAt),
      when(r.confirmedAt),
    ]
      .map(csvCell)
      .join(';') + '\r\n'
  );
}
