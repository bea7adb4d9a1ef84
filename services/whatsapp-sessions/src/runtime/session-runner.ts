import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { ConnectionStatus, SessionEndReason } from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import { WhatsappSessionsEnv } from '../config/env.js';
import type { ConnectionEntity } from '../database/entities/connection.entity.js';
import { AckWindow } from './ack-window.js';
import { InboundPublisher, type SessionAck } from './inbound-publisher.js';
import type { LiveSession } from './live-session.js';
import { OutboundConsumer } from './outbound-consumer.js';
import { AuthStateStore } from './providers/baileys/postgres-auth-state.js';
import { ProviderClosedError, type ProviderEventMap } from './providers/provider.js';
import { ProviderFactory } from './providers/provider-factory.js';
import { CloseCodes, decideClose, NO_CLOSES, type CloseHistory, type ClosePolicy } from './reconnect-backoff.js';
import { serveCommands, type CommandReply, type SessionCommand } from './session-commands.js';
import type { SessionHost } from './session-host.js';
import { SessionLeases } from './session-leases.js';
import { SessionStats } from './session-stats.js';
import { SessionStore, type StatusPatch } from './session-store.repository.js';

/** Carries out a command on a session running here (the command handler); `notHere` when none runs. */
export type CommandExecutor = (connectionId: number, cmd: SessionCommand) => Promise<CommandReply>;

/**
 * Runs the sessions this process holds, from launch to teardown: turns provider events into our world
 * (status rows and `connection.session.*` events; received messages and acks through the inbound
 * publisher), answers a closed session as the disconnect table says (reconnect-backoff.ts' decideClose: at once
 * after a 515, with back-off without end after a drop, stopped after a logout, a ban or a takeover), starts the outbound
 * consumer while CONNECTED and hands the commands of its sessions to the command handler. Which sessions
 * run here is placement's business (it sees the runner as a SessionHost); the runner only releases a lease
 * when a session ends for good.
 */
@Injectable()
export class SessionRunner implements SessionHost, BeforeApplicationShutdown {
  private readonly logger = new Logger(SessionRunner.name);
  private readonly sessions = new Map<number, LiveSession>();
  /** start, restart, end and takeover of one connection never interleave */
  private readonly ops = new Map<number, Promise<unknown>>();
  /** sessions being stopped: nothing starts the connection again before they are done */
  private readonly stopping = new Map<number, Promise<void>>();
  /** what each session's last closes leave for the next (a 515 just before, 500s so far): see decideClose */
  private readonly closes = new WeakMap<LiveSession, CloseHistory>();
  private readonly closePolicy: ClosePolicy;
  /** every session's status changes, gathered for ACK_WINDOW_MS and written together: one statement for them all */
  private readonly acks: AckWindow<SessionAck>;
  private execute: CommandExecutor = async () => ({ ok: false, notHere: true });

  constructor(
    private readonly env: WhatsappSessionsEnv,
    private readonly leases: SessionLeases,
    private readonly store: SessionStore,
    private readonly bus: EventBus,
    private readonly providers: ProviderFactory,
    private readonly authState: AuthStateStore,
    private readonly inbound: InboundPublisher,
    private readonly outbound: OutboundConsumer,
    private readonly stats: SessionStats,
  ) {
    this.closePolicy = {
      baseMs: env.BAILEYS_RECONNECT_BASE_MS,
      maxMs: env.BAILEYS_RECONNECT_MAX_MS,
      fastTries: env.BAILEYS_RECONNECT_FAST_TRIES,
      slowMs: env.BAILEYS_RECONNECT_SLOW_MS,
      badSessionTries: env.BAILEYS_BAD_SESSION_RETRIES,
      falseLogoutWindowMs: env.BAILEYS_FALSE_LOGOUT_WINDOW_MS,
    };
    this.acks = new AckWindow<SessionAck>(
      env.ACK_WINDOW_MS,
      (acks) => this.inbound.updates(acks),
      (err, acks) =>
        this.logger.error(
          { err, connections: [...new Set(acks.map((a) => a.session.id))], acks: acks.length },
          'status changes not written; given up',
        ),
    );
  }

