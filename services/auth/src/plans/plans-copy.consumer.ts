import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Streams, type PlanChangedEvent, type PlanDeletedEvent } from '@wa/contracts';
import { EventBus, type ConsumerHandle } from '@wa/event-bus';
import { DataSource } from 'typeorm';
import { PlanEpochs } from './plan-epochs.js';

/** Keeps auth's copy of billing's plans (flags at login, the plan and trial of a sign-up) by their events. */
@Injectable()
export class PlansCopyConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private handle: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
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
            await this.db.query(`DELETE FROM auth.plans p WHERE p.id = $1 AND p."updatedAt" <= $2 AND NOT EXISTS (SELECT 1 FROM auth.companies c WHERE c."planId" = p.id)`, [data.planId, data.at]);
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
  private async apply({ plan: p, at }: PlanChangedEvent): Promise<void> {
    await this.db.query(
      `INSERT INTO auth.plans (id, name, users, connections, queues, value, "useCampaigns", "useKanban", "useOpenAi", "useIntegrations", "useSchedules", "useInternalChat", "useExternalApi", "isPublic", "trialDays", "updatedAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, users = EXCLUDED.users, connections = EXCLUDED.connections, queues = EXCLUDED.queues,
         value = EXCLUDED.value, "useCampaigns" = EXCLUDED."useCampaigns", "useKanban" = EXCLUDED."useKanban", "useOpenAi" = EXCLUDED."useOpenAi",
         "useIntegrations" = EXCLUDED."useIntegrations", "useSchedules" = EXCLUDED."useSchedules", "useInternalChat" = EXCLUDED."useInternalChat",
         "useExternalApi" = EXCLUDED."useExternalApi", "isPublic" = EXCLUDED."isPublic", "trialDays" = EXCLUDED."trialDays", "updatedAt" = EXCLUDED."updatedAt"
       WHERE auth.plans."updatedAt" <= EXCLUDED."updatedAt"`,
      [p.id, p.name, p.users, p.connections, p.queues, p.value, p.useCampaigns, p.useKanban, p.useOpenAi, p.useIntegrations, p.useSchedules, p.useInternalChat, p.useExternalApi, p.isPublic, p.trialDays, at],
    );
  }
}
