import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CampaignSettingEntity } from '../database/entities/index.js';

/** A company's campaign settings (`campaigns.campaign_settings`, JSON text per key). */
@Injectable()
export class CampaignSettingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async values(companyId: number): Promise<Map<string, string>> {
    const rows = await this.db.getRepository(CampaignSettingEntity).find({ where: { companyId } });
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  /** Writes every key given, in one transaction. */
  async save(companyId: number, values: Record<string, string>): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const [key, value] of Object.entries(values)) {
        await tx
          .createQueryBuilder()
          .insert()
          .into(CampaignSettingEntity)
          .values({ companyId, key, value })
          .orUpdate(['value', 'updatedAt'], ['companyId', 'key'])
          .execute();
      }
    });
  }
}