  /** Who carries out the commands sent to the sessions running here (the command handler registers itself). */
  handleCommandsWith(execute: CommandExecutor): void {
    this.execute = execute;
  }

  /** Is the connection's session running in this process? */
  isRunning(connectionId: number): boolean {
    return this.sessions.has(connectionId);
  }

  runningIds(): number[] {
    return [...this.sessions.keys()];
  }

  epochOf(connectionId: number): number | undefined {
    return this.sessions.get(connectionId)?.epoch;
  }

  /** The session of a connection running here. */
  session(connectionId: number): LiveSession | undefined {
    return this.sessions.get(connectionId);
  }

  /** The company of a session running in this process (a session exists only for a connection that does). */
  localCompanyOf(connectionId: number): number | undefined {
    return this.sessions.get(connectionId)?.companyId;
  }

  exclusive<T>(connectionId: number, fn: (running: boolean) => Promise<T>): Promise<T> {
    return this.serial(connectionId, async () => {
      await this.stopping.get(connectionId);
      return fn(this.sessions.has(connectionId));
    });
  }

  /**
   * Stops the connection's session here, if it runs (within `exclusive`). `status` is stored (and published)
   * when given; otherwise the stored status stays, so that another process resumes the session. `logout`:
   * unpairs the phone first.
   */
  async stop(connectionId: number, opts: { release: boolean; logout?: boolean; status?: ConnectionStatus }): Promise<void> {
    const s = this.sessions.get(connectionId);
    if (s) await this.teardown(s, opts);
  }

  /** Sessions still being stopped when the process shuts down are waited for (placement stops the others). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.stopping.values());
  }

  /** Runs `fn` after every earlier start, restart, end or takeover of the connection finished. */
  private serial<T>(connectionId: number, fn: () => Promise<T>): Promise<T> {
    const prev = this.ops.get(connectionId) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(fn);
    const tail = next.catch(() => undefined);
    this.ops.set(connectionId, tail);
    void tail.then(() => {
      if (this.ops.get(connectionId) === tail) this.ops.delete(connectionId);
    });
    return next;
  }

  /**
   * Starts the connection's session here (its lease is ours): OPENING, then whatever its provider
   * reports. `fresh`: the pairing is forgotten first (a new QR). Call inside `exclusive`.
   */
  async launch(row: ConnectionEntity, opts: { fresh: boolean; epoch: number }): Promise<void> {
    const s: LiveSession = {
      id: row.id,
      companyId: row.companyId,
      provider: this.providers.create(row, () => this.leases.holds(row.id, opts.epoch)),
      epoch: opts.epoch,
      status: row.status,
      retries: 0,
      qrCount: 0,
      chain: Promise.resolve(),
      stopped: false,
    };
    this.sessions.set(s.id, s);
    s.stopServing = serveCommands(this.bus, s.id, (cmd) => this.execute(s.id, cmd));
    s.provider.ev.on('connection', (change) => this.enqueue(s, () => this.onConnectionChange(s, change)));
    // a message is accepted only once it is on JetStream: a session stopping first refuses it
    s.provider.ev.on('messages', (received) => this.upsert(s, received));
    s.provider.ev.on('acks', async (acks) => {
      if (!s.stopped) await this.acks.add(acks.map((ack) => ({ session: s, ...ack })));
    });
    // a call's offer is told once it is on JetStream (the sandbox answers the caller then)
    s.provider.ev.on('call', async (call) => {
      if (!s.stopped) await this.inbound.call(s, call);
    });
    s.provider.ev.on('lids', async (pairs) => {
      if (!s.stopped) await this.inbound.lids(s, pairs);
    });
    s.provider.ev.on('presence', async (presences) => {
      if (!s.stopped) await this.inbound.presence(s, presences);
    });
    try {
      if (opts.fresh) await this.authState.clear(s.id);
      await this.enqueue(s, () => this.applyStatus(s, { status: 'OPENING', qrcode: '', retries: 0 }));
    } catch (err) {
      // not started after all: nothing of it stays here, and the lease is free for a later try
      await this.teardown(s, { release: true });
      throw err;
    }
    await this.open(s);
  }

