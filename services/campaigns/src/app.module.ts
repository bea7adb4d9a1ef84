import { Module, type DynamicModule } from '@nestjs/common';
import { AuthLibModule } from '@wa/auth';
import { serviceModules } from '@wa/server-kit';
import { CampaignsEnv } from './config/env.js';
import { campaignsDatabase } from './database/data-source.js';

export const SERVICE = 'campaigns';

/** Skeleton: boots, answers /health and /metrics, runs its first migration; features arrive with their issues. */
@Module({})
export class AppModule {
  static register(env: CampaignsEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceModules({ service: SERVICE, env, database: campaignsDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE) }),
        AuthLibModule.forRoot({ secret: env.JWT_SECRET }),
      ],
      providers: [{ provide: CampaignsEnv, useValue: env }],
    };
  }
}
