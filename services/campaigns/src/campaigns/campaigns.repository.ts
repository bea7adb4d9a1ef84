import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { likeEscaped } from '@wa/database';
import { DataSource, type EntityManager } from 'typeorm';
import { CampaignEntity, type ShippingEntity } from '../database/entities/index.js';
import type { CampaignRow } from '../records/campaign-records.js';
import { CAMPAIGN_FOR_UPDATE, CAMPAIGNS_COUNT, CAMPAIGNS_PAGE, CONTACT_LIST_EXISTS, SHIPPINGS_AFTER } from './campaigns.queries.js';

/** A shipping row as the CSV export writes it. */
export type ShippingExportRow = Pick<
  ShippingEntity,
  | 'id'
  | 'number'
  | 'name'
  | 'email'
  | 'status'
  | 'confirmationMessage'
  | 'confirmationRequestedAt'
  | 'confirmedAt'
  | 'message'
  | 'sentAt'
  | 'deliveredAt'
  | 'readAt'
  | 'failedAt'
  | 'failedReason'
>;

export type CampaignFields = Partial<Omit<CampaignEntity, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>>;

/** The campaigns table. Every method takes the company explicitly. */
@Injectable()
export class CampaignsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async page(companyId: number, search: string | null, limit: number, offset: number): Promise<{ rows: CampaignRow[]; count: number }> {
    const like = search ? `%${likeEscaped(search.toLowerCase())}%` : null;
    const [rows, counted] = await Promise.all([
      this.db.query(CAMPAIGNS_PAGE, [companyId, like, limit, offset]) as Promise<CampaignRow[]>,
      this.db.query(CAMPAIGNS_COUNT, [companyId, like]) as Promise<Array<{ count: number }>>,
    ]);
    return { rows, count: counted[0]?.count ?? 0 };
  }

  async locked(tx: EntityManager, companyId: number, id: number): Promise<CampaignEntity | null> {
    const rows = (await tx.query(CAMPAIGN_FOR_UPDATE, [companyId, id])) as CampaignEntity[];
    return rows[0] ?? null;
  }

  async insert(tx: EntityManager, companyId: number, fields: CampaignFields & { name: string }): Promise<number> {
    const repo = tx.getRepository(CampaignEntity);
    const saved = await repo.save(repo.create({ ...fields, companyId }));
    return saved.id;
  }

  async update(tx: EntityManager, companyId: number, id: number, fields: CampaignFields): Promise<void> {
    await tx.getRepository(CampaignEntity).update({ companyId, id }, fields);
  }

  async delete(tx: EntityManager, companyId: number, id: number): Promise<void> {
    await tx.getRepository(CampaignEntity).delete({ companyId, id });
  }

  async contactListExists(companyId: number, id: number): Promise<boolean> {
    return ((await this.db.query(CONTACT_LIST_EXISTS, [companyId, id])) as unknown[]).length > 0;
  }

  shippingsAfter(companyId: number, campaignId: number, afterId: string, limit: number): Promise<ShippingExportRow[]> {
    return this.db.query(SHIPPINGS_AFTER, [companyId, campaignId, afterId, limit]) as Promise<ShippingExportRow[]>;
  }
}
