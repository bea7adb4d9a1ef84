import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { CompanySettingEntity, ConnectionEntity } from '../database/entities/index.js';

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
}
