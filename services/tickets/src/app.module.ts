import { Module, type DynamicModule } from '@nestjs/common';
import { AuthLibModule } from '@wa/auth';
import { serviceModules } from '@wa/server-kit';
import { TicketsEnv } from './config/env.js';
import { ticketsDatabase } from './database/data-source.js';

export const SERVICE = 'tickets';

/** Skeleton: boots, answers /health and /metrics, runs its first migration; features arrive with their issues. */
@Module({})
export class AppModule {
  static register(env: TicketsEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [...serviceModules({ service: SERVICE, env, database: ticketsDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE) }), AuthLibModule.forRoot({ secret: env.JWT_SECRET })],
      providers: [{ provide: TicketsEnv, useValue: env }],
    };
  }
}
