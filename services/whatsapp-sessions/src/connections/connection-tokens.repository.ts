import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Not, type EntityManager } from 'typeorm';
import { ConnectionEntity } from '../database/entities/connection.entity.js';

/**
 * The connections' API tokens, across companies: a token is unique on the whole platform and the public API finds
 * its connection by the token's lookup hash alone (the company comes from the connection).
 */
@Injectable()
export class ConnectionTokensRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The connection whose token has this lookup hash. */
  byHash(tokenHash: string): Promise<Pick<ConnectionEntity, 'id' | 'companyId' | 'status'> | null> {
    return this.db.getRepository(ConnectionEntity).findOne({ where: { tokenHash }, select: { id: true, companyId: true, status: true } });
  }

  /** Some connection of any company has a token of this lookup hash. */
  async taken(tokenHash: string, manager?: EntityManager): Promise<boolean> {
    const taken = await (manager ?? this.db.manager).query(`SELECT 1 FROM whatsapp.connections WHERE "tokenHash" = $1 LIMIT 1`, [
      tokenHash,
    ]);
    return (taken as unknown[]).length > 0;
  }

  /** Connections with a token but no lookup hash (stored before tokens were sealed). */
  withoutHash(): Promise<Array<Pick<ConnectionEntity, 'id' | 'token'>>> {
    return this.db
      .getRepository(ConnectionEntity)
      .find({ where: { token: Not(IsNull()), tokenHash: IsNull() }, select: { id: true, token: true } });
  }

  /** Stores a connection's token as sealed, with its lookup hash. */
  async store(id: number, sealed: { token: string | null; tokenHash: string | null }): Promise<void> {
    await this.db.getRepository(ConnectionEntity).update({ id }, sealed);
  }
}
