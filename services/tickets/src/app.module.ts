import { BullModule } from '@nestjs/bullmq';
import { Module, type DynamicModule } from '@nestjs/common';
import { AuthLibModule } from '@wa/auth';
import { redisOptionsOf, serviceModules } from '@wa/server-kit';
import { AutomationModule } from './automation/automation.module.js';
import { CallsModule } from './calls/calls.module.js';
import { CampaignsModule } from './campaigns/campaigns.module.js';
import { TicketsEnv } from './config/env.js';
import { ConversationModule } from './conversation/conversation.module.js';
import { ticketsDatabase } from './database/data-source.js';
import { FileListsModule } from './file-lists/file-lists.module.js';
import { InboundModule } from './inbound/inbound.module.js';
import { PlatformModule, SERVICE } from './platform/platform.module.js';
import { PublicApiModule } from './public-api/public-api.module.js';
import { ReportingModule } from './reporting/reporting.module.js';
import { SchedulingModule } from './scheduling/scheduling.module.js';
import { TeamChatModule } from './team-chat/team-chat.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

export { SERVICE } from './platform/platform.module.js';

/**
 * tickets: its plumbing (database, bus, auth, BullMQ), the platform base, and one Nest module per bounded
 * context. Dependencies go one way: inbound → automation → conversation → platform; inbound → campaigns; scheduling
 * and public-api → conversation; webhooks, reporting, team-chat, file-lists and campaigns → platform only (campaigns reads conversation's ticket row type).
 * calls → conversation and inbound's store.
 */
@Module({})
export class AppModule {
  static register(env: TicketsEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceModules({ service: SERVICE, env, database: ticketsDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE) }),
        AuthLibModule.forRoot({ secret: env.JWT_SECRET }),
        // BullMQ's own connections (its workers block on Redis: no retry limit per request)
        BullModule.forRoot({ connection: { ...redisOptionsOf(env.REDIS_URL), maxRetriesPerRequest: null }, prefix: 'conversa' }),
        PlatformModule.forRoot(env),
        ConversationModule,
        AutomationModule,
        InboundModule,
        CallsModule,
        SchedulingModule,
        PublicApiModule,
        WebhooksModule,
        ReportingModule,
        TeamChatModule,
        FileListsModule,
        CampaignsModule,
      ],
    };
  }
}
