import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { PeriodicTask } from '@wa/server-kit';
import { WhatsappSessionsEnv, companyScope } from '../config/env.js';
import { AuthStateStore } from './providers/baileys/postgres-auth-state.js';
import { SESSION_HOST, type SessionHost } from './session-host.js';
import { SessionLeases } from './session-leases.js';
import { SessionStore } from './session-store.repository.js';

export type StartOutcome = 'started' | 'running' | 'held-elsewhere' | 'gone' | 'not-live';

/**
 * Where sessions run: a session runs only in the process holding its Redis lease. At boot and every
 * SESSION_CLAIM_INTERVAL_MS this process takes the sessions that should run and that nobody holds
 * (within its share); every SESSION_LEASE_RENEW_MS it renews its leases and lets go of the sessions
 * whose lease it lost or whose connection was deleted or disconnected elsewhere. On shutdown it hands
 * its sessions back. It sees the sessions running here only as a SessionHost (the runner).
 */
@Injectable()
export class Placement implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(Placement.name);
  private readonly scope: Set<number> | undefined;
  /** looks for sessions to take: at boot, then every SESSION_CLAIM_INTERVAL_MS */
  private readonly claims: PeriodicTask;
  /** renews the leases of the sessions here every SESSION_LEASE_RENEW_MS */
  private readonly renewals: PeriodicTask;
  private closing = false;

  constructor(
    private readonly env: WhatsappSessionsEnv,
    private readonly leases: SessionLeases,
    @Inject(SESSION_HOST) private readonly host: SessionHost,
    private readonly store: SessionStore,
    private readonly authState: AuthStateStore,
  ) {
    this.scope = companyScope(env);
    if (env.SESSION_LEASE_RENEW_MS * 2 > env.SESSION_LEASE_TTL_MS) {
      throw new Error('SESSION_LEASE_RENEW_MS must be at most half of SESSION_LEASE_TTL_MS, or leases lapse between renewals');
    }
    this.claims = new PeriodicTask({
      name: 'session claims',
      everyMs: env.SESSION_CLAIM_INTERVAL_MS,
      run: () => this.claim(),
      logger: this.logger,
      runAtStart: true,
    });
    this.renewals = new PeriodicTask({
      name: 'session lease renewals',
      everyMs: env.SESSION_LEASE_RENEW_MS,
      run: () => this.renew(),
      logger: this.logger,
    });
  }

  /** This process, as lease holder (shown to operators). */
  get owner(): string {
    return this.leases.owner;
  }

  /** The process is shutting down: it takes no session any more. */
  get shuttingDown(): boolean {
    return this.closing;
  }

  /** Who holds the connection's session (null: nobody). */
  holder(connectionId: number): Promise<string | null> {
    return this.leases.holder(connectionId);
  }

  onApplicationBootstrap(): void {
    this.claims.start();
    this.renewals.start();
  }

  /** Stops taking sessions, then ends the sessions here, releasing their leases (status kept: another process resumes them). */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await Promise.all([this.claims.stop(), this.renewals.stop()]);
    await Promise.all(
      this.host
        .runningIds()
        .map((id) =>
          this.host
            .exclusive(id, (running) => (running ? this.host.stop(id, { release: true }) : Promise.resolve()))
            .catch((err: unknown) => this.logger.error({ err, connectionId: id }, 'session not handed back cleanly')),
        ),
    );
  }

  /**
   * Starts the session here if its lease is free (or ours). `onlyLive`: only if the connection should
   * run (not DISCONNECTED), for sessions taken on our own rather than asked for.
   */
  startHere(connectionId: number, opts: { fresh: boolean; onlyLive?: boolean }): Promise<StartOutcome> {
    return this.host.exclusive(connectionId, async (running) => {
      if (this.closing) return 'held-elsewhere';
      if (running) return 'running';
      if (!(await this.leases.acquire(connectionId))) return 'held-elsewhere';
      const row = await this.store.byId(connectionId);
      if (!row || (opts.onlyLive && row.status === 'DISCONNECTED')) {
        await this.leases.release(connectionId);
        return row ? 'not-live' : 'gone';
      }
      await this.host.launch(row, opts);
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

  /** Takes the sessions that should run and that nobody holds, within this process' share. */
  private async claim(): Promise<void> {
    if (this.closing) return;
    const max = this.env.SESSION_MAX_PER_PROCESS;
    try {
      const here = () => this.host.runningIds().length;
      if (here() >= max) return;
      const candidates = await this.store.live(this.scope, max + here());
      for (const { id } of candidates) {
        if (this.closing || here() >= max) break;
        if (this.host.runningIds().includes(id)) continue;
        const outcome = await this.startHere(id, { fresh: false, onlyLive: true }).catch((err: unknown) => {
          this.logger.error({ err, connectionId: id }, 'session not started');
          return 'failed';
        });
        if (outcome === 'started') this.logger.log({ connectionId: id, owner: this.owner }, 'session taken');
      }
    } catch (err) {
      this.logger.error({ err }, 'looking for sessions to take failed');
    }
  }

  /** Keeps our leases; lets go of sessions whose lease we lost or whose connection was deleted or disconnected elsewhere. */
  private async renew(): Promise<void> {
    const ids = this.host.runningIds();
    if (ids.length === 0 || this.closing) return;
    try {
      const lost = new Set(await this.leases.renew(ids));
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
