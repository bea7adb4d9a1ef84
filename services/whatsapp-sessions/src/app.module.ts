import { Module, type DynamicModule } from '@nestjs/common';
import { AuthLibModule } from '@wa/auth';
import { serviceModules } from '@wa/server-kit';
import { WhatsappSessionsEnv } from './config/env.js';
import { ConnectionsModule } from './connections/connections.module.js';
import { InstanceModule } from './instance/instance.module.js';
import { whatsappDatabase } from './database/data-source.js';
import { OperatorsModule } from './operators/operators.module.js';
import { PlatformModule, SERVICE, type PlatformOptions } from './platform/platform.module.js';
import { RuntimeModule } from './runtime/runtime.module.js';
import { SessionsModule } from './sessions/sessions.module.js';

export { SERVICE } from './platform/platform.module.js';

export type AppOptions = PlatformOptions;

/**
 * whatsapp-sessions: its plumbing (database, bus, auth), the platform base, and one Nest module per context:
 * connections (`/whatsapp`), sessions (`/whatsappsession`) and the public API's instance (`/api/v1/instance`) above the session runtime, which they reach only
 * through its façade (SessionRuntime).
 */
@Module({})
export class AppModule {
  static register(env: WhatsappSessionsEnv, options: AppOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceModules({ service: SERVICE, env, database: whatsappDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE) }),
        AuthLibModule.forRoot({ secret: env.JWT_SECRET }),
        PlatformModule.forRoot(env, options),
        RuntimeModule,
        ConnectionsModule,
        SessionsModule,
        InstanceModule,
        OperatorsModule,
      ],
    };
  }
}
