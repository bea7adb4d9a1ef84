import { hostname } from 'node:os';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { PeriodicTask } from '@wa/server-kit';
import { WhatsappSessionsEnv, companyScope } from '../config/env.js';
import { AuthStateStore } from './providers/baileys/postgres-auth-state.js';
import { preferredReplica, ReplicaRegistry, type LiveReplica } from './replicas.js';
import { SessionStats } from './session-stats.js';
import { SESSION_HOST, type SessionHost } from './session-host.js';
import { SessionLeases } from './session-leases.js';
import { SessionStore } from './session-store.repository.js';

export type StartOutcome = 'started' | 'running' | 'held-elsewhere' | 'gone' | 'not-live';

/** Announcements of replicas not heard of for this long are forgotten (the operators' page stops showing them). */
const FORGET_REPLICAS_AFTER_MS = 10 * 60_000;

/**
 * Where sessions run, across the replicas of whatsapp-sessions: a session runs only in the replica holding its Redis
 * lease (SessionLeases, with an epoch for fencing). Every REPLICA_HEARTBEAT_MS the replica announces itself (capacity,
 * load, draining: ReplicaRegistry) and reads who else is alive. Each connection prefers one replica, by rendezvous
 * hashing over the live replicas that are not draining and serve its company, weighted by their capacity. Every
 * SESSION_CLAIM_INTERVAL_MS the replica takes at once the free sessions it prefers, and any free session after
 * SESSION_CLAIM_GRACE_MS (its preferred one is full, or gone); a session whose holder is dead (no heartbeat within
 * REPLICA_TTL_MS) counts as free without waiting for its lease to lapse. A replica that is no longer preferred (one
 * joined) hands back SESSION_HANDBACK_BATCH sessions a round (the socket stopped, then the lease released: never two
 * sockets for one pairing); a drained replica hands back all of them and takes none; on shutdown it announces itself
 * draining and hands back everything at once. Every SESSION_LEASE_RENEW_MS it renews its leases and lets go of the
 * sessions whose lease it lost or whose connection was deleted or disconnected elsewhere. It sees the sessions
 * running here only as a SessionHost (the runner).
 */
