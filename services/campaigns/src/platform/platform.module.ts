import { Global, Module, type DynamicModule } from '@nestjs/common';
import { MediaStorage, mediaStorageFrom } from '@wa/server-kit';
import { CampaignsEnv } from '../config/env.js';
import { CompanyStanding } from './company-standing.js';
import { ConnectionsConsumer } from './connections.consumer.js';
import { ConnectionsRepository } from './connections.repository.js';
import { Outbox } from './outbox.service.js';
import { TicketsClient } from './tickets-client.js';

/** The name campaigns goes by (logs, service tokens). */
export const SERVICE = 'campaigns';

/**
 * The base every campaigns module stands on: its configuration, the media storage, the outbox, the plan gate of
 * background work (CompanyStanding) and the copy of the connections. Global; it imports none of the modules above.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(env: CampaignsEnv): DynamicModule {
    return {
      module: PlatformModule,
      providers: [
        { provide: CampaignsEnv, useValue: env },
        { provide: MediaStorage, useValue: mediaStorageFrom(env) },
        Outbox,
        CompanyStanding,
        ConnectionsRepository,
        ConnectionsConsumer,
        TicketsClient,
      ],
      exports: [CampaignsEnv, MediaStorage, Outbox, CompanyStanding, ConnectionsRepository, ConnectionsConsumer, TicketsClient],
    };
  }
}
