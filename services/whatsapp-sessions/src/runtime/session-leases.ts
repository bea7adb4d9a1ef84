import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import { REDIS, RedisLease } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { WhatsappSessionsEnv } from '../config/env.js';

/**
 * Takes the lease when it is free or already ours (a replica restarted under its name, whose earlier run held it):
 * always a new epoch (INCR), so whatever ran the session before under this name is fenced off. Answers the epoch, 0
 * when someone else holds it. KEYS: lease, epoch; ARGV: owner, ttl.
 */
const ACQUIRE = `local v = redis.call('GET', KEYS[1])
if not v or v == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return redis.call('INCR', KEYS[2])
else return 0 end`;

/** Takes the lease from a holder known to be dead (a new epoch); 0 when it is held by anyone else now. ARGV: owner, ttl, dead holder. */
const TAKE_FROM = `local v = redis.call('GET', KEYS[1])
if v == ARGV[3] or not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return redis.call('INCR', KEYS[2])
else return 0 end`;

/**
 * Keeps our lease at our epoch: renews it, or takes it back when it lapsed and nobody took it since (the epoch
 * unchanged); 0 when another holds it or took it meanwhile (the epoch moved on). KEYS: lease, epoch; ARGV: owner,
 * ttl, our epoch.
 */
const KEEP_AT_EPOCH = `local e = tonumber(redis.call('GET', KEYS[2]) or '0')
if e ~= tonumber(ARGV[3]) then return 0 end
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2])
elseif not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1
else return 0 end`;

/**
 * The leases of placement: a connection's session runs only in the process holding its lease in Redis
 * (`wa:session:lease:<connectionId>`, valued with the holder's replica name), renewed while the session runs and
 * released when it ends or the process shuts down. A crashed holder's lease expires after the TTL, or is taken
 * at once by a replica that sees the holder dead (no heartbeat: the replica registry).
 *
 * Each taking of a lease counts an epoch (`wa:session:epoch:<connectionId>`, never reset): the fencing token. A
 * holder remembers the epoch it took and, before it sends or writes the pairing's credentials, checks that the lease
 * is still its own at that epoch; a holder that lost its lease (paused, partitioned, its lease taken as dead) does
 * neither, even before its renewal notices.
 */
@Injectable()
export class SessionLeases {
  private readonly lease: RedisLease;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    env: WhatsappSessionsEnv,
  ) {
    const owner = env.SESSION_OWNER_ID || `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.lease = new RedisLease(redis, { owner, ttlMs: env.SESSION_LEASE_TTL_MS });
  }

  static key(connectionId: number): string {
    return `wa:session:lease:${connectionId}`;
  }

  static epochKey(connectionId: number): string {
    return `wa:session:epoch:${connectionId}`;
  }

  /** This process, as lease holder: its replica name. */
  get owner(): string {
    return this.lease.owner;
  }

  /** Takes the lease, to start the session here, when it is free (or already ours): its new epoch, 0 when someone else holds it. */
  async acquire(connectionId: number): Promise<number> {
    const epoch = await this.redis.eval(
      ACQUIRE,
      2,
      SessionLeases.key(connectionId),
      SessionLeases.epochKey(connectionId),
      this.owner,
      String(this.lease.ttlMs),
    );
    return Number(epoch);
  }

  /** Takes the lease of a holder seen dead (or a free one): its new epoch, 0 when another holds it now. */
  async takeFrom(connectionId: number, deadHolder: string): Promise<number> {
    const epoch = await this.redis.eval(
      TAKE_FROM,
      2,
      SessionLeases.key(connectionId),
      SessionLeases.epochKey(connectionId),
      this.owner,
      String(this.lease.ttlMs),
      deadHolder,
    );
    return Number(epoch);
  }

  /** The fencing check: is the lease still ours, at `epoch`? (One round trip.) */
  async holds(connectionId: number, epoch: number): Promise<boolean> {
    const [holder, current] = await this.redis.mget(SessionLeases.key(connectionId), SessionLeases.epochKey(connectionId));
    return holder === this.owner && Number(current) === epoch;
  }

  /**
   * Renews our leases at the epochs we took them (one round trip), taking back those that lapsed while Redis was
   * away and nobody took since; answers those we lost (another holds them, or took them meanwhile). A reply that is
   * an error is not counted as lost (the next renewal decides); rejects when Redis cannot be reached.
   */
  async renew(held: ReadonlyArray<{ id: number; epoch: number }>): Promise<number[]> {
    if (held.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const { id, epoch } of held) {
      pipeline.eval(
        KEEP_AT_EPOCH,
        2,
        SessionLeases.key(id),
        SessionLeases.epochKey(id),
        this.owner,
        String(this.lease.ttlMs),
        String(epoch),
      );
    }
    const results = (await pipeline.exec()) ?? [];
    return held
      .filter((_, i) => {
        const [err, value] = results[i] ?? [new Error('no reply'), 0];
        return !err && value !== 1;
      })
      .map(({ id }) => id);
  }

  release(connectionId: number): Promise<void> {
    return this.lease.release(SessionLeases.key(connectionId));
  }

  /** Who holds the connection's session (null: nobody). */
  holder(connectionId: number): Promise<string | null> {
    return this.lease.holder(SessionLeases.key(connectionId));
  }

  /** Who holds each connection's session (null: nobody), in one round trip. */
  async holders(connectionIds: number[]): Promise<Array<string | null>> {
    if (connectionIds.length === 0) return [];
    return this.redis.mget(...connectionIds.map(SessionLeases.key));
  }
}
