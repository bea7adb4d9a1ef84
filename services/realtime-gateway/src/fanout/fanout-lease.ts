import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * A lease in Redis held by one replica at a time. It does not make the fan-out exactly-once (the shared
 * durable does); it keeps it ordered: one consumer process hands one key's events to one lane, in order.
 */
export class FanoutLease {
  readonly holder = randomUUID();
  private renewedAt = 0;

  constructor(
    private readonly redis: Redis,
    readonly key: string,
    readonly ttlMs: number,
  ) {}

  async acquire(): Promise<boolean> {
    const ok = (await this.redis.set(this.key, this.holder, 'PX', this.ttlMs, 'NX')) === 'OK';
    if (ok) this.renewedAt = Date.now();
    return ok;
  }

  /**
   * `true` while the lease is ours. A Redis error is not a loss until the lease has surely expired,
   * so a blip does not stop a single replica's fan-out.
   */
  async renew(): Promise<boolean> {
    try {
      const ok = (await this.redis.eval(RENEW, 1, this.key, this.holder, String(this.ttlMs))) === 1;
      if (ok) this.renewedAt = Date.now();
      return ok;
    } catch {
      return Date.now() - this.renewedAt < this.ttlMs;
    }
  }

  async release(): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key, this.holder).catch(() => undefined);
  }
}
