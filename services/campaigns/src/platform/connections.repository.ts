import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { WhatsappDto } from '@wa/contracts';
import { DataSource } from 'typeorm';
import { ConnectionCopyEntity } from '../database/entities/index.js';

/** The pace fields a connection carries (whatsapp-sessions adds them to WhatsappDto; absent: none). */
type WithPace = WhatsappDto & Partial<{ campaignDailyLimit: number; campaignWarmup: boolean; campaignHours: string }>;

/** campaigns' copy of the company's connections. Every read takes the company explicitly. */
@Injectable()
export class ConnectionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A later state of the connection (an older event never overwrites a newer one). */
  async keep(c: WithPace): Promise<void> {
    await this.db.query(
      `INSERT INTO campaigns.connections (id, "companyId", name, status, "isDefault", "campaignDailyLimit", "campaignWarmup", "campaignHours",
              "connectedSince", "createdAt", "updatedAt", deleted)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $4::varchar = 'CONNECTED' THEN now() END, $9, $10, false)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, status = EXCLUDED.status, "isDefault" = EXCLUDED."isDefault",
              "campaignDailyLimit" = EXCLUDED."campaignDailyLimit", "campaignWarmup" = EXCLUDED."campaignWarmup",
              "campaignHours" = EXCLUDED."campaignHours", "updatedAt" = EXCLUDED."updatedAt",
              "connectedSince" = CASE WHEN EXCLUDED.status = 'CONNECTED' THEN COALESCE(campaigns.connections."connectedSince", now()) END
        WHERE campaigns.connections."updatedAt" <= EXCLUDED."updatedAt" AND NOT campaigns.connections.deleted`,
      [
        c.id,
        c.companyId,
        c.name ?? '',
        c.status ?? '',
        c.isDefault ?? false,
        c.campaignDailyLimit ?? 0,
        c.campaignWarmup ?? false,
        c.campaignHours ?? '',
        c.createdAt ?? new Date().toISOString(),
        c.updatedAt ?? new Date().toISOString(),
      ],
    );
  }

  async markDeleted(companyId: number, id: number): Promise<void> {
    await this.db.query(`UPDATE campaigns.connections SET deleted = true WHERE id = $1 AND "companyId" = $2`, [id, companyId]);
  }

  find(companyId: number, id: number): Promise<ConnectionCopyEntity | null> {
    return this.db.getRepository(ConnectionCopyEntity).findOne({ where: { companyId, id, deleted: false } });
  }

  /** The connection the company's numbers are checked through: its default one if connected, else any connected. */
  async checker(companyId: number): Promise<ConnectionCopyEntity | null> {
    const rows = await this.db.getRepository(ConnectionCopyEntity).find({
      where: { companyId, deleted: false, status: 'CONNECTED' },
      order: { isDefault: 'DESC', id: 'ASC' },
      take: 1,
    });
    return rows[0] ?? null;
  }
}
