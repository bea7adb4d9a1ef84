import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { likeEscaped } from '@wa/database';
import type { WorkingDay } from '@wa/domain';
import { DataSource, MoreThan, type EntityManager } from 'typeorm';
import { CompanyEntity } from '../database/entities/index.js';

/** The platform's companies (`auth.companies`) as super users list and edit them; not tenant-scoped. */
@Injectable()
export class CompaniesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page by name (case-insensitive), then id; `search` in the name or email. */
  async page(search: string | undefined, pageNumber: number, pageSize: number): Promise<{ rows: CompanyEntity[]; count: number }> {
    const qb = this.db.getRepository(CompanyEntity).createQueryBuilder('c').orderBy('lower(c.name)').addOrderBy('c.id');
    if (search) qb.where('(c.name ILIKE :s OR c.email ILIKE :s)', { s: `%${likeEscaped(search)}%` });
    const [rows, count] = await qb
      .take(pageSize)
      .skip((pageNumber - 1) * pageSize)
      .getManyAndCount();
    return { rows, count };
  }

  /** The first `limit` by name (case-insensitive), then id. */
  list(limit: number): Promise<CompanyEntity[]> {
    return this.db.getRepository(CompanyEntity).createQueryBuilder('c').orderBy('lower(c.name)').addOrderBy('c.id').take(limit).getMany();
  }

  /** Up to `limit` companies whose id is above `afterId`, by id (a page of billing's copy). */
  after(afterId: number, limit: number): Promise<CompanyEntity[]> {
    return this.db.getRepository(CompanyEntity).find({ where: { id: MoreThan(afterId) }, order: { id: 'ASC' }, take: limit });
  }

  /** With `lock`, locked to the end of the transaction. */
  find(manager: EntityManager, id: number, lock = false): Promise<CompanyEntity | null> {
    return manager
      .getRepository(CompanyEntity)
      .findOne({ where: { id }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  exists(id: number): Promise<boolean> {
    return this.db.getRepository(CompanyEntity).existsBy({ id });
  }

  async update(
    tx: EntityManager,
    id: number,
    patch: Partial<Pick<CompanyEntity, 'email' | 'phone' | 'status' | 'recurrence'>>,
  ): Promise<void> {
    await tx.getRepository(CompanyEntity).update({ id }, patch);
  }

  /** Writes back a company read (by `find`) and changed. */
  save(tx: EntityManager, company: CompanyEntity): Promise<CompanyEntity> {
    return tx.getRepository(CompanyEntity).save(company);
  }

  /** Deletes the company's own row (its rows elsewhere go first: deleteCompanyRows). */
  async delete(tx: EntityManager, id: number): Promise<void> {
    await tx.getRepository(CompanyEntity).delete({ id });
  }

  /** How many companies are on a plan. */
  countOnPlan(planId: number): Promise<number> {
    return this.db.getRepository(CompanyEntity).countBy({ planId });
  }

  async setSchedules(tx: EntityManager, id: number, schedules: WorkingDay[]): Promise<void> {
    await tx.getRepository(CompanyEntity).update({ id }, { schedules });
  }

  /**
   * Whether another company (not `exceptId`) has this name, whatever its case. Under a transaction lock held to
   * the commit, so two writes of one name cannot both pass.
   */
  async nameTaken(tx: EntityManager, name: string, exceptId?: number): Promise<boolean> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('auth.companies.name'))`);
    const [taken] = await tx.query(`SELECT id FROM auth.companies WHERE lower(name) = lower($1) AND id IS DISTINCT FROM $2 LIMIT 1`, [
      name,
      exceptId ?? null,
    ]);
    return !!taken;
  }

  /** The phone of a company being signed up. */
  async setPhone(tx: EntityManager, id: number, phone: string): Promise<void> {
    await tx.query(`UPDATE auth.companies SET phone = $2 WHERE id = $1`, [id, phone]);
  }
}
