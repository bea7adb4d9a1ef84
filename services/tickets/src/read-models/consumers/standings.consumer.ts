import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Streams, type CompanyUpdatedEvent, type PlanChangedEvent, type PlanDeletedEvent } from '@wa/contracts';
import { EventBus, type ConsumerHandle } from '@wa/event-bus';
import { CompanyStandings } from '../../identity/company-standings.js';

/**
 * Keeps tickets' copy of each company's standing (auth's `company.updated`: status, due date, plan) and of the
 * plans' flags (billing's `plan.updated` / `plan.deleted`) for the one plan check of its background paths
 * (CompanyStandings). Each company's and each plan's events in order; an event older than the copy is dropped.
 */
@Injectable()
export class StandingsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(StandingsConsumer.name);
  private companies: ConsumerHandle | undefined;
  private plans: ConsumerHandle | undefined;
  private stopped = false;

  constructor(
    private readonly bus: EventBus,
    private readonly standings: CompanyStandings,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.companies = await this.bus.consume<CompanyUpdatedEvent>({
      stream: Streams.AUTH.name,
      durable: 'tickets-company-standings',
      filterSubjects: ['company.updated.>'],
      concurrency: 2,
      handler: async (batch) => {
        for (const { data } of batch)
          if (Number.isSafeInteger(data?.companyId) && data.companyId > 0 && typeof data.status === 'boolean')
            await this.standings.applyCompany(data);
      },
    });
    // not awaited: with per-service users BILLING is billing's to declare, and the bus waits until it is
    void this.bus
      .consume<PlanChangedEvent | PlanDeletedEvent>({
        stream: Streams.BILLING.name,
        durable: 'tickets-plans',
        filterSubjects: ['plan.>'],
        concurrency: 1,
        handler: async (batch) => {
          for (const { subject, data } of batch) {
            if (subject.startsWith('plan.updated.') && data && 'plan' in data && Number.isSafeInteger(data.plan?.id))
              await this.standings.applyPlan(data);
            if (subject.startsWith('plan.deleted.') && data && 'planId' in data && Number.isSafeInteger(data.planId))
              await this.standings.deletePlan(data);
          }
        },
      })
      .then((handle) => {
        if (this.stopped) return handle.stop();
        this.plans = handle;
      })
      .catch((err: unknown) => {
        if (!this.stopped)
          this.logger.error(
            { err: (err as Error)?.message },
            'plan changes not followed: a plan tickets already copied keeps its flags until the next start',
          );
      });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.companies?.stop(), this.plans?.stop()]);
  }
}
