import { Module, type DynamicModule } from '@nestjs/common';
import { AuthLibModule } from '@wa/auth';
import { serviceModules } from '@wa/server-kit';
import { BillingEnv } from './config/env.js';
import { billingDatabase } from './database/data-source.js';
import { Outbox } from './outbox/outbox.service.js';
import { PlansController } from './plans/plans.controller.js';
import { PlansRepository } from './plans/plans.repository.js';
import { PlansService } from './plans/plans.service.js';

export const SERVICE = 'billing';

/** Plans (the public list of the sign-up; their events keep auth's copy); invoices and checkout arrive with their issue. */
@Module({})
export class AppModule {
  static register(env: BillingEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceModules({ service: SERVICE, env, database: billingDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE) }),
        AuthLibModule.forRoot({ secret: env.JWT_SECRET }),
      ],
      controllers: [PlansController],
      providers: [{ provide: BillingEnv, useValue: env }, Outbox, PlansService, PlansRepository],
    };
  }
}
