import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { REDIS } from '@wa/server-kit';
import type { SessionReplicaDto } from '@wa/contracts';
import type { Redis } from 'ioredis';

/** A whatsapp-sessions replica as it last announced itself (operators' view, placement, the scaler). */
export type ReplicaInfo = SessionReplicaDto;

/** What a replica says of itself at each heartbeat (its name, pid and host are the registry's). */
export type ReplicaReport = Pick<ReplicaInfo, 'capacity' | 'load' | 'memoryMb'> & {
  /** the connections whose sessions it holds (the operators' filter by replica) */
  sessions: number[];
  /** the companies whose sessions it takes (SESSION_COMPANY_IDS); null: every company */
  companies: number[] | null;
};

/** The replicas' announcements: one hash field per replica, JSON with `lastSeenMs`. */
const REPLICAS_KEY = 'wa:sessions:replicas';
/** Replicas an operator (or the scaler) drains: field = name. Kept until undone, whatever restarts. */
const DRAINS_KEY = 'wa:sessions:drains';
/** The sessions that should run, platform-wide (connections not DISCONNECTED), as the replicas last counted them. */
const DEMAND_KEY = 'wa:sessions:demand';

interface Stored extends Omit<ReplicaInfo, 'draining' | 'lastSeenAt'> {
  selfDraining: boolean;
  lastSeenMs: number;
  sessions: number[];
  companies: number[] | null;
}

/** A replica and the sessions it holds, as read from the registry. */
export interface LiveReplica extends ReplicaInfo {
  sessions: number[];
  companies: number[] | null;
}

/**
 * Where the replicas of whatsapp-sessions announce themselves (Redis): each writes its capacity, load and state
 * every heartbeat; a replica not heard of within the TTL is dead (its leases are free for the others at once,
 * without waiting for them to lapse). A drain is kept apart from the announcements, so that any replica (the one
 * an operator's request reaches) or the scaler can set it and the drained replica reads it at its next heartbeat.
 */
@Injectable()
export class ReplicaRegistry {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  static create(redis: Redis): ReplicaRegistry {
    return new ReplicaRegistry(redis);
  }

  /** Announces `self`; answers whether an operator drains it. One round trip. */
  async heartbeat(
    self: Pick<ReplicaInfo, 'name' | 'pid' | 'host' | 'startedAt'>,
    report: ReplicaReport & { selfDraining: boolean },
  ): Promise<{ drained: boolean }> {
    const stored: Stored = {
      name: self.name,
      pid: self.pid,
      host: self.host,
      startedAt: self.startedAt,
      capacity: report.capacity,
      load: report.load,
      memoryMb: report.memoryMb,
      selfDraining: report.selfDraining,
      lastSeenMs: Date.now(),
      sessions: report.sessions,
      companies: report.companies,
    };
    const [, drained] = (await this.redis
      .multi()
      .hset(REPLICAS_KEY, self.name, JSON.stringify(stored))
      .hexists(DRAINS_KEY, self.name)
      .exec()) as Array<[Error | null, unknown]>;
    return { drained: drained?.[1] === 1 };
  }

  /** The replicas heard of within `ttlMs`, by name (`whatsapp-sessions-2` before `whatsapp-sessions-10`). */
  async live(ttlMs: number): Promise<LiveReplica[]> {
    const [[, all], [, drains]] = (await this.redis.multi().hgetall(REPLICAS_KEY).hgetall(DRAINS_KEY).exec()) as [
      [Error | null, Record<string, string>],
      [Error | null, Record<string, string>],
    ];
    const since = Date.now() - ttlMs;
    const replicas: LiveReplica[] = [];
    for (const raw of Object.values(all ?? {})) {
      const r = JSON.parse(raw) as Stored;
      if (r.lastSeenMs < since) continue;
      replicas.push({
        name: r.name,
        pid: r.pid,
        host: r.host,
        startedAt: r.startedAt,
        capacity: r.capacity,
        load: r.load,
        draining: r.selfDraining || Boolean(drains?.[r.name]),
        lastSeenAt: new Date(r.lastSeenMs).toISOString(),
        memoryMb: r.memoryMb,
        sessions: r.sessions,
        companies: r.companies ?? null,
      });
    }
    return replicas.sort(byName);
  }

  /** Forgets the announcements of replicas not heard of for `olderThanMs` (long gone: a scale-down, a renamed pod). */
  async prune(olderThanMs: number): Promise<void> {
    const all = await this.redis.hgetall(REPLICAS_KEY);
    const since = Date.now() - olderThanMs;
    const gone = Object.entries(all)
      .filter(([, raw]) => (JSON.parse(raw) as Stored).lastSeenMs < since)
      .map(([name]) => name);
    if (gone.length > 0) await this.redis.hdel(REPLICAS_KEY, ...gone);
  }

  /** Drains the replica (it hands its sessions over and takes none), or undoes it. */
  async setDrain(name: string, on: boolean): Promise<void> {
    if (on) await this.redis.hset(DRAINS_KEY, name, new Date().toISOString());
    else await this.redis.hdel(DRAINS_KEY, name);
  }

  /** The sessions that should run, platform-wide, as last counted (0 before any replica counted). */
  async demand(): Promise<number> {
    return Number((await this.redis.get(DEMAND_KEY)) ?? 0);
  }

  async setDemand(count: number, ttlMs: number): Promise<void> {
    await this.redis.set(DEMAND_KEY, String(count), 'PX', ttlMs);
  }
}

/** Names in their replica order: by the number at their end, then as text. */
function byName(a: { name: string }, b: { name: string }): number {
  const na = /(\d+)$/.exec(a.name)?.[1];
  const nb = /(\d+)$/.exec(b.name)?.[1];
  if (na !== undefined && nb !== undefined && a.name.slice(0, -na.length) === b.name.slice(0, -nb.length)) return Number(na) - Number(nb);
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The replica a connection prefers: weighted rendezvous hashing (highest random weight) over `replicas`, each
 * weighted by its capacity. Adding or removing a replica moves only the sessions that prefer it, and every replica
 * computes the same answer from the same list. Undefined when there is none.
 */
export function preferredReplica(connectionId: number, replicas: ReadonlyArray<{ name: string; capacity: number }>): string | undefined {
  let best: string | undefined;
  let bestScore = -Infinity;
  for (const r of replicas) {
    if (r.capacity <= 0) continue;
    const h = createHash('sha1').update(`${connectionId}:${r.name}`).digest();
    // a uniform number in (0, 1) from the hash's first 52 bits
    const u = (Number(h.readBigUInt64BE(0) >> 12n) + 0.5) / 2 ** 52;
    const score = -r.capacity / Math.log(u);
    if (score > bestScore || (score === bestScore && best !== undefined && r.name < best)) {
      best = r.name;
      bestScore = score;
    }
  }
  return best;
}
