import { Module, type DynamicModule } from '@nestjs/common';
import { AuthLibModule } from '@wa/auth';
import { serviceModules } from '@wa/server-kit';
import { RealtimeEnv } from './config/env.js';
import { ConnectionsConsumer } from './fanout/consumers/connections.consumer.js';
import { SessionReplacedConsumer } from './fanout/consumers/session-replaced.consumer.js';
import { UsersConsumer } from './fanout/consumers/users.consumer.js';
import { AnnouncementsConsumer } from './fanout/consumers/announcements.consumer.js';
import { SettingsConsumer } from './fanout/consumers/settings.consumer.js';
import { PlatformListsConsumer } from './fanout/consumers/platform-lists.consumer.js';
import { CampaignsConsumer } from './fanout/consumers/campaigns.consumer.js';
import { PaymentsConsumer } from './fanout/consumers/payments.consumer.js';
import { TicketsConsumer } from './fanout/consumers/tickets.consumer.js';
import { FanoutRelay } from './fanout/fanout-relay.js';
import { PresenceListener } from './fanout/presence.listener.js';
import { FanoutService } from './fanout/fanout.service.js';
import { ClientEvents } from './realtime/client-events.js';
import { Membership } from './realtime/membership.js';
import { RealtimeServer } from './realtime/realtime.server.js';
import { TicketAccess } from './realtime/ticket-access.js';
import { TicketPlaces } from './realtime/ticket-places.js';

export const SERVICE = 'realtime-gateway';

/**
 * The live socket: socket.io on this service's HTTP server (path /socket.io) with the Redis adapter,
 * and the fan-out of ticket, connection and session events to the company rooms. No tables.
 */
@Module({})
export class AppModule {
  static register(env: RealtimeEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [...serviceModules({ service: SERVICE, env }), AuthLibModule.forRoot({ secret: env.JWT_SECRET })],
      providers: [
        { provide: RealtimeEnv, useValue: env },
        TicketPlaces,
        TicketAccess,
        Membership,
        ClientEvents,
        RealtimeServer,
        TicketsConsumer,
        ConnectionsConsumer,
        SessionReplacedConsumer,
        UsersConsumer,
        AnnouncementsConsumer,
        SettingsConsumer,
        PlatformListsConsumer,
        CampaignsConsumer,
        PaymentsConsumer,
        FanoutRelay,
        FanoutService,
        PresenceListener,
      ],
    };
  }
}