  /**
   * Stops a session here. `status` is stored (and published) when given; otherwise the stored status
   * stays, so that another process resumes the session (shutdown, lost lease).
   */
  private teardown(
    s: LiveSession,
    opts: { release: boolean; logout?: boolean; status?: ConnectionStatus; forgetPairing?: boolean; reason?: SessionEndReason },
  ): Promise<void> {
    if (s.ended) return s.ended;
    s.stopped = true;
    clearTimeout(s.reconnectTimer);
    s.provider.ev.removeAllListeners();
    s.stopServing?.();
    if (this.sessions.get(s.id) === s) {
      this.sessions.delete(s.id);
      this.stats.gone(s.id);
    }
    if (opts.reason) this.stats.error(s.id, opts.reason);
    const ended = (async () => {
      // status changes told before the stop are written (acks only go up: whoever runs the session next agrees)
      await this.acks.flush();
      await this.outbound.stop(s);
      try {
        if (opts.logout) await s.provider.logout();
        else await s.provider.end();
      } catch (err) {
        this.logger.warn({ err, connectionId: s.id }, 'provider did not close cleanly');
      }
      if (opts.forgetPairing || opts.logout) {
        await this.authState.clear(s.id).catch((err: unknown) => this.logger.error({ err, connectionId: s.id }, 'pairing not forgotten'));
      }
      if (opts.status) {
        s.status = opts.status;
        await this.store.setStatus(s.id, { status: opts.status, qrcode: '', retries: 0, reason: opts.reason }); // with its session event
      }
      // last: until now the lease keeps every other process away, and `stopping` this one
      if (opts.release) await this.leases.release(s.id);
    })();
    s.ended = ended;
    const settled = ended.catch(() => undefined);
    this.stopping.set(s.id, settled);
    void settled.then(() => {
      if (this.stopping.get(s.id) === settled) this.stopping.delete(s.id);
    });
    return ended;
  }

  /**
   * Opens (or reopens) the provider: resolves once it started (the sandbox is CONNECTED by then; Baileys
   * has its socket and reports later). A failure counts as a dropped connection.
   */
  private async open(s: LiveSession): Promise<void> {
    if (s.stopped) return;
    try {
      await s.provider.start();
    } catch (err) {
      this.logger.warn({ err, connectionId: s.id }, 'session did not open');
      void this.enqueue(s, () => this.onConnectionChange(s, { kind: 'close' }));
    }
  }

  /**
   * Received messages take their turn on the session's chain; those that come while they wait join them, so a
   * turn publishes everything waiting at once (conversations side by side), not one upsert per round trip to
   * JetStream. Each upsert resolves once its own messages are on JetStream, or fails with what held them back.
   */
  private async upsert(s: LiveSession, u: ProviderEventMap['messages']): Promise<void> {
    let turn = s.waitingUpserts;
    if (!turn) {
      const upserts: Array<ProviderEventMap['messages']> = [];
      const started = this.enqueue(
        s,
        () => {
          if (s.waitingUpserts === turn) s.waitingUpserts = undefined;
          return Promise.resolve();
        },
        { refuseWhenStopped: true },
      );
      turn = { upserts, done: started.then(() => this.inbound.upsertMany(s, upserts)) };
      // the chain goes on once the turn is published (a later connection update waits for it, as before)
      s.chain = turn.done.then(
        () => undefined,
        () => undefined,
      );
      s.waitingUpserts = turn;
    }
    const index = turn.upserts.push(u) - 1;
    const failures = await turn.done;
    if (failures[index] !== undefined) throw failures[index];
  }

