import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { deleteCompanyRows } from '@wa/database';
import { DataSource } from 'typeorm';
import { ConnectionEntity } from '../database/entities/connection.entity.js';

/** What whatsapp-sessions keeps of a company, read and deleted across companies (auth's `company.deleted`). */
@Injectable()
export class DeletedCompaniesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The ids of the company's connections. */
  async connectionIds(companyId: number): Promise<number[]> {
    const owned = await this.db.getRepository(ConnectionEntity).find({ where: { companyId }, select: { id: true } });
    return owned.map((c) => c.id);
  }

  /** In one transaction: the sessions' stored keys of these connections, then every row with the company's id. */
  async deleteRows(companyId: number, connectionIds: number[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (connectionIds.length > 0)
        await tx.query(`DELETE FROM whatsapp.session_state WHERE "connectionId" = ANY($1::int[])`, [connectionIds]);
      await deleteCompanyRows(tx, 'whatsapp', companyId);
    });
  }
}
