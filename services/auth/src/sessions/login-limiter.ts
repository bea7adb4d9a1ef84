import { Inject, Injectable } from '@nestjs/common';
import { DomainError, REDIS } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import { AuthEnv } from '../config/env.js';

/**
 * Failed sign-ins counted per email and per IP in Redis (so every replica shares them);
 * past the limit the login answers 429 with Retry-After until the window ends.
 */
@Injectable()
export class LoginLimiter {
  private readonly byEmail: RateLimiterRedis;
  private readonly byIp: RateLimiterRedis;

  constructor(@Inject(REDIS) redis: Redis, env: AuthEnv) {
    const common = { storeClient: redis, duration: env.LOGIN_WINDOW_S, blockDuration: env.LOGIN_WINDOW_S };
    this.byEmail = new RateLimiterRedis({ ...common, keyPrefix: 'auth:login-fail:email', points: env.LOGIN_MAX_FAILS_PER_EMAIL });
    this.byIp = new RateLimiterRedis({ ...common, keyPrefix: 'auth:login-fail:ip', points: env.LOGIN_MAX_FAILS_PER_IP });
  }

  /** Throws 429 when this email or this IP is blocked. */
  async assertAllowed(email: string, ip: string): Promise<void> {
    const [e, i] = await Promise.all([this.byEmail.get(email), this.byIp.get(ip)]);
    const blocked = [
      { res: e, limit: this.byEmail.points },
      { res: i, limit: this.byIp.points },
    ].filter((x) => x.res !== null && x.res.consumedPoints >= x.limit);
    if (blocked.length > 0) {
      const retryAfterS = Math.max(1, Math.ceil(Math.max(...blocked.map((b) => (b.res as RateLimiterRes).msBeforeNext)) / 1000));
      throw new DomainError('ERR_TOO_MANY_ATTEMPTS', { retryAfter: retryAfterS });
    }
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    await Promise.all([this.byEmail.penalty(email, 1), this.byIp.penalty(ip, 1)]);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.byEmail.delete(email);
  }
}
