import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PlanSubjects, type PlanChangedEvent, type PublicPlanDto } from '@wa/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { PlanEntity } from '../database/entities/plan.entity.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';

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
    private readonly outbox: Outbox,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      const ids = await this.db.transaction(async (tx) => this.announce(tx, await tx.getRepository(PlanEntity).find({ order: { id: 'ASC' } })));
      await this.outbox.flush(ids);
    } catch (err) {
      this.log.warn({ err: (err as Error)?.message }, 'plans not announced at start');
    }
  }

  /** GET /plans/list (public): the plans offered at sign-up, cheapest first. */
  async listPublic(): Promise<PublicPlanDto[]> {
    const rows = await this.db.getRepository(PlanEntity).find({ where: { isPublic: true }, order: { value: 'ASC', id: 'ASC' } });
    return rows.map(planView);
  }

  announce(tx: EntityManager, plans: PlanEntity[]): Promise<string[]> {
    return this.outbox.add(tx, plans.map(planChanged));
  }
}
