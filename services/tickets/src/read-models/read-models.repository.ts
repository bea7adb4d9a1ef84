import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { CompanySettingEntity, ConnectionEntity } from '../database/entities/index.js';

/** The company setting holding its working hours in tickets' copy (auth's `company.schedules.updated`). */
export const COMPANY_SCHEDULES_KEY = 'schedules';

/** What tickets knows of connections and company settings, from their owners' events. */
@Injectable()
export class ReadModels {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** In a transaction, pass its manager: a second pool connection taken while holding one can starve the pool. */
  connection(companyId: number, id: number, manager: EntityManager = this.db.manager): Promise<ConnectionEntity | null> {
    return manager.getRepository(ConnectionEntity).findOneBy({ companyId, id });
  }

  defaultConnection(companyId: number, manager: EntityManager = this.db.manager): Promise<ConnectionEntity | null> {
    return manager.getRepository(ConnectionEntity).findOne({ where: { companyId }, order: { isDefault: 'DESC', id: 'ASC' } });
  }

  async setting(companyId: number, key: string, manager: EntityManager = this.db.manager): Promise<string | undefined> {
    return (await manager.getRepository(CompanySettingEntity).findOneBy({ companyId, key }))?.value;
  }

  /** One setting of several companies in one read: companyId → value (a company that has none of it is absent). */
  async settingOfCompanies(companyIds: readonly number[], key: string): Promise<Map<number, string>> {
    const rows = await this.db.getRepository(CompanySettingEntity).findBy({ companyId: In([...companyIds]), key });
    return new Map(rows.map((r) => [r.companyId, r.value]));
  }

  /** Several of a company's settings in one read: key → value (a key it has none of is absent). */
  async settings(companyId: number, keys: readonly string[], manager: EntityManager = this.db.manager): Promise<Map<string, string>> {
    const rows = await manager.getRepository(CompanySettingEntity).findBy({ companyId, key: In([...keys]) });
    return new Map(rows.map((r) => [r.key, r.value]));
  }
}
