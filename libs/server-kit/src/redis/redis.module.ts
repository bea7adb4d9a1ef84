import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';

export const REDIS = Symbol.for('wa.redis');
export const InjectRedis = () => Inject(REDIS);

class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status !== 'end') await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({})
export class RedisModule {
  static forRoot(url: string, name: string): DynamicModule {
    return {
      module: RedisModule,
      providers: [
        {
          provide: REDIS,
          useFactory: () =>
            new Redis(url, {
              connectionName: name,
              maxRetriesPerRequest: 2,
              enableOfflineQueue: true,
              lazyConnect: false,
              // commands issued in the same tick leave in one write (one syscall, one wake-up of Redis)
              enableAutoPipelining: true,
            }),
        },
        RedisCloser,
      ],
      exports: [REDIS],
    };
  }
}

/**
 * ioredis options of a `redis://` / `rediss://` URL, for clients made by libraries that take options rather
 * than a URL (BullMQ: its workers need `maxRetriesPerRequest: null`, set by the caller).
 */
export function redisOptionsOf(url: string): {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: object;
} {
  const u = new URL(url);
  const db = Number(u.pathname.replace(/^\//, '') || 0);
  return {
    host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: Number(u.port || 6379),
    db: Number.isInteger(db) ? db : 0,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}
