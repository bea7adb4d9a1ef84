import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { AuthLibModule, PlanLimitsClient } from '@wa/auth';
import { MediaStorage, mediaStorageFrom, serviceModules } from '@wa/server-kit';
import { WhatsappSessionsEnv } from './config/env.js';
import { ConnectionEvents } from './outbox/connection-events.js';
import { Outbox } from './outbox/outbox.service.js';
import { ApiTokensController } from './connections/api-tokens.controller.js';
import { ConnectionsController } from './connections/connections.controller.js';
import { ConnectionsRepository } from './connections/connections.repository.js';
import { ConnectionTokens } from './connections/connection-tokens.js';
import { ConnectionsService } from './connections/connections.service.js';
import { CompanyRefs } from './connections/company-refs.js';
import { CompanyRefsRepository } from './connections/company-refs.repository.js';
import { DeletedCompaniesConsumer } from './connections/deleted-companies.consumer.js';
import { DeletedCompaniesRepository } from './connections/deleted-companies.repository.js';
import { NewCompaniesConsumer } from './connections/new-companies.consumer.js';
import { whatsappDatabase } from './database/data-source.js';
import { KeyedStatements } from './database/keyed-statements.js';
import { CommandHandler } from './runtime/command-handler.js';
import { CommandRouter } from './runtime/command-router.js';
import { InboundPublisher } from './runtime/inbound-publisher.js';
import { NotOnWhatsapp } from './runtime/not-on-whatsapp.js';
import { NotOnWhatsappRepository } from './runtime/not-on-whatsapp.repository.js';
import { OutboundConsumer } from './runtime/outbound-consumer.js';
import { Placement } from './runtime/placement.js';
import type { SocketFactory } from './runtime/providers/baileys/baileys.provider.js';
import { AuthStateRepository } from './runtime/providers/baileys/auth-state.repository.js';
import { AuthStateStore } from './runtime/providers/baileys/postgres-auth-state.js';
import { BAILEYS_SOCKET_FACTORY, ProviderFactory } from './runtime/providers/provider-factory.js';
import { SandboxOutboxRepository } from './runtime/providers/sandbox/sandbox-outbox.repository.js';
import { SessionLeases } from './runtime/session-leases.js';
import { SESSION_HOST } from './runtime/session-host.js';
import { SessionRunner } from './runtime/session-runner.js';
import { SessionRuntime } from './runtime/session-runtime.js';
import { SessionStore } from './runtime/session-store.repository.js';
import { SessionsController } from './sessions/sessions.controller.js';
import { SessionsService } from './sessions/sessions.service.js';

export const SERVICE = 'whatsapp-sessions';

export interface AppOptions {
  /** Baileys' socket maker; tests give a scripted one (WhatsApp cannot be reached from here) */
  baileysSocketFactory?: SocketFactory;
}

/** Connections (`/whatsapp`), their sessions (`/whatsappsession`) and the session runtime that runs them. */
@Module({})
export class AppModule {
  static register(env: WhatsappSessionsEnv, options: AppOptions = {}): DynamicModule {
    const extra: Provider[] = options.baileysSocketFactory ? [{ provide: BAILEYS_SOCKET_FACTORY, useValue: options.baileysSocketFactory }] : [];
    return {
      module: AppModule,
      imports: [
        ...serviceModules({ service: SERVICE, env, database: whatsappDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE) }),
        AuthLibModule.forRoot({ secret: env.JWT_SECRET }),
      ],
      controllers: [ConnectionsController, SessionsController, ApiTokensController],
      providers: [
        { provide: WhatsappSessionsEnv, useValue: env },
        { provide: PlanLimitsClient, useValue: new PlanLimitsClient(env.AUTH_URL, env.JWT_SECRET, SERVICE) },
        { provide: MediaStorage, useValue: mediaStorageFrom(env) },
        ConnectionsRepository,
        ConnectionsService,
        CompanyRefs,
        CompanyRefsRepository,
        ConnectionTokens,
        ConnectionEvents,
        Outbox,
        KeyedStatements,
        SessionStore,
        SessionLeases,
        AuthStateRepository,
        AuthStateStore,
        SandboxOutboxRepository,
        ProviderFactory,
        InboundPublisher,
        NotOnWhatsapp,
        NotOnWhatsappRepository,
        OutboundConsumer,
        SessionRunner,
        { provide: SESSION_HOST, useExisting: SessionRunner },
        Placement,
        CommandHandler,
        CommandRouter,
        SessionRuntime,
        SessionsService,
        NewCompaniesConsumer,
        DeletedCompaniesConsumer,
        DeletedCompaniesRepository,
        ...extra,
      ],
    };
  }
}