  private enqueue(s: LiveSession, job: () => Promise<void>, opts: { refuseWhenStopped?: boolean } = {}): Promise<void> {
    const run = s.chain.then(() => {
      if (!s.stopped) return job();
      if (opts.refuseWhenStopped) throw new ProviderClosedError(s.provider.kind);
      return undefined;
    });
    s.chain = run.catch((err: unknown) => this.logger.error({ err, connectionId: s.id }, 'session event not handled'));
    return run;
  }

  private async onConnectionChange(s: LiveSession, intent: ProviderEventMap['connection']): Promise<void> {
    if (intent.kind === 'status') {
      if (intent.status === 'qrcode' && ++s.qrCount > this.env.BAILEYS_MAX_QR) {
        this.logger.warn({ connectionId: s.id }, 'QR code not scanned in time; giving up');
        await this.teardown(s, { status: 'DISCONNECTED', release: true });
        return;
      }
      const patch: StatusPatch = { status: intent.status, qrcode: intent.qrcode };
      if (intent.status === 'CONNECTED') {
        s.retries = 0;
        s.qrCount = 0;
        // a 515 just before stays good for its false logout; the 500s counted start over
        const history = this.closes.get(s);
        if (history) this.closes.set(s, { ...history, badSessions: 0 });
        patch.retries = 0;
        if (intent.number) patch.number = intent.number;
      }
      await this.applyStatus(s, patch);
      if (intent.status === 'CONNECTED') this.outbound.start(s);
      return;
    }
    // closed: what it comes to is the disconnect table's (decideClose)
    const wasConnected = s.status === 'CONNECTED';
    void this.outbound.stop(s);
    const d = decideClose(
      { code: intent.code, history: this.closes.get(s) ?? NO_CLOSES, retries: s.retries, now: Date.now() },
      this.closePolicy,
    );
    this.closes.set(s, d.next);
    const log = { connectionId: s.id, code: intent.code, why: d.why };
    switch (d.action) {
      case 'logged-out':
      case 'replaced':
        // the reason goes with the DISCONNECTED event: a ban or a logout stops the connection's campaigns;
        // another client holding the session (replaced) is shown to the admins; only that one keeps the pairing
        this.logger.warn({ ...log, reason: d.reason, forgetPairing: d.forgetPairing }, 'session ended by WhatsApp; stopping');
        await this.teardown(s, { status: 'DISCONNECTED', release: true, forgetPairing: d.forgetPairing, reason: d.reason });
        return;
      case 'restart':
        // a restart that was not asked for (a false logout after a 515) is worth a warning
        if (intent.code === CloseCodes.restartRequired) this.logger.log(log, 'session restarted');
        else this.logger.warn(log, 'session restarted instead of ended');
        void this.open(s);
        return;
      case 'retry': {
        // the phone is still paired: keep trying, ever less often, until it connects or WhatsApp ends it
        s.retries++;
        this.stats.reconnect(s.id, `closed${intent.code === undefined ? '' : ` (${intent.code})`}: ${d.why}`);
        await this.applyStatus(s, { status: wasConnected || s.status === 'TIMEOUT' ? 'TIMEOUT' : 'OPENING', retries: s.retries });
        if (s.stopped) return;
        this.logger.warn({ ...log, retries: s.retries, delayMs: d.delayMs }, 'session dropped; reconnecting');
        clearTimeout(s.reconnectTimer);
        s.reconnectTimer = setTimeout(() => void this.open(s), d.delayMs);
        return;
      }
    }
  }

  private async applyStatus(s: LiveSession, patch: StatusPatch): Promise<void> {
    s.status = patch.status;
    this.stats.status(s.id, patch.status);
    const row = await this.store.setStatus(s.id, patch);
    if (!row) {
      // the connection was deleted under us
      await this.teardown(s, { release: true });
    }
  }
}
