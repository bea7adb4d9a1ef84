import { Module, type DynamicModule } from '@nestjs/common';
import { AuthLibModule } from '@wa/auth';
import { serviceModules } from '@wa/server-kit';
import { BillingEnv } from './config/env.js';
import { billingDatabase } from './database/data-source.js';

export const SERVICE = 'billing';

/** Skeleton: boots, answers /health and /metrics, runs its first migration; features arrive with their issues. */
@Module({})
export class AppModule {
  static register(env: BillingEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [...serviceModules({ service: SERVICE, env, database: billingDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE) }), AuthLibModule.forRoot({ secret: env.JWT_SECRET })],
      providers: [{ provide: BillingEnv, useValue: env }],
    };
  }
}
