import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { REDIS } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { EventBus } from '@wa/event-bus';
import { UserDirectory } from './user-directory.js';
import { JwtAuthGuard } from './jwt-auth.guard.js';
import { AUTH_OPTIONS, JwtStrategy, type AuthLibOptions } from './jwt.strategy.js';
import { TokenRevocation } from './tokens.js';

/**
 * The revocation list, mirrored in memory once loaded (checks ask Redis until then); a Redis that is
 * not there yet does not hold the service's start.
 */
export async function mirroredRevocation(redis: Redis): Promise<TokenRevocation> {
  const revocation = new TokenRevocation(redis);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([revocation.mirror().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, 3000)))]);
  clearTimeout(timer);
  return revocation;
}

/** Token verification for a service: the strategy, the global guard and the revocation list. */
@Global()
@Module({})
export class AuthLibModule {
  static forRoot(options: AuthLibOptions): DynamicModule {
    return {
      module: AuthLibModule,
      imports: [PassportModule],
      providers: [
        { provide: AUTH_OPTIONS, useValue: options },
        { provide: TokenRevocation, useFactory: (redis: Redis) => mirroredRevocation(redis), inject: [REDIS] },
        // auth owns the bucket; with per-service NATS users the others may only read it
        {
          provide: UserDirectory,
          useFactory: (bus: EventBus) => UserDirectory.open(bus.connection, { create: Boolean(options.directoryOwner) || !bus.user }),
          inject: [EventBus],
        },
        JwtStrategy,
        { provide: APP_GUARD, useClass: JwtAuthGuard },
      ],
      exports: [TokenRevocation, AUTH_OPTIONS, UserDirectory],
    };
  }
}
