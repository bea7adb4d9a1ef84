import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { signServiceToken } from '@wa/auth';
import { PlanSubjects, type PlanChangedEvent, type PlanDeletedEvent, type PublicPlanDto } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { BillingEnv } from '../config/env.js';
import { PlanEntity } from '../database/entities/plan.entity.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';
import type { CreatePlanDto, UpdatePlanDto } from './plans.dto.js';
import { PlansRepository } from './plans.repository.js';

export const planView = (p: PlanEntity): PublicPlanDto => ({
  id: p.id,
  name: p.name,
  users: p.users,
  connections: p.connections,
  queues: p.queues,
  value: p.value,
  useCampaigns: p.useCampaigns,
  useKanban: p.useKanban,
  useOpenAi: p.useOpenAi,
  useIntegrations: p.useIntegrations,
  useSchedules: p.useSchedules,
  useInternalChat: p.useInternalChat,
  useExternalApi: p.useExternalApi,
  isPublic: p.isPublic,
  trialDays: p.trialDays,
});

/** The fields a request gave (a DTO's absent optional fields are undefined properties). */
const given = <T extends object>(dto: T): Partial<T> =>
  Object.fromEntries(Object.entries(dto).filter(([, v]) => v !== undefined)) as Partial<T>;

/** `plan.updated`: its msg id changes with every change (a replay of the same state is dropped by the bus). */
export function planChanged(p: PlanEntity): OutgoingEvent {
  const payload: PlanChangedEvent = { plan: planView(p), at: p.updatedAt.toISOString() };
  return { subject: PlanSubjects.updated(p.id), msgId: `plan-updated:${p.id}:${p.updatedAt.getTime()}`, payload };
}

/**
 * Plans (spec 02): billing owns them. At start every plan is announced once more (the same ids: a copy
 * that already has them drops them), so a service that keeps a copy and lost it, or was added later, gets them.
 */
@Injectable()
export class PlansService implements OnApplicationBootstrap {
  private readonly log = new Logger(PlansService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly plans: PlansRepository,
    private readonly outbox: Outbox,
    private readonly env: BillingEnv,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      const ids = await this.db.transaction(async (tx) => this.announce(tx, await this.plans.everyPlan(tx)));
      await this.outbox.flush(ids);
    } catch (err) {
      this.log.warn({ err: (err as Error)?.message }, 'plans not announced at start');
    }
  }

  /** GET /plans/list (public): the plans offered at sign-up, cheapest first. */
  async listPublic(): Promise<PublicPlanDto[]> {
    const rows = await this.plans.listPublic();
    return rows.map(planView);
  }

  /** GET /plans/all (super users): every plan, by name. */
  async all(): Promise<PublicPlanDto[]> {
    const rows = await this.plans.byName();
    return rows.map(planView);
  }

  async get(id: number): Promise<PublicPlanDto> {
    return planView(await this.find(this.db.manager, id));
  }

  /** A new plan (spec 02 §9 defaults: no limits, price 0, every feature); announced to the services that copy plans. */
  async create(dto: CreatePlanDto): Promise<PublicPlanDto> {
    return this.save(async (tx) => {
      await this.assertFreeName(tx, dto.name);
      return this.plans.insert(tx, { ...given(dto), name: dto.name.trim() });
    });
  }

  async update(id: number, dto: UpdatePlanDto): Promise<PublicPlanDto> {
    return this.save(async (tx) => {
      await this.find(tx, id, true);
      if (dto.name !== undefined) await this.assertFreeName(tx, dto.name, id);
      await this.plans.update(tx, id, {
        ...given(dto),
        ...(dto.name !== undefined ? { name: dto.name.trim() } : {}),
        updatedAt: new Date(),
      });
      return this.find(tx, id);
    });
  }

  /** Deletes a plan no company is on (auth, which keeps the companies, is asked); refused with ERR_PLAN_IN_USE otherwise. */
  async remove(id: number): Promise<void> {
    await this.find(this.db.manager, id);
    if ((await this.companiesOn(id)) > 0) throw new DomainError('ERR_PLAN_IN_USE', { planId: id });
    const ids = await this.db.transaction(async (tx) => {
      const plan = await this.find(tx, id, true);
      await this.plans.delete(tx, id);
      const payload: PlanDeletedEvent = { planId: id, at: new Date().toISOString() };
      return this.outbox.add(tx, [{ subject: PlanSubjects.deleted(id), msgId: `plan-deleted:${id}:${plan.updatedAt.getTime()}`, payload }]);
    });
    await this.outbox.flush(ids);
  }

  announce(tx: EntityManager, plans: PlanEntity[]): Promise<string[]> {
    return this.outbox.add(tx, plans.map(planChanged));
  }

  private async save(write: (tx: EntityManager) => Promise<PlanEntity>): Promise<PublicPlanDto> {
    let saved: PlanEntity;
    let ids: string[];
    try {
      [saved, ids] = await this.db.transaction(async (tx) => {
        const plan = await write(tx);
        return [plan, await this.announce(tx, [plan])] as const;
      });
    } catch (err) {
      // two saves of one name at once: the unique index decides
      if ((err as { code?: string }).code === '23505') throw new DomainError('ERR_PLAN_NAME_EXISTS');
      throw err;
    }
    await this.outbox.flush(ids);
    return planView(saved);
  }

  private async find(tx: EntityManager, id: number, lock = false): Promise<PlanEntity> {
    const plan = await this.plans.find(tx, id, lock);
    if (!plan) throw new DomainError('ERR_NO_PLAN_FOUND', { planId: id });
    return plan;
  }

  /** Names are unique whatever their case. */
  private async assertFreeName(tx: EntityManager, name: string, exceptId?: number): Promise<void> {
    if (await this.plans.nameTaken(tx, name.trim(), exceptId)) throw new DomainError('ERR_PLAN_NAME_EXISTS');
  }

  /** How many companies are on the plan, as auth (their owner) counts them. */
  private async companiesOn(planId: number): Promise<number> {
    let res: Response;
    try {
      res = await fetch(`${this.env.AUTH_URL}/internal/plans/${planId}/usage`, {
        headers: { authorization: `Bearer ${signServiceToken('billing', this.env.JWT_SECRET)}` },
        signal: AbortSignal.timeout(5000),
      });
    } catch {
      throw new DomainError('ERR_SERVICE_UNAVAILABLE', { service: 'auth' });
    }
    if (res.status !== 200) throw new DomainError('ERR_SERVICE_UNAVAILABLE', { service: 'auth', status: res.status });
    return ((await res.json()) as { companies: number }).companies;
  }
}
