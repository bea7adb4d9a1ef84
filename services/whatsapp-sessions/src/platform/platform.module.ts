import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { PlanLimitsClient } from '@wa/auth';
import { MediaStorage, mediaStorageFrom } from '@wa/server-kit';
import { WhatsappSessionsEnv } from '../config/env.js';
import { KeyedStatements } from '../database/keyed-statements.js';
import { ConnectionEvents } from '../outbox/connection-events.js';
import { Outbox } from '../outbox/outbox.service.js';
import type { SocketFactory } from '../runtime/providers/baileys/baileys.provider.js';
import { BAILEYS_SOCKET_FACTORY } from '../runtime/providers/provider-factory.js';

/** The name whatsapp-sessions goes by (logs, service tokens, plan checks). */
export const SERVICE = 'whatsapp-sessions';

export interface PlatformOptions {
  /** Baileys' socket maker; tests give a scripted one (WhatsApp cannot be reached from here) */
  baileysSocketFactory?: SocketFactory;
}

/**
 * The base the modules of whatsapp-sessions stand on: its configuration, the media storage, auth's plan counts,
 * the outbox with the `connection.*` events written to it, the hot statements' connections, and (tests) the
 * Baileys socket maker. Global: the modules above use it without listing it; it imports none of them (of the
 * runtime, only the socket maker's injection token).
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(env: WhatsappSessionsEnv, options: PlatformOptions = {}): DynamicModule {
    const shared: Provider[] = [
      { provide: WhatsappSessionsEnv, useValue: env },
      { provide: MediaStorage, useValue: mediaStorageFrom(env) },
      { provide: PlanLimitsClient, useValue: new PlanLimitsClient(env.AUTH_URL, env.JWT_SECRET, SERVICE) },
      Outbox,
      ConnectionEvents,
      KeyedStatements,
    ];
    const stubs: Provider[] = options.baileysSocketFactory
      ? [{ provide: BAILEYS_SOCKET_FACTORY, useValue: options.baileysSocketFactory }]
      : [];
    return {
      module: PlatformModule,
      providers: [...shared, ...stubs],
      exports: [
        WhatsappSessionsEnv,
        MediaStorage,
        PlanLimitsClient,
        Outbox,
        ConnectionEvents,
        KeyedStatements,
        ...(options.baileysSocketFactory ? [BAILEYS_SOCKET_FACTORY] : []),
      ],
    };
  }
}
