import { Inject, Injectable } from '@nestjs/common';
import type { ConnectionStatus, SessionConnectionDto } from '@wa/contracts';
import { metricsRegistry, REDIS } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { Counter, Gauge } from 'prom-client';

/** A connection's health as operators see it, whichever replicas ran it (kept in Redis, counted across moves). */
export type ConnectionHealth = Pick<
  SessionConnectionDto,
  'connectedSince' | 'lastEventAt' | 'reconnects' | 'messagesIn' | 'messagesOut' | 'lastError'
>;

const statsKey = (connectionId: number) => `wa:session:stats:${connectionId}`;
/** A connection's figures outlive it this long after its last change (a deleted connection's are forgotten). */
const STATS_TTL_S = 30 * 24 * 3600;

/** The status of each session running in this process (one SessionStats per process). */
const runningStates = new Map<number, ConnectionStatus>();

/** Per replica (no connection label: a replica holds hundreds of connections; their figures are in the operators' view). */
new Gauge({
  name: 'whatsapp_sessions_sessions',
  help: 'Sessions running in this replica, by state',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  // counted when scraped, from the sessions running here
  collect() {
    this.reset();
    for (const state of runningStates.values()) this.inc({ state });
  },
});
const reconnectsTotal = new Counter({
  name: 'whatsapp_sessions_reconnects_total',
  help: 'Sessions of this replica that dropped and are reconnecting',
  registers: [metricsRegistry],
});
const messagesTotal = new Counter({
  name: 'whatsapp_sessions_messages_total',
  help: 'Messages received from WhatsApp (in) and sent to it (out) by this replica',
  labelNames: ['direction'] as const,
  registers: [metricsRegistry],
});

interface Pending {
  messagesIn: number;
  messagesOut: number;
  reconnects: number;
  set: Record<string, string>;
}

/**
 * Each session's health figures: counted in memory as the runtime goes (no round trip per message) and added to
 * the connection's hash in Redis at each heartbeat (`flush`), so that any replica answers the operators' view and
 * the figures add up across the replicas a connection ran on. Also the replica's Prometheus figures.
 */
@Injectable()
export class SessionStats {
  private readonly pending = new Map<number, Pending>();
  private readonly states = runningStates;

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  private of(connectionId: number): Pending {
    let p = this.pending.get(connectionId);
    if (!p) {
      p = { messagesIn: 0, messagesOut: 0, reconnects: 0, set: {} };
      this.pending.set(connectionId, p);
    }
    p.set.lastEventAt = new Date().toISOString();
    return p;
  }

  /** The session's status here (CONNECTED starts its `connectedSince`). */
  status(connectionId: number, status: ConnectionStatus): void {
    const was = this.states.get(connectionId);
    this.states.set(connectionId, status);
    const p = this.of(connectionId);
    if (status === 'CONNECTED' && was !== 'CONNECTED') p.set.connectedSince = new Date().toISOString();
    if (status !== 'CONNECTED') p.set.connectedSince = '';
  }

  /** The session dropped and reconnects; `error`: why. */
  reconnect(connectionId: number, error: string): void {
    const p = this.of(connectionId);
    p.reconnects++;
    p.set.lastError = error;
    reconnectsTotal.inc();
  }

  /** The session ended or failed for a reason operators should see. */
  error(connectionId: number, error: string): void {
    this.of(connectionId).set.lastError = error;
  }

  received(connectionId: number, count = 1): void {
    this.of(connectionId).messagesIn += count;
    messagesTotal.inc({ direction: 'in' }, count);
  }

  sent(connectionId: number, count = 1): void {
    this.of(connectionId).messagesOut += count;
    messagesTotal.inc({ direction: 'out' }, count);
  }

  /** The session no longer runs here. */
  gone(connectionId: number): void {
    this.states.delete(connectionId);
  }

  /** Adds what was counted since the last flush to the connections' figures in Redis (one round trip). */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending.clear();
    const tx = this.redis.pipeline();
    for (const [id, p] of batch) {
      const key = statsKey(id);
      if (p.messagesIn) tx.hincrby(key, 'messagesIn', p.messagesIn);
      if (p.messagesOut) tx.hincrby(key, 'messagesOut', p.messagesOut);
      if (p.reconnects) tx.hincrby(key, 'reconnects', p.reconnects);
      if (Object.keys(p.set).length > 0) tx.hset(key, p.set);
      tx.expire(key, STATS_TTL_S);
    }
    try {
      const results = (await tx.exec()) ?? [];
      if (results.some(([err]) => err)) throw results.find(([err]) => err)?.[0];
    } catch (err) {
      // counted again at the next flush rather than lost (Redis away)
      for (const [id, p] of batch) {
        const now = this.of(id);
        now.messagesIn += p.messagesIn;
        now.messagesOut += p.messagesOut;
        now.reconnects += p.reconnects;
        now.set = { ...p.set, ...now.set };
      }
      throw err;
    }
  }

  /** The figures of these connections, in their order (one round trip). */
  async read(connectionIds: number[]): Promise<ConnectionHealth[]> {
    if (connectionIds.length === 0) return [];
    const tx = this.redis.pipeline();
    for (const id of connectionIds) tx.hgetall(statsKey(id));
    const results = (await tx.exec()) ?? [];
    return connectionIds.map((_, i) => {
      const h = (results[i]?.[1] ?? {}) as Record<string, string>;
      return {
        connectedSince: h.connectedSince || null,
        lastEventAt: h.lastEventAt || null,
        reconnects: Number(h.reconnects ?? 0),
        messagesIn: Number(h.messagesIn ?? 0),
        messagesOut: Number(h.messagesOut ?? 0),
        lastError: h.lastError || null,
      };
    });
  }
}
