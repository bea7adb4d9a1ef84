import { Module, type DynamicModule } from '@nestjs/common';
import { AuthLibModule } from '@wa/auth';
import { serviceModules } from '@wa/server-kit';
import { RealtimeEnv } from './config/env.js';

export const SERVICE = 'realtime-gateway';

/** Skeleton: boots, answers /health and /metrics, runs its first migration; features arrive with their issues. */
@Module({})
export class AppModule {
  static register(env: RealtimeEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [...serviceModules({ service: SERVICE, env }), AuthLibModule.forRoot({ secret: env.JWT_SECRET })],
      providers: [{ provide: RealtimeEnv, useValue: env }],
    };
  }
}
