import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import { REDIS } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { WhatsappSessionsEnv } from '../config/env.js';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * Placement: a connection's session runs only in the process holding its lease in Redis
 * (`SET key owner NX PX ttl`), renewed while the session runs and released when it ends or the
 * process shuts down. A crashed holder's lease expires after the TTL and another process takes over.
 */
@Injectable()
export class SessionLeases {
  readonly owner: string;
  private readonly ttl: number;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    env: WhatsappSessionsEnv,
  ) {
    this.owner = env.SESSION_OWNER_ID || `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.ttl = env.SESSION_LEASE_TTL_MS;
  }

  static key(connectionId: number): string {
    return `wa:session:lease:${connectionId}`;
  }

  /** Takes the lease when it is free (or already ours). */
  async acquire(connectionId: number): Promise<boolean> {
    const key = SessionLeases.key(connectionId);
    if ((await this.redis.set(key, this.owner, 'PX', this.ttl, 'NX')) === 'OK') return true;
    return (await this.redis.eval(RENEW, 1, key, this.owner, String(this.ttl))) === 1;
  }

  /** Renews our leases; answers those we no longer hold. */
  async renew(connectionIds: number[]): Promise<number[]> {
    if (connectionIds.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of connectionIds) pipeline.eval(RENEW, 1, SessionLeases.key(id), this.owner, String(this.ttl));
    const results = (await pipeline.exec()) ?? [];
    return connectionIds.filter((_, i) => {
      const [err, value] = results[i] ?? [new Error('no answer'), 0];
      return !err && value !== 1;
    });
  }

  async release(connectionId: number): Promise<void> {
    await this.redis.eval(RELEASE, 1, SessionLeases.key(connectionId), this.owner);
  }

  /** Who holds the connection's session (null: nobody). */
  holder(connectionId: number): Promise<string | null> {
    return this.redis.get(SessionLeases.key(connectionId));
  }
}
