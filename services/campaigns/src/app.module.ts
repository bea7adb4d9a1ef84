import { BullModule } from '@nestjs/bullmq';
import { Module, type DynamicModule } from '@nestjs/common';
import { AuthLibModule } from '@wa/auth';
import { redisOptionsOf, serviceModules } from '@wa/server-kit';
import { CampaignsModule } from './campaigns/campaigns.module.js';
import { CampaignsEnv } from './config/env.js';
import { ContactListsModule } from './contact-lists/contact-lists.module.js';
import { DispatchModule } from './dispatch/dispatch.module.js';
import { campaignsDatabase } from './database/data-source.js';
import { PlatformModule, SERVICE } from './platform/platform.module.js';

export { SERVICE } from './platform/platform.module.js';

/**
 * Contact lists and their imports (contact-lists/), campaigns and their settings (campaigns/), and sending them
 * (dispatch/: the start, the leased pacer per connection, acks, confirmations and opt-outs), on platform/.
 */
@Module({})
export class AppModule {
  static register(env: CampaignsEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceModules({ service: SERVICE, env, database: campaignsDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE) }),
        AuthLibModule.forRoot({ secret: env.JWT_SECRET }),
        BullModule.forRoot({ connection: { ...redisOptionsOf(env.REDIS_URL), maxRetriesPerRequest: null }, prefix: 'conversa' }),
        PlatformModule.forRoot(env),
        DispatchModule,
        CampaignsModule,
        ContactListsModule,
      ],
    };
  }
}
