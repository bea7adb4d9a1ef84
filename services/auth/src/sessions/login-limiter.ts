import { Inject, Injectable } from '@nestjs/common';
import { DomainError, REDIS } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AuthEnv } from '../config/env.js';
import { addressBucket } from './client-address.js';

/** How long an address stays known for an account after a good sign-in from it. */
const KNOWN_FOR_S = 30 * 86_400;

/**
 * Sign-in attempts counted in Redis (every replica shares them), each attempt counted *before* the password
 * is checked, so that a burst of parallel tries gets no more than the limit through:
 * - per email: LOGIN_MAX_FAILS_PER_EMAIL attempts in the window; a good sign-in starts the count over. An
 *   address the account signed in from before (known) has a count of its own for the account instead, so a
 *   burst of bad passwords from elsewhere does not lock its owner out; from a known address, as many tries;
 * - per address (an IPv6 client by its /64: addressBucket): LOGIN_MAX_FAILS_PER_IP failed attempts in the window (a good sign-in gives its attempt
 *   back). Past it, the address may still sign in to the accounts that signed in from it before (an office
 *   behind one address keeps working), but to no other: a spray across many accounts stops.
 * Past a limit the login answers 429 with Retry-After.
 */
@Injectable()
export class LoginLimiter {
  private readonly byEmail: RateLimiterRedis;
  private readonly byIp: RateLimiterRedis;
  private readonly byEmailAtKnown: RateLimiterRedis;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    env: AuthEnv,
  ) {
    const common = { storeClient: redis, duration: env.LOGIN_WINDOW_S, blockDuration: env.LOGIN_WINDOW_S };
    this.byEmail = new RateLimiterRedis({ ...common, keyPrefix: 'auth:login-attempt:email', points: env.LOGIN_MAX_FAILS_PER_EMAIL });
    this.byIp = new RateLimiterRedis({ ...common, keyPrefix: 'auth:login-attempt:ip', points: env.LOGIN_MAX_FAILS_PER_IP });
    this.byEmailAtKnown = new RateLimiterRedis({
      ...common,
      keyPrefix: 'auth:login-attempt:email-known',
      points: env.LOGIN_MAX_FAILS_PER_EMAIL,
    });
  }

  /** Counts an attempt; throws 429 when this address (for this account) or this email is past its limit. */
  async attempt(email: string, address: string): Promise<void> {
    const ip = addressBucket(address);
    const ipLimit = await this.consume(this.byIp, ip);
    const known = await this.isKnown(ip, email);
    // a blocked address spends none of the account's attempts unless the account is known there
    if (ipLimit && !known) throw tooMany(ipLimit);
    // a known address counts on its own: tries from elsewhere neither spend nor block it
    const emailLimit = known ? await this.consume(this.byEmailAtKnown, knownKey(ip, email)) : await this.consume(this.byEmail, email);
    if (emailLimit) throw tooMany(emailLimit);
  }

  /**
   * A good sign-in: the count it was counted in starts over (a known address's own, or the email's), the
   * address gets its attempt back and knows the account. The owner signing in at a known address does not
   * start the email's count over for the others (a guesser gets no fresh tries from it).
   */
  async succeeded(email: string, address: string): Promise<void> {
    const ip = addressBucket(address);
    const known = await this.isKnown(ip, email);
    await Promise.all([
      known ? this.byEmailAtKnown.delete(knownKey(ip, email)) : this.byEmail.delete(email),
      this.byIp.reward(ip, 1),
      this.redis.set(knownKey(ip, email), '1', 'EX', KNOWN_FOR_S),
    ]);
  }

  /** undefined when within the limit; the limiter's answer when past it. */
  private async consume(limiter: RateLimiterRedis, key: string): Promise<RateLimiterRes | undefined> {
    try {
      await limiter.consume(key, 1);
      return undefined;
    } catch (err) {
      if (err instanceof RateLimiterRes) return err;
      throw err; // Redis away: the caller answers 503
    }
  }

  private async isKnown(ip: string, email: string): Promise<boolean> {
    return (await this.redis.exists(knownKey(ip, email))) === 1;
  }
}

function knownKey(ip: string, email: string): string {
  return `auth:login-known:${ip}:${createHash('sha256').update(email).digest('base64url')}`;
}

export function tooMany(res: RateLimiterRes): DomainError {
  return new DomainError('ERR_TOO_MANY_ATTEMPTS', { retryAfter: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) });
}
