import { randomUUID } from 'node:crypto';
import { RedisLease } from '@wa/server-kit';
import type { Redis } from 'ioredis';

/**
 * A lease in Redis held by one replica at a time. It does not make the fan-out exactly-once (the shared
 * durable does); it keeps it ordered: one consumer process hands one key's events to one lane, in order.
 * The lease itself is server-kit's; this adds the blip tolerance of `renew()`.
 */
export class FanoutLease {
  readonly holder = randomUUID();
  private readonly lease: RedisLease;
  private renewedAt = 0;

  constructor(
    redis: Redis,
    readonly key: string,
    readonly ttlMs: number,
  ) {
    this.lease = new RedisLease(redis, { owner: this.holder, ttlMs });
  }

  async acquire(): Promise<boolean> {
    const ok = await this.lease.acquire(this.key);
    if (ok) this.renewedAt = Date.now();
    return ok;
  }

  /**
   * `true` while the lease is ours. A Redis error is not a loss until the lease has surely expired,
   * so a blip does not stop a single replica's fan-out.
   */
  async renew(): Promise<boolean> {
    try {
      const ok = await this.lease.renew(this.key);
      if (ok) this.renewedAt = Date.now();
      return ok;
    } catch {
      return Date.now() - this.renewedAt < this.ttlMs;
    }
  }

  async release(): Promise<void> {
    await this.lease.release(this.key).catch(() => undefined);
  }
}
