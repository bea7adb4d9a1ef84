import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { warmPool } from '@wa/database';
import type { DataSource } from 'typeorm';
import { HEALTH_DATASOURCE } from './health.controller.js';

/** Opens the service's kept database connections at start (warmPool), before the first request needs them. */
@Injectable()
export class PoolWarmer implements OnApplicationBootstrap {
  private readonly logger = new Logger(PoolWarmer.name);

  constructor(@Inject(HEALTH_DATASOURCE) private readonly db: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    const opened = await warmPool(this.db);
    this.logger.debug({ opened }, 'database connections opened');
  }
}
