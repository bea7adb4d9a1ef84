import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CampaignSubjects, type CampaignChangedEvent, type CampaignDto, type CampaignReport } from '@wa/contracts';
import { isMediaKey } from '@wa/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import type { CampaignEntity } from '../database/entities/index.js';
import { Outbox } from '../platform/outbox.service.js';
import { CAMPAIGN_ROW, REPORT_COUNTS } from './campaign-records.queries.js';

/** A campaign row with the names the list shows (its connection's and its contact list's). */
export type CampaignRow = CampaignEntity & { whatsappName: string | null; contactListName: string | null };

/** A file of ours is served at /media/<key> (the company's signed-in users only). */
const mediaUrlOf = (key: string | null): string | null => (!key ? null : isMediaKey(key) ? `/media/${key}` : key);

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** The record the API and the live events carry. */
export function campaignView(c: CampaignRow): CampaignDto {
  return {
    id: c.id,
    name: c.name,
    message1: c.message1,
    message2: c.message2,
    message3: c.message3,
    message4: c.message4,
    message5: c.message5,
    confirmationMessage1: c.confirmationMessage1,
    confirmationMessage2: c.confirmationMessage2,
    confirmationMessage3: c.confirmationMessage3,
    confirmationMessage4: c.confirmationMessage4,
    confirmationMessage5: c.confirmationMessage5,
    status: c.status,
    confirmation: c.confirmation,
    scheduledAt: iso(c.scheduledAt),
    completedAt: iso(c.completedAt),
    whatsappId: c.whatsappId,
    contactListId: c.contactListId,
    tagListId: c.tagListId,
    companyId: c.companyId,
    mediaPath: mediaUrlOf(c.mediaPath),
    mediaName: c.mediaName,
    fileListId: c.fileListId,
    statusReason: c.statusReason,
    whatsapp: c.whatsappId !== null && c.whatsappName !== null ? { id: c.whatsappId, name: c.whatsappName } : null,
    contactList: c.contactListId !== null && c.contactListName !== null ? { id: c.contactListId, name: c.contactListName } : null,
    createdAt: iso(c.createdAt) as string,
    updatedAt: iso(c.updatedAt) as string,
  };
}

/**
 * What the campaigns module and the dispatcher share: a campaign read as its record, its report counted from
 * its shipping rows, and its change announced (`campaign.changed`, through the outbox, in the caller's
 * transaction). Every method takes the company explicitly.
 */
@Injectable()
export class CampaignRecords {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: Outbox,
  ) {}

  async row(companyId: number, id: number, manager: EntityManager = this.db.manager): Promise<CampaignRow | null> {
    const rows = (await manager.query(CAMPAIGN_ROW, [companyId, id])) as CampaignRow[];
    return rows[0] ?? null;
  }

  async record(companyId: number, id: number, manager?: EntityManager): Promise<CampaignDto | null> {
    const row = await this.row(companyId, id, manager);
    return row ? campaignView(row) : null;
  }

  /**
   * The report (GET /campaigns/{id}/report): valid (not skipped as invalid), invalid, sent (the message left:
   * ack ≥ 1), delivered, read, failed, pending (still to go, rows waiting for a daily cap too), confirmations
   * requested and answered, opted out. Never "valid == delivered": each counts its own rows.
   */
  async report(companyId: number, id: number, manager: EntityManager = this.db.manager): Promise<CampaignReport> {
    const [r] = (await manager.query(REPORT_COUNTS, [companyId, id])) as Array<Record<keyof CampaignReport, string>>;
    const n = (k: keyof CampaignReport) => Number(r?.[k] ?? 0);
    return {
      valid: n('valid'),
      invalid: n('invalid'),
      sent: n('sent'),
      delivered: n('delivered'),
      read: n('read'),
      failed: n('failed'),
      pending: n('pending'),
      confirmationRequested: n('confirmationRequested'),
      confirmed: n('confirmed'),
      optedOut: n('optedOut'),
    };
  }

  /** Announces the campaign's new state (with its report when asked) in `tx`; published after commit. */
  async changed(tx: EntityManager, companyId: number, id: number, withReport = false): Promise<CampaignDto | null> {
    const record = await this.record(companyId, id, tx);
    if (!record) return null;
    const at = new Date().toISOString();
    const event: CampaignChangedEvent = {
      companyId,
      action: 'update',
      record,
      ...(withReport ? { report: await this.report(companyId, id, tx) } : {}),
      at,
    };
    await this.outbox.add(tx, [
      { subject: CampaignSubjects.changed(companyId, id), msgId: `campaign:${id}:${at}:${record.updatedAt}`, payload: event },
    ]);
    return record;
  }

  /** Announces a new campaign or a deleted one. */
  async created(tx: EntityManager, record: CampaignDto): Promise<void> {
    const at = new Date().toISOString();
    const event: CampaignChangedEvent = { companyId: record.companyId, action: 'create', record, at };
    await this.outbox.add(tx, [
      { subject: CampaignSubjects.changed(record.companyId, record.id), msgId: `campaign:${record.id}:create`, payload: event },
    ]);
  }

  async deleted(tx: EntityManager, companyId: number, id: number): Promise<void> {
    const at = new Date().toISOString();
    const event: CampaignChangedEvent = { companyId, action: 'delete', campaignId: id, at };
    await this.outbox.add(tx, [{ subject: CampaignSubjects.changed(companyId, id), msgId: `campaign:${id}:delete`, payload: event }]);
  }

  /** The data source's manager (a read outside a transaction). */
  manager(): EntityManager {
    return this.db.manager;
  }

  /** Flush the outbox after a commit (the relay publishes at once). */
  flush(): void {
    this.outbox.flush();
  }
}
