import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import { REDIS, RedisLease } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { WhatsappSessionsEnv } from '../config/env.js';

/**
 * The leases of placement: a connection's session runs only in the process holding its lease in Redis
 * (`wa:session:lease:<connectionId>`, server-kit's RedisLease), renewed while the session runs and
 * released when it ends or the process shuts down. A crashed holder's lease expires after the TTL and
 * another process takes over.
 */
@Injectable()
export class SessionLeases {
  private readonly lease: RedisLease;

  constructor(@Inject(REDIS) redis: Redis, env: WhatsappSessionsEnv) {
    const owner = env.SESSION_OWNER_ID || `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.lease = new RedisLease(redis, { owner, ttlMs: env.SESSION_LEASE_TTL_MS });
  }

  static key(connectionId: number): string {
    return `wa:session:lease:${connectionId}`;
  }

  /** This process, as lease holder. */
  get owner(): string {
    return this.lease.owner;
  }

  /** Takes the lease when it is free (or already ours). */
  acquire(connectionId: number): Promise<boolean> {
    return this.lease.acquire(SessionLeases.key(connectionId));
  }

  /**
   * Renews our leases (one round trip), taking back those that lapsed while Redis was away and nobody
   * took; answers those another process holds now.
   */
  async renew(connectionIds: number[]): Promise<number[]> {
    const lost = new Set(await this.lease.keepMany(connectionIds.map(SessionLeases.key)));
    return connectionIds.filter((id) => lost.has(SessionLeases.key(id)));
  }

  release(connectionId: number): Promise<void> {
    return this.lease.release(SessionLeases.key(connectionId));
  }

  /** Who holds the connection's session (null: nobody). */
  holder(connectionId: number): Promise<string | null> {
    return this.lease.holder(SessionLeases.key(connectionId));
  }
}
