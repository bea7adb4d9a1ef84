import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { PlanEntity } from '../database/entities/plan.entity.js';

/** The platform's plans (`billing.plans`); a plan belongs to no company. */
@Injectable()
export class PlansRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every plan, by id. */
  everyPlan(tx: EntityManager): Promise<PlanEntity[]> {
    return tx.getRepository(PlanEntity).find({ order: { id: 'ASC' } });
  }

  /** The plans offered at sign-up, cheapest first. */
  listPublic(): Promise<PlanEntity[]> {
    return this.db.getRepository(PlanEntity).find({ where: { isPublic: true }, order: { value: 'ASC', id: 'ASC' } });
  }

  /** Every plan, by name whatever its case, then id. */
  byName(): Promise<PlanEntity[]> {
    return this.db.getRepository(PlanEntity).createQueryBuilder('p').orderBy('lower(p.name)').addOrderBy('p.id').getMany();
  }

  /** With `lock`, locked to the end of the transaction. */
  find(manager: EntityManager, id: number, lock = false): Promise<PlanEntity | null> {
    return manager.getRepository(PlanEntity).findOne({ where: { id }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  /** Inserts a plan; answers it as stored (defaults filled in). */
  async insert(tx: EntityManager, plan: Partial<PlanEntity> & { name: string }): Promise<PlanEntity> {
    await tx.getRepository(PlanEntity).insert(plan);
    return tx.getRepository(PlanEntity).findOneByOrFail({ name: plan.name });
  }

  async update(tx: EntityManager, id: number, patch: Partial<PlanEntity>): Promise<void> {
    await tx.getRepository(PlanEntity).update({ id }, patch);
  }

  async delete(tx: EntityManager, id: number): Promise<void> {
    await tx.getRepository(PlanEntity).delete({ id });
  }

  /** Whether another plan (not `exceptId`) has this name, whatever its case. */
  async nameTaken(tx: EntityManager, name: string, exceptId?: number): Promise<boolean> {
    const [taken] = await tx.query(`SELECT id FROM billing.plans WHERE lower(name) = lower($1) AND id IS DISTINCT FROM $2 LIMIT 1`, [
      name,
      exceptId ?? null,
    ]);
    return !!taken;
  }
}
