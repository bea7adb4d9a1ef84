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
