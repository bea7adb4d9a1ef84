import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CompanySettingEntity, ConnectionEntity } from '../database/entities/index.js';

/** What tickets knows of connections and company settings, from their owners' events. */
@Injectable()
export class ReadModels {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  connection(companyId: number, id: number): Promise<ConnectionEntity | null> {
    return this.db.getRepository(ConnectionEntity).findOneBy({ companyId, id });
  }

  defaultConnection(companyId: number): Promise<ConnectionEntity | null> {
    return this.db.getRepository(ConnectionEntity).findOne({ where: { companyId }, order: { isDefault: 'DESC', id: 'ASC' } });
  }

  async setting(companyId: number, key: string): Promise<string | undefined> {
    return (await this.db.getRepository(CompanySettingEntity).findOneBy({ companyId, key }))?.value;
  }
}
