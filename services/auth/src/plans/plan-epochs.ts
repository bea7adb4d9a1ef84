import { Inject, Injectable, Logger } from '@nestjs/common';
import { PLAN_EPOCH_ALL, planEpochKey } from '@wa/contracts';
import { REDIS } from '@wa/server-kit';
import type { Redis } from 'ioredis';

/**
 * Tells the gateway's plan gate that what it keeps is old (see planEpochKey): called after the commit of a
 * change of a company's plan or status, or of a plan. A Redis that cannot be reached leaves the gate's cache
 * to end by its age (PLAN_CACHE_MS).
 */
@Injectable()
export class PlanEpochs {
  private readonly log = new Logger(PlanEpochs.name);

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async companyChanged(companyId: number): Promise<void> {
    await this.raise(planEpochKey(companyId));
  }

  async planChanged(): Promise<void> {
    await this.raise(PLAN_EPOCH_ALL);
  }

  private async raise(key: string): Promise<void> {
    try {
      await this.redis.incr(key);
    } catch (err) {
      this.log.warn({ key, err: (err as Error).message }, 'the plan gate was not told of a change: its cache ends by its age');
    }
  }
}
