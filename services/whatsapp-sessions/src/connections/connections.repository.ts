import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { TenantScopedRepository } from '@wa/database';
import { currentContext } from '@wa/server-kit';
import { DataSource, Not, type EntityManager } from 'typeorm';
import { ConnectionEntity } from '../database/entities/connection.entity.js';
import { rowsOf } from '../database/sql.js';

/** A company's list is small; this bounds it anyway. */
export const CONNECTIONS_LIST_CAP = 500;
const MAX_INT = 2_147_483_647;

/** Connections of the caller's company; every query carries its companyId. */
@Injectable()
export class ConnectionsRepository extends TenantScopedRepository<ConnectionEntity> {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super(db.manager, ConnectionEntity, () => currentContext()?.companyId);
  }

  list(): Promise<ConnectionEntity[]> {
    return this.find({}, { order: { id: 'ASC' }, take: CONNECTIONS_LIST_CAP });
  }

  /** An id that cannot exist (not a positive int4) finds nothing instead of failing in SQL. */
  byId(id: number, manager?: EntityManager): Promise<ConnectionEntity | null> {
    if (!Number.isSafeInteger(id) || id < 1 || id > MAX_INT) return Promise.resolve(null);
    return this.findOne({ id }, {}, manager);
  }

  count(manager?: EntityManager): Promise<number> {
    return this.repo(manager).countBy(this.scoped());
  }

  /** Serialises the company's connection writes (first-default, one-default rules) until the transaction ends. */
  async lockCompany(tx: EntityManager): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('whatsapp.connections'), $1)`, [this.companyId]);
  }

  /** The caller's company (the one every query here is scoped to). */
  company(): number {
    return this.companyId;
  }

  /** Clears the default flag of the company's other connections; answers the rows it changed. */
  async unsetDefaults(tx: EntityManager, exceptId?: number): Promise<ConnectionEntity[]> {
    const raw = await tx.query(
      `UPDATE whatsapp.connections SET "isDefault" = false, "updatedAt" = now()
        WHERE "companyId" = $1 AND "isDefault" AND id <> $2 RETURNING *`,
      [this.companyId, exceptId ?? 0],
    );
    return rowsOf<ConnectionEntity>(raw);
  }

  /** Makes the company's oldest remaining connection the default; answers it, or null when none is left. */
  async promoteOldest(tx: EntityManager): Promise<ConnectionEntity | null> {
    const raw = await tx.query(
      `UPDATE whatsapp.connections SET "isDefault" = true, "updatedAt" = now()
        WHERE id = (SELECT id FROM whatsapp.connections WHERE "companyId" = $1 ORDER BY id LIMIT 1)
          AND NOT EXISTS (SELECT 1 FROM whatsapp.connections WHERE "companyId" = $1 AND "isDefault")
        RETURNING *`,
      [this.companyId],
    );
    return rowsOf<ConnectionEntity>(raw)[0] ?? null;
  }

  /** Another connection of the company has this name (case-insensitive)? */
  async nameTaken(name: string, exceptId: number | undefined, manager?: EntityManager): Promise<boolean> {
    const qb = this.repo(manager)
      .createQueryBuilder('c')
      .where('c.companyId = :companyId', { companyId: this.companyId })
      .andWhere('lower(c.name) = :name', { name: name.toLowerCase() });
    if (exceptId) qb.andWhere('c.id <> :id', { id: exceptId });
    return qb.getExists();
  }

  async save(entity: ConnectionEntity, manager?: EntityManager): Promise<ConnectionEntity> {
    if (entity.companyId !== this.companyId) throw new Error('connection of another company');
    return this.repo(manager).save(entity);
  }

  others(id: number, manager?: EntityManager): Promise<number> {
    return this.repo(manager).countBy(this.scoped({ id: Not(id) }));
  }
}
