import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Streams, type PlanChangedEvent, type PlanDeletedEvent } from '@wa/contracts';
import { EventBus, type ConsumerHandle } from '@wa/event-bus';
import { PlanEpochs } from './plan-epochs.js';
import { PlansRepository } from './plans.repository.js';

/** Keeps auth's copy of billing's plans (flags at login, the plan and trial of a sign-up) by their events. */
@Injectable()
export class PlansCopyConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private handle: ConsumerHandle | undefined;

  constructor(
    private readonly plans: PlansRepository,
    private readonly bus: EventBus,
    private readonly epochs: PlanEpochs,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<PlanChangedEvent | PlanDeletedEvent>({
      stream: Streams.BILLING.name,
      durable: 'auth-plans',
      filterSubjects: ['plan.>'],
      orderKey: (subject) => subject.split('.').slice(2).join('.'),
      handler: async (batch) => {
        for (const { subject, data } of batch) {
          if (subject.startsWith('plan.updated.') && data && 'plan' in data) await this.apply(data);
          // billing deletes only a plan no company is on; a company still naming it keeps its row (it refuses nothing)
          if (subject.startsWith('plan.deleted.') && data && 'planId' in data) {
            await this.plans.deleteUnused(data.planId, data.at);
          }
        }
        // the plan gate asks again (the batch is committed)
        await this.epochs.planChanged();
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  /** The plan as billing has it, unless the copy already holds a later state (a replay, an old event). */
  private async apply({ plan, at }: PlanChangedEvent): Promise<void> {
    await this.plans.upsert(plan, at);
  }
}