@Injectable()
export class Placement implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(Placement.name);
  private readonly scope: Set<number> | undefined;
  private readonly self: { name: string; pid: number; host: string; startedAt: string };
  /** announces this replica and reads the others: at boot, then every REPLICA_HEARTBEAT_MS */
  private readonly heartbeats: PeriodicTask;
  /** looks for sessions to take or hand back: at boot, then every SESSION_CLAIM_INTERVAL_MS */
  private readonly claims: PeriodicTask;
  /** renews the leases of the sessions here every SESSION_LEASE_RENEW_MS */
  private readonly renewals: PeriodicTask;
  /** the live replicas as last read (this one included once it announced itself) */
  private replicas: LiveReplica[] = [];
  /** free sessions this replica does not prefer, and since when it has seen them free */
  private readonly freeSince = new Map<number, number>();
  private drainedByOperator = false;
  private closing = false;

  constructor(
    private readonly env: WhatsappSessionsEnv,
    private readonly leases: SessionLeases,
    @Inject(SESSION_HOST) private readonly host: SessionHost,
    private readonly store: SessionStore,
    private readonly authState: AuthStateStore,
    private readonly registry: ReplicaRegistry,
    private readonly stats: SessionStats,
  ) {
    this.scope = companyScope(env);
    if (env.SESSION_LEASE_RENEW_MS * 2 > env.SESSION_LEASE_TTL_MS) {
      throw new Error('SESSION_LEASE_RENEW_MS must be at most half of SESSION_LEASE_TTL_MS, or leases lapse between renewals');
    }
    if (env.REPLICA_HEARTBEAT_MS * 2 > env.REPLICA_TTL_MS) {
      throw new Error('REPLICA_HEARTBEAT_MS must be at most half of REPLICA_TTL_MS, or live replicas are taken for dead');
    }
    this.self = { name: leases.owner, pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
    this.heartbeats = new PeriodicTask({
      name: 'replica heartbeat',
      everyMs: env.REPLICA_HEARTBEAT_MS,
      run: () => this.heartbeat(),
      logger: this.logger,
    });
    this.claims = new PeriodicTask({
      name: 'session claims',
      everyMs: env.SESSION_CLAIM_INTERVAL_MS,
      run: () => this.claim(),
      logger: this.logger,
    });
    this.renewals = new PeriodicTask({
      name: 'session lease renewals',
      everyMs: env.SESSION_LEASE_RENEW_MS,
      run: () => this.renew(),
      logger: this.logger,
    });
  }

  /** This process, as lease holder: its replica name. */
  get owner(): string {
    return this.leases.owner;
  }

  /** The process is shutting down: it takes no session any more. */
  get shuttingDown(): boolean {
    return this.closing;
  }

  /** Handing its sessions over and taking none: drained by an operator (or the scaler), or shutting down. */
  get draining(): boolean {
    return this.closing || this.drainedByOperator;
  }

  /** The live replicas, as read now (not the last heartbeat's: an operator's drain shows at once). */
  liveReplicas(): Promise<LiveReplica[]> {
    return this.registry.live(this.env.REPLICA_TTL_MS);
  }

  /** Who holds the connection's session (null: nobody). */
  holder(connectionId: number): Promise<string | null> {
    return this.leases.holder(connectionId);
  }

  /** Announces itself before it takes anything (the others see it at once), then starts its rounds. */
  async onApplicationBootstrap(): Promise<void> {
    await this.heartbeats.runNow();
    this.heartbeats.start();
    this.claims.start();
    void this.claims.runNow();
    this.renewals.start();
  }

  /**
   * Drains: announces itself draining (the others stop preferring it and take its sessions at once), takes nothing
   * more, then ends the sessions here, releasing their leases (status kept: the others resume them).
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await Promise.all([this.claims.stop(), this.renewals.stop()]);
    await this.heartbeats.runNow();
    await this.handBack(this.host.runningIds());
    await this.heartbeats.stop();
    await this.heartbeat().catch(() => undefined);
  }

  /**
   * Starts the session here if its lease is free (or ours), or held by `deadHolder` (a replica seen dead).
   * `onlyLive`: only if the connection should run (not DISCONNECTED), for sessions taken on our own rather than
   * asked for.
   */
  startHere(connectionId: number, opts: { fresh: boolean; onlyLive?: boolean; deadHolder?: string }): Promise<StartOutcome> {
    return this.host.exclusive(connectionId, async (running) => {
      if (this.closing) return 'held-elsewhere';
      if (running) return 'running';
      const epoch = opts.deadHolder ? await this.leases.takeFrom(connectionId, opts.deadHolder) : await this.leases.acquire(connectionId);
      if (!epoch) return 'held-elsewhere';
      const row = await this.store.byId(connectionId);
      if (!row || (opts.onlyLive && row.status === 'DISCONNECTED')) {
        await this.leases.release(connectionId);
        return row ? 'not-live' : 'gone';
      }
      await this.host.launch(row, { fresh: opts.fresh, epoch });
      return 'started';
    });
  }

  /** Ends a session nobody runs: forgets its pairing and marks it DISCONNECTED (under its lease, so nobody starts it meanwhile). */
  endUnheld(connectionId: number): Promise<'ended' | 'held-elsewhere' | 'gone'> {
    return this.host.exclusive(connectionId, async (running) => {
      if (running || !(await this.leases.acquire(connectionId))) return 'held-elsewhere';
      try {
        await this.authState.clear(connectionId);
        const row = await this.store.setStatus(connectionId, { status: 'DISCONNECTED', qrcode: '', retries: 0 });
        if (!row) return 'gone'; // setStatus wrote the session event with the change
        return 'ended';
      } finally {
        await this.leases.release(connectionId);
      }
    });
  }

  /** Announces this replica (capacity, load, draining) and reads the live replicas and whether it is drained. */
  private async heartbeat(): Promise<void> {
    const sessions = this.host.runningIds();
    const { drained } = await this.registry.heartbeat(this.self, {
      capacity: this.env.SESSION_MAX_PER_PROCESS,
      load: sessions.length,
      sessions,
      memoryMb: Math.round(process.memoryUsage().rss / 2 ** 20),
      selfDraining: this.closing,
      companies: this.scope ? [...this.scope] : null,
    });
    if (drained !== this.drainedByOperator)
      this.logger.log({ replica: this.owner, drained }, drained ? 'replica drained' : 'replica no longer drained');
    this.drainedByOperator = drained;
    this.replicas = await this.registry.live(this.env.REPLICA_TTL_MS);
    await this.stats.flush();
    if (Math.random() < 0.01) await this.registry.prune(FORGET_REPLICAS_AFTER_MS);
  }

  /** The live replicas a connection of `companyId` may be placed on: not draining, serving its company. */
  private targetsFor(companyId: number): LiveReplica[] {
    return this.replicas.filter((r) => !r.draining && (!r.companies || r.companies.includes(companyId)));
  }

  /**
   * One round of placement: takes the free sessions this replica prefers (at once) and the others (after the
   * grace period), within its capacity; hands back a few of the sessions another replica now prefers; when
   * draining, hands back everything, a batch a round.
   */
  private async claim(): Promise<void> {
    if (this.closing) return;
    try {
      const running = this.host.runningIds();
      if (this.draining) {
        await this.handBack(running.slice(0, this.env.SESSION_DRAIN_BATCH));
        return;
      }
      const candidates = await this.store.live(this.scope);
      if (!this.scope) await this.registry.setDemand(candidates.length, this.env.REPLICA_TTL_MS * 3);
      const here = new Set(running);
      await this.takeFree(candidates.filter((c) => !here.has(c.id)));
      await this.rebalance(candidates.filter((c) => here.has(c.id)));
    } catch (err) {
      this.logger.error({ err }, 'looking for sessions to take failed');
    }
  }

  /** Takes, of these sessions not running here, the free ones (or held by a dead replica) it should take now. */
  private async takeFree(candidates: Array<{ id: number; companyId: number }>): Promise<void> {
    const room = this.env.SESSION_MAX_PER_PROCESS - this.host.runningIds().length;
    if (candidates.length === 0 || room <= 0) return;
    const alive = new Set(this.replicas.map((r) => r.name));
    const holders = await this.leases.holders(candidates.map((c) => c.id));
    const now = Date.now();
    const seen = new Set<number>();
    const taking: Array<{ id: number; deadHolder?: string; preferred: boolean }> = [];
    for (const [i, c] of candidates.entries()) {
      if (taking.length >= room) break;
      const holder = holders[i] ?? null;
      if (holder && holder !== this.owner && alive.has(holder)) continue; // runs on a live replica
      seen.add(c.id);
      const preferred = preferredReplica(c.id, this.targetsFor(c.companyId));
      if (preferred !== this.owner && preferred !== undefined) {
        const since = this.freeSince.get(c.id) ?? now;
        this.freeSince.set(c.id, since);
        if (now - since < this.env.SESSION_CLAIM_GRACE_MS) continue; // its preferred replica takes it first
      }
      taking.push({ id: c.id, deadHolder: holder && holder !== this.owner ? holder : undefined, preferred: preferred === this.owner });
    }
    for (const id of this.freeSince.keys()) if (!seen.has(id)) this.freeSince.delete(id);
    // SESSION_START_CONCURRENCY at a time: a dead replica's hundreds of sessions come back within the failover's time
    let next = 0;
    const worker = async () => {
      for (let t = taking[next++]; t && !this.draining; t = taking[next++]) {
        const outcome = await this.startHere(t.id, { fresh: false, onlyLive: true, deadHolder: t.deadHolder }).catch((err: unknown) => {
          this.logger.error({ err, connectionId: t.id }, 'session not started');
          return 'failed';
        });
        if (outcome === 'started') {
          this.freeSince.delete(t.id);
          this.logger.log({ connectionId: t.id, owner: this.owner, from: t.deadHolder, preferred: t.preferred }, 'session taken');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.env.SESSION_START_CONCURRENCY, taking.length) }, worker));
  }

  /**
   * Hands back up to SESSION_HANDBACK_BATCH of the sessions here that prefer another live replica with room for
   * them (one joined, or stopped draining): that replica takes them at its next round.
   */
  private async rebalance(mine: Array<{ id: number; companyId: number }>): Promise<void> {
    const room = new Map(this.replicas.map((r) => [r.name, r.capacity - r.load]));
    const moving: number[] = [];
    for (const c of mine) {
      if (moving.length >= this.env.SESSION_HANDBACK_BATCH) break;
      const preferred = preferredReplica(c.id, this.targetsFor(c.companyId));
      if (!preferred || preferred === this.owner || (room.get(preferred) ?? 0) <= 0) continue;
      room.set(preferred, (room.get(preferred) ?? 0) - 1);
      moving.push(c.id);
    }
    if (moving.length > 0) this.logger.log({ replica: this.owner, sessions: moving }, 'handing sessions back to their preferred replica');
    await this.handBack(moving);
  }

  /** Stops these sessions here and releases their leases (their status kept: another replica resumes them). */
  private async handBack(ids: number[]): Promise<void> {
    await Promise.all(
      ids.map((id) =>
        this.host
          .exclusive(id, (running) => (running ? this.host.stop(id, { release: true }) : Promise.resolve()))
          .catch((err: unknown) => this.logger.error({ err, connectionId: id }, 'session not handed back cleanly')),
      ),
    );
  }

  /** Keeps our leases; lets go of sessions whose lease we lost or whose connection was deleted or disconnected elsewhere. */
  private async renew(): Promise<void> {
    const ids = this.host.runningIds();
    if (ids.length === 0 || this.closing) return;
    try {
      const held = ids.flatMap((id) => {
        const epoch = this.host.epochOf(id);
        return epoch === undefined ? [] : [{ id, epoch }];
      });
      const lost = new Set(await this.leases.renew(held));
      const live = await this.store.stillLive(ids);
      for (const id of ids) {
        if (lost.has(id)) {
          this.logger.warn({ connectionId: id }, 'session lease lost; stopping the session here');
          await this.host.exclusive(id, (running) => (running ? this.host.stop(id, { release: false }) : Promise.resolve()));
        } else if (!live.has(id)) {
          // deleted, or disconnected elsewhere; checked again under the connection's lock (a launch writes OPENING)
          await this.host.exclusive(id, async (running) => {
            const row = running ? await this.store.byId(id) : undefined;
            if (running && (!row || row.status === 'DISCONNECTED')) await this.host.stop(id, { release: true });
          });
        }
      }
    } catch (err) {
      this.logger.error({ err }, 'renewing session leases failed');
    }
  }
}
