import { RedisLease } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import type { LiveReplica, ReplicaRegistry } from '../runtime/replicas.js';
import type { ReplicaCount } from './statefulset-scale.js';

/** One scaler acts at a time: the one holding this lease. */
export const SCALER_LEASE_KEY = 'wa:sessions:scaler';
/** What the acting scaler remembers between rounds (its last change, the replica it drains), so another one carries on. */
const STATE_KEY = 'wa:sessions:scaler:state';

export interface ScalerOptions {
  /** the StatefulSet's name: its replicas are `<name>-0`, `<name>-1`… */
  statefulSet: string;
  sessionsPerReplica: number;
  minReplicas: number;
  maxReplicas: number;
  cooldownMs: number;
  /** a replica not heard of within this time is gone */
  replicaTtlMs: number;
  /** this scaler, as the lease's holder */
  owner: string;
  /** the lease lapses when its holder stops for this long (several rounds) */
  leaseTtlMs: number;
}

/** pino's shape; any logger with these fits. */
export interface ScalerLogger {
  info(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

interface ScalerState {
  /** when the replica count was last changed (the scaler's clock) */
  changedAtMs: number | null;
  /**
   * The replica the scaler drains to remove it: `heardBefore` is its last heartbeat as read right after the drain
   * was set (only a later one is known to have seen the drain); `removed`: the StatefulSet was scaled down, the
   * drain is undone once the pod is gone.
   */
  drain: { name: string; heardBefore: string | null; removed: boolean } | null;
}

export type ScalerDecision =
  | { action: 'standby'; holder: string | null }
  | { action: 'hold'; replicas: number; desired: number; sessions: number }
  | { action: 'cooldown'; replicas: number; desired: number; sessions: number; remainingMs: number }
  | { action: 'scale-up'; from: number; to: number; sessions: number }
  | { action: 'drain'; replica: string; replicas: number; desired: number; sessions: number }
  | { action: 'wait-drain'; replica: string; load: number; heard: boolean }
  | { action: 'wait-gone'; replica: string }
  | { action: 'scale-down'; from: number; to: number; replica: string; sessions: number };

/**
 * Sizes the whatsapp-sessions StatefulSet to the sessions that should run: desired replicas = those sessions over
 * SCALER_SESSIONS_PER_REPLICA, between a minimum and a maximum. It adds replicas at once (the new ones take their
 * share by placement), and removes them one at a time, the highest-numbered first (the one a StatefulSet removes):
 * it drains that replica (it hands its sessions to the others and takes none), waits until a heartbeat written
 * after the drain shows it holding nothing, then scales down. Any change starts a cooldown. A drain no longer
 * wanted (demand rose) is undone; a removed replica's drain is undone once its pod is gone, so that the pod a
 * later scale-up makes under the same name is not born drained (undoing it earlier would let the pod, still
 * alive until Kubernetes stops it, take sessions back for a moment).
 *
 * Each `tick()` is one round; only the holder of a Redis lease acts, and what it remembers lives in Redis, so the
 * next holder carries on where it left off.
 */
export class SessionsScaler {
  private readonly lease: RedisLease;
  private acting = false;

  constructor(
    private readonly redis: Redis,
    private readonly registry: ReplicaRegistry,
    private readonly target: ReplicaCount,
    private readonly opts: ScalerOptions,
    private readonly logger: ScalerLogger,
    private readonly clock: () => number = Date.now,
  ) {
    if (opts.minReplicas > opts.maxReplicas) throw new Error('SCALER_MIN_REPLICAS must not exceed SCALER_MAX_REPLICAS');
    this.lease = new RedisLease(redis, { owner: opts.owner, ttlMs: opts.leaseTtlMs });
  }

  /** The replicas wanted for `sessions` sessions. */
  desiredFor(sessions: number): number {
    const { sessionsPerReplica, minReplicas, maxReplicas } = this.opts;
    return Math.min(maxReplicas, Math.max(minReplicas, Math.ceil(sessions / sessionsPerReplica)));
  }

  /** One round: looks and, holding the lease, acts. Answers what it decided. */
  async tick(): Promise<ScalerDecision> {
    const now = this.clock();
    if (!(await this.lease.acquire(SCALER_LEASE_KEY))) {
      const holder = await this.lease.holder(SCALER_LEASE_KEY);
      if (this.acting) this.logger.info({ holder }, 'scaler: another scaler holds the lease; standing by');
      this.acting = false;
      return { action: 'standby', holder };
    }
    if (!this.acting) this.logger.info({ owner: this.opts.owner }, 'scaler: holds the lease; acting');
    this.acting = true;

    const [demand, live, replicas, state] = await Promise.all([
      this.registry.demand(),
      this.registry.live(this.opts.replicaTtlMs),
      this.target.replicas(),
      this.state(),
    ]);
    // the sessions held are a floor of the demand: the count may be missing (it expired; replicas serving some
    // companies only do not count) or older than what the replicas took since
    const sessions = Math.max(
      demand,
      live.reduce((sum, r) => sum + r.load, 0),
    );
    const desired = this.desiredFor(sessions);

    const decision = await this.decide({ now, replicas, desired, sessions, live, state });
    if (decision.action === 'hold' || decision.action === 'cooldown') this.logger.debug({ ...decision, demand }, 'scaler: no change');
    else this.logger.info({ ...decision, demand }, `scaler: ${decision.action}`);
    return decision;
  }

  /** Lets go of the lease (shutdown): another scaler acts at its next round instead of after the lease lapses. */
  async stop(): Promise<void> {
    await this.lease.release(SCALER_LEASE_KEY);
    this.acting = false;
  }

  private async decide(round: {
    now: number;
    replicas: number;
    desired: number;
    sessions: number;
    live: LiveReplica[];
    state: ScalerState;
  }): Promise<ScalerDecision> {
    const { now, replicas, desired, sessions, live, state } = round;
    const seen = (name: string) => live.find((r) => r.name === name);

    const drain = state.drain;
    if (drain && !drain.removed && (desired >= replicas || drain.name !== this.replicaName(replicas - 1))) {
      // demand rose, or the StatefulSet was resized by someone else: that replica stays
      await this.undrain(state, desired >= replicas ? 'demand rose' : 'no longer the highest replica');
    } else if (drain?.removed) {
      const index = Number(drain.name.slice(this.opts.statefulSet.length + 1));
      if (!seen(drain.name)) await this.undrain(state, 'its pod is gone');
      // resized by someone else, or about to be scaled up: a pod of that name runs (again), and must not be drained
      else if (index < Math.max(replicas, desired)) await this.undrain(state, 'the StatefulSet has that replica again');
    }

    if (desired === replicas) return { action: 'hold', replicas, desired, sessions };
    const since = state.changedAtMs === null ? Infinity : now - state.changedAtMs;
    if (since < this.opts.cooldownMs) {
      return { action: 'cooldown', replicas, desired, sessions, remainingMs: this.opts.cooldownMs - since };
    }

    if (desired > replicas) {
      await this.target.scaleTo(desired);
      await this.save({ changedAtMs: now, drain: null });
      return { action: 'scale-up', from: replicas, to: desired, sessions };
    }

    // one step down, the highest replica first, once it holds nothing
    if (state.drain?.removed) return { action: 'wait-gone', replica: state.drain.name };
    const name = this.replicaName(replicas - 1);
    if (!state.drain) {
      await this.registry.setDrain(name, true);
      // read after the drain is set: a heartbeat later than this one has seen it
      const heardBefore = seen(name)
        ? ((await this.registry.live(this.opts.replicaTtlMs)).find((r) => r.name === name)?.lastSeenAt ?? null)
        : null;
      await this.save({ ...state, drain: { name, heardBefore, removed: false } });
      return { action: 'drain', replica: name, replicas, desired, sessions };
    }
    const replica = seen(name);
    if (replica) {
      const heard = state.drain.heardBefore === null || Date.parse(replica.lastSeenAt) > Date.parse(state.drain.heardBefore);
      if (!heard || replica.load > 0 || replica.sessions.length > 0)
        return { action: 'wait-drain', replica: name, load: replica.load, heard };
    }
    await this.target.scaleTo(replicas - 1);
    await this.save({ changedAtMs: now, drain: { ...state.drain, removed: true } });
    return { action: 'scale-down', from: replicas, to: replicas - 1, replica: name, sessions };
  }

  private replicaName(index: number): string {
    return `${this.opts.statefulSet}-${index}`;
  }

  private async undrain(state: ScalerState, why: string): Promise<void> {
    if (!state.drain) return;
    const { name } = state.drain;
    await this.registry.setDrain(name, false);
    state.drain = null;
    await this.save(state);
    this.logger.info({ replica: name, why }, 'scaler: drain undone');
  }

  private async state(): Promise<ScalerState> {
    const raw = await this.redis.get(STATE_KEY);
    return raw ? (JSON.parse(raw) as ScalerState) : { changedAtMs: null, drain: null };
  }

  private async save(state: ScalerState): Promise<void> {
    await this.redis.set(STATE_KEY, JSON.stringify(state));
  }
}
