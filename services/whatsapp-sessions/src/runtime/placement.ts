import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
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
  private claimTimer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;
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
    this.claimTimer = setInterval(() => void this.claim(), this.env.SESSION_CLAIM_INTERVAL_MS);
    this.renewTimer = setInterval(() => void this.renew(), this.env.SESSION_LEASE_RENEW_MS);
    this.claimTimer.unref();
    this.renewTimer.unref();
    void this.claim();
  }

  /** Stops taking sessions, then ends the sessions here, releasing their leases (status kept: another process resumes them). */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    clearInterval(this.claimTimer);
    clearInterval(this.renewTimer);
    await this.claiming?.catch(() => undefined);
    await Promise.all(
      this.host.runningIds().map((id) =>
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
  private claim(): Promise<void> {
    if (this.closing) return Promise.resolve();
    this.claiming ??= this.claimOnce().finally(() => {
      this.claiming = undefined;
    });
    return this.claiming;
  }

  private async claimOnce(): Promise<void> {
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
