import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Streams, WaSubjects, type ConnectionStatus, type SandboxInboundRequest, type WaOutboundSend } from '@wa/contracts';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { DomainError } from '@wa/server-kit';
import type { ErrorCode } from '@wa/contracts';
import type { WAMessage } from '@whiskeysockets/baileys';
import type { Msg, Subscription } from 'nats';
import { WhatsappSessionsEnv, companyScope } from '../config/env.js';
import { ConnectionEvents } from '../connections/connection-events.js';
import type { ConnectionEntity } from '../database/entities/connection.entity.js';
import { AuthStateStore } from './baileys/postgres-auth-state.js';
import { connectionIntent, contactToJid, jidToContact, subjectToken, toAcks, toInboundMessage, type MappingContext } from './baileys/mapping.js';
import type { ProviderEventMap, SessionProvider } from './provider.js';
import { ProviderFactory } from './provider-factory.js';
import { SandboxProvider } from './sandbox/sandbox.provider.js';
import { SessionLeases } from './session-leases.js';
import { SessionStore, type StatusPatch } from './session-store.js';

/** What can be asked of a connection's session, wherever it runs. */
export type SessionCommand =
  | { action: 'start' }
  /** a new pairing: the auth state is forgotten and the session starts again (the "new QR" button) */
  | { action: 'restart' }
  /** disconnect: unpair (logout) and stop; the connection becomes DISCONNECTED */
  | { action: 'end' }
  /** sandbox only: deliver messages as WhatsApp would, in one upsert */
  | { action: 'inbound'; messages: SandboxInboundRequest[] };

type CommandReply = { ok: true; result?: unknown } | { ok: false; notHere?: boolean; code?: ErrorCode; message?: string; status?: number };

/** Core NATS subject (no stream holds it) on which the holder of a session takes commands. */
export const commandSubject = (connectionId: number) => `whatsapp-sessions.cmd.${connectionId}`;
/** The durable consumer of a connection's outbound sends; it outlives holders, so a takeover resumes it. */
export const outboundDurable = (connectionId: number) => `wa-out-${connectionId}`;

const COMMAND_TIMEOUT_MS = 15_000;
const ROUTE_ATTEMPTS = 5;

interface LiveSession {
  id: number;
  companyId: number;
  ctx: MappingContext;
  provider: SessionProvider;
  status: ConnectionStatus;
  retries: number;
  qrCount: number;
  /** connection updates and received messages are handled one after the other, in order */
  chain: Promise<void>;
  consumer?: ConsumerHandle;
  consumerOp: Promise<void>;
  sub?: Subscription;
  reconnectTimer?: NodeJS.Timeout;
  stopped: boolean;
  /** the teardown, once it began */
  ended?: Promise<void>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs the sessions this process holds: turns provider events into our world (status rows and
 * `connection.session.*` events, `wa.inbound.*` and `wa.ack.*` on JetStream) and sends what
 * `wa.outbound.send.<connectionId>` asks. A session runs only where its Redis lease is held; at boot
 * and periodically the manager takes the sessions nobody holds, and on shutdown it hands its own back.
 */
@Injectable()
export class SessionManager implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SessionManager.name);
  private readonly sessions = new Map<number, LiveSession>();
  /** start, restart, end and takeover of one connection never interleave */
  private readonly ops = new Map<number, Promise<unknown>>();
  /** sessions being stopped: nothing starts the connection again before they are done */
  private readonly stopping = new Map<number, Promise<void>>();
  private readonly scope: Set<number> | undefined;
  private claimTimer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;
  private shuttingDown = false;

  constructor(
    private readonly env: WhatsappSessionsEnv,
    private readonly leases: SessionLeases,
    private readonly store: SessionStore,
    private readonly events: ConnectionEvents,
    private readonly bus: EventBus,
    private readonly providers: ProviderFactory,
    private readonly authState: AuthStateStore,
  ) {
    this.scope = companyScope(env);
    if (env.SESSION_LEASE_RENEW_MS * 2 > env.SESSION_LEASE_TTL_MS) {
      throw new Error('SESSION_LEASE_RENEW_MS must be at most half of SESSION_LEASE_TTL_MS, or leases lapse between renewals');
    }
  }

  get owner(): string {
    return this.leases.owner;
  }

  /** Is the connection's session running in this process? */
  isRunning(connectionId: number): boolean {
    return this.sessions.has(connectionId);
  }

  runningIds(): number[] {
    return [...this.sessions.keys()];
  }

  onApplicationBootstrap(): void {
    this.claimTimer = setInterval(() => void this.claim(), this.env.SESSION_CLAIM_INTERVAL_MS);
    this.renewTimer = setInterval(() => void this.renew(), this.env.SESSION_LEASE_RENEW_MS);
    this.claimTimer.unref();
    this.renewTimer.unref();
    void this.claim();
  }

  /** Stops taking sessions, stops the outbound consumers and ends the sessions, releasing their leases (status kept: another process resumes them). */
  async beforeApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    clearInterval(this.claimTimer);
    clearInterval(this.renewTimer);
    await this.claiming?.catch(() => undefined);
    await Promise.all(
      [...this.sessions.values()].map((s) =>
        this.serial(s.id, () => this.teardown(s, { release: true })).catch((err: unknown) =>
          this.logger.error({ err, connectionId: s.id }, 'session not handed back cleanly'),
        ),
      ),
    );
    await Promise.all(this.stopping.values());
  }

  // ---------------------------------------------------------------- commands, wherever the session runs

  /**
   * Runs a command on the connection's session: here when this process holds it, through its holder
   * when another does, and when nobody does, here after taking the lease (start, restart) or directly
   * on the stored state (end).
   */
  /** The company of a session running in this process (a session exists only for a connection that does). */
  localCompanyOf(connectionId: number): number | undefined {
    return this.sessions.get(connectionId)?.companyId;
  }

  async command(connectionId: number, cmd: SessionCommand): Promise<unknown> {
    for (let attempt = 0; attempt < ROUTE_ATTEMPTS; attempt++) {
      if (this.sessions.has(connectionId)) {
        const local = await this.executeLocal(connectionId, cmd);
        if (local.ok) return local.result;
        if (!local.notHere) throw new DomainError(local.code ?? 'ERR_INTERNAL', {}, local.message, local.status);
      }
      const remote = await this.request(connectionId, cmd);
      if (remote) {
        if (remote.ok) return remote.result;
        if (!remote.notHere) throw new DomainError(remote.code ?? 'ERR_INTERNAL', {}, remote.message, remote.status);
      }
      // nobody runs it (or its holder is letting it go)
      if (cmd.action === 'inbound') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
      if (this.shuttingDown) throw new DomainError('ERR_SERVICE_UNAVAILABLE');
      const outcome =
        cmd.action === 'end' ? await this.endUnheld(connectionId) : await this.startHere(connectionId, { fresh: cmd.action === 'restart' });
      if (outcome === 'gone') throw new DomainError('ERR_NO_WAPP_FOUND');
      if (outcome === 'running') continue; // taken here meanwhile: run the command on it
      if (outcome !== 'held-elsewhere') return undefined;
      await sleep(100 * (attempt + 1));
    }
    throw new DomainError('ERR_SERVICE_UNAVAILABLE', {}, 'The session is moving between processes; try again.');
  }

  private async request(connectionId: number, cmd: SessionCommand): Promise<CommandReply | undefined> {
    try {
      const msg = await this.bus.connection.request(commandSubject(connectionId), encoder.encode(JSON.stringify(cmd)), { timeout: COMMAND_TIMEOUT_MS });
      return JSON.parse(decoder.decode(msg.data)) as CommandReply;
    } catch (err) {
      if ((err as { code?: string }).code === '503') return undefined; // no responders: nobody holds it
      this.logger.error({ err, connectionId, action: cmd.action }, 'session holder did not answer');
      throw new DomainError('ERR_SERVICE_UNAVAILABLE');
    }
  }

  private onCommand(connectionId: number, msg: Msg): void {
    let cmd: SessionCommand;
    try {
      cmd = JSON.parse(decoder.decode(msg.data)) as SessionCommand;
    } catch {
      msg.respond(encoder.encode(JSON.stringify({ ok: false, code: 'ERR_VALIDATION' } satisfies CommandReply)));
      return;
    }
    void this.executeLocal(connectionId, cmd).then((reply) => msg.respond(encoder.encode(JSON.stringify(reply))));
  }

  private async executeLocal(connectionId: number, cmd: SessionCommand): Promise<CommandReply> {
    try {
      switch (cmd.action) {
        case 'start':
        case 'restart':
          return await this.serial(connectionId, async () => {
            const s = this.sessions.get(connectionId);
            if (!s) return { ok: false, notHere: true };
            // "try again" on a session that is up changes nothing; otherwise it starts over
            if (cmd.action === 'start' && s.status === 'CONNECTED') return { ok: true };
            const row = await this.store.byId(connectionId);
            await this.teardown(s, { release: !row });
            if (!row) return { ok: false, code: 'ERR_NO_WAPP_FOUND' };
            await this.launch(row, { fresh: cmd.action === 'restart' });
            return { ok: true };
          });
        case 'end':
          return await this.serial(connectionId, async () => {
            const s = this.sessions.get(connectionId);
            if (!s) return { ok: false, notHere: true };
            await this.teardown(s, { logout: true, status: 'DISCONNECTED', release: true });
            return { ok: true };
          });
        case 'inbound': {
          const s = this.sessions.get(connectionId);
          if (!s) return { ok: false, notHere: true };
          if (!(s.provider instanceof SandboxProvider)) return { ok: false, code: 'ERR_VALIDATION', message: 'This connection is not a sandbox connection.' };
          if (s.status !== 'CONNECTED' || !s.provider.isOpen) return { ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' };
          const ids = await s.provider.deliver(cmd.messages);
          return { ok: true, result: { ids } };
        }
        default:
          return { ok: false, code: 'ERR_VALIDATION', message: 'unknown session command' };
      }
    } catch (err) {
      if (err instanceof DomainError) return { ok: false, code: err.code, message: err.message, status: err.status };
      this.logger.error({ err, connectionId, action: cmd.action }, 'session command failed');
      return { ok: false, code: 'ERR_INTERNAL' };
    }
  }

  /** Forgets a deleted connection's outbound consumer. */
  async forget(connectionId: number): Promise<void> {
    try {
      const jsm = await this.bus.connection.jetstreamManager();
      await jsm.consumers.delete(Streams.WA.name, outboundDurable(connectionId));
    } catch {
      // never created, or already gone
    }
  }

  // ---------------------------------------------------------------- placement

  /**
   * Starts the session here if its lease is free (or ours). `onlyLive`: only if the connection should
   * run (not DISCONNECTED), for sessions taken on our own rather than asked for.
   */
  private startHere(connectionId: number, opts: { fresh: boolean; onlyLive?: boolean }): Promise<'started' | 'running' | 'held-elsewhere' | 'gone' | 'not-live'> {
    return this.serial(connectionId, async () => {
      await this.stopping.get(connectionId);
      if (this.shuttingDown) return 'held-elsewhere';
      if (this.sessions.has(connectionId)) return 'running';
      if (!(await this.leases.acquire(connectionId))) return 'held-elsewhere';
      const row = await this.store.byId(connectionId);
      if (!row || (opts.onlyLive && row.status === 'DISCONNECTED')) {
        await this.leases.release(connectionId);
        return row ? 'not-live' : 'gone';
      }
      await this.launch(row, opts);
      return 'started';
    });
  }

  /** Ends a session nobody runs: forgets its pairing and marks it DISCONNECTED (under its lease, so nobody starts it meanwhile). */
  private endUnheld(connectionId: number): Promise<'ended' | 'held-elsewhere' | 'gone'> {
    return this.serial(connectionId, async () => {
      await this.stopping.get(connectionId);
      if (this.sessions.has(connectionId) || !(await this.leases.acquire(connectionId))) return 'held-elsewhere';
      try {
        await this.authState.clear(connectionId);
        const row = await this.store.setStatus(connectionId, { status: 'DISCONNECTED', qrcode: '', retries: 0 });
        if (!row) return 'gone';
        await this.events.session(row);
        return 'ended';
      } finally {
        await this.leases.release(connectionId);
      }
    });
  }

  /** Takes the sessions that should run and that nobody holds, within this process' share. */
  private claim(): Promise<void> {
    if (this.shuttingDown) return Promise.resolve();
    this.claiming ??= this.claimOnce().finally(() => {
      this.claiming = undefined;
    });
    return this.claiming;
  }

  private async claimOnce(): Promise<void> {
    try {
      if (this.sessions.size >= this.env.SESSION_MAX_PER_PROCESS) return;
      const candidates = await this.store.live(this.scope, this.env.SESSION_MAX_PER_PROCESS + this.sessions.size);
      for (const { id } of candidates) {
        if (this.shuttingDown || this.sessions.size >= this.env.SESSION_MAX_PER_PROCESS) break;
        if (this.sessions.has(id)) continue;
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
    const ids = [...this.sessions.keys()];
    if (ids.length === 0 || this.shuttingDown) return;
    try {
      const lost = new Set(await this.leases.renew(ids));
      const live = await this.store.stillLive(ids);
      for (const id of ids) {
        const s = this.sessions.get(id);
        if (!s) continue;
        if (lost.has(id)) {
          this.logger.warn({ connectionId: id }, 'session lease lost; stopping the session here');
          await this.serial(id, () => this.teardown(s, { release: false }));
        } else if (!live.has(id)) {
          // deleted, or disconnected elsewhere; checked again under the connection's lock (a launch writes OPENING)
          await this.serial(id, async () => {
            const row = await this.store.byId(id);
            if (this.sessions.get(id) === s && (!row || row.status === 'DISCONNECTED')) await this.teardown(s, { release: true });
          });
        } else if (s.status === 'CONNECTED' && !s.consumer) {
          this.startConsumer(s);
        }
      }
    } catch (err) {
      this.logger.error({ err }, 'renewing session leases failed');
    }
  }

  // ---------------------------------------------------------------- one session

  private async launch(row: ConnectionEntity, opts: { fresh: boolean }): Promise<void> {
    const ctx = { companyId: row.companyId, connectionId: row.id };
    const s: LiveSession = {
      id: row.id,
      companyId: row.companyId,
      ctx,
      provider: this.providers.create(row),
      status: row.status,
      retries: 0,
      qrCount: 0,
      chain: Promise.resolve(),
      consumerOp: Promise.resolve(),
      stopped: false,
    };
    this.sessions.set(s.id, s);
    s.sub = this.bus.connection.subscribe(commandSubject(s.id), { callback: (err, msg) => (err ? undefined : this.onCommand(s.id, msg)) });
    s.provider.ev.on('connection.update', (u) => this.enqueue(s, () => this.onConnectionUpdate(s, u)));
    s.provider.ev.on('messages.upsert', (u) => this.enqueue(s, () => this.onUpsert(s, u)));
    s.provider.ev.on('messages.update', (u) => this.onMessagesUpdate(s, u));
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
   * Opens (or reopens) the provider: resolves once it started (the sandbox is CONNECTED by then; Baileys
   * has its socket and reports later). A failure counts as a dropped connection.
   */
  private async open(s: LiveSession): Promise<void> {
    if (s.stopped) return;
    try {
      await s.provider.start();
    } catch (err) {
      this.logger.warn({ err, connectionId: s.id }, 'session did not open');
      void this.enqueue(s, () => this.onConnectionUpdate(s, { connection: 'close', lastDisconnect: { error: err as Error, date: new Date() } }));
    }
  }

  private enqueue(s: LiveSession, job: () => Promise<void>): Promise<void> {
    const run = s.chain.then(() => (s.stopped ? undefined : job()));
    s.chain = run.catch((err: unknown) => this.logger.error({ err, connectionId: s.id }, 'session event not handled'));
    return run;
  }

  private async onConnectionUpdate(s: LiveSession, update: ProviderEventMap['connection.update']): Promise<void> {
    const intent = connectionIntent(update);
    if (intent.kind === 'none') return;
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
        patch.retries = 0;
        if (intent.number) patch.number = intent.number;
      }
      await this.applyStatus(s, patch);
      if (intent.status === 'CONNECTED') this.startConsumer(s);
      return;
    }
    // closed
    const wasConnected = s.status === 'CONNECTED';
    void this.stopConsumer(s);
    switch (intent.action) {
      case 'logged-out':
        this.logger.warn({ connectionId: s.id }, 'session logged out');
        await this.teardown(s, { status: 'DISCONNECTED', release: true, forgetPairing: true });
        return;
      case 'replaced':
        this.logger.warn({ connectionId: s.id }, 'session opened elsewhere; stopping');
        await this.teardown(s, { status: 'DISCONNECTED', release: true });
        return;
      case 'restart':
        void this.open(s);
        return;
      case 'retry': {
        if (s.retries >= this.env.BAILEYS_MAX_RETRIES) {
          this.logger.warn({ connectionId: s.id, retries: s.retries }, 'session keeps dropping; giving up');
          await this.teardown(s, { status: 'DISCONNECTED', release: true });
          return;
        }
        s.retries++;
        await this.applyStatus(s, { status: wasConnected || s.status === 'TIMEOUT' ? 'TIMEOUT' : 'OPENING', retries: s.retries });
        const delay = Math.min(30_000, 1000 * 2 ** (s.retries - 1));
        clearTimeout(s.reconnectTimer);
        s.reconnectTimer = setTimeout(() => void this.open(s), delay);
        return;
      }
    }
  }

  /** Received messages → `wa.inbound.<companyId>.<connectionId>.<contact>`, msg id `<connectionId>:<waMessageId>`. */
  /**
   * An upsert's messages → JetStream: one conversation's messages one after the other (a retried
   * publish cannot overtake the next one), different conversations side by side.
   */
  private async onUpsert(s: LiveSession, upsert: ProviderEventMap['messages.upsert']): Promise<void> {
    const conversations = new Map<string, WAMessage[]>();
    for (const m of upsert.messages) {
      const key = m.key?.remoteJid ?? '';
      const list = conversations.get(key);
      if (list) list.push(m);
      else conversations.set(key, [m]);
    }
    await Promise.all([...conversations.values()].map((messages) => this.publishInbound(s, messages)));
  }

  private async publishInbound(s: LiveSession, messages: WAMessage[]): Promise<void> {
    for (const m of messages) {
      const inbound = toInboundMessage(m, s.ctx);
      if (!inbound) continue;
      // the echo of a message this connection sent itself; messages typed on the phone do go on
      if (inbound.fromMe && (await this.store.isOurSend(s.id, inbound.waMessageId))) continue;
      await this.bus.publish(WaSubjects.inbound(s.companyId, s.id, subjectToken(inbound.from)), inbound, {
        msgId: WaSubjects.inboundMsgId(s.id, inbound.waMessageId),
      });
    }
  }

  /** Status changes of our messages → sent_messages.ack and `wa.ack.*`. */
  private async onMessagesUpdate(s: LiveSession, updates: ProviderEventMap['messages.update']): Promise<void> {
    if (s.stopped) return;
    for (const { contact, ack } of toAcks(updates, s.ctx)) {
      await this.store.raiseAck(s.id, ack.waMessageId, ack.ack);
      await this.publishAck(s, contact, ack.waMessageId, ack.ack);
    }
  }

  private async publishAck(s: LiveSession, contact: string, waMessageId: string, ack: number): Promise<void> {
    await this.bus.publish(
      WaSubjects.ack(s.companyId, s.id, subjectToken(contact)),
      { companyId: s.companyId, connectionId: s.id, waMessageId, ack, at: Date.now() },
      { msgId: WaSubjects.ackMsgId(s.id, waMessageId, ack) },
    );
  }

  private async applyStatus(s: LiveSession, patch: StatusPatch): Promise<void> {
    s.status = patch.status;
    const row = await this.store.setStatus(s.id, patch);
    if (!row) {
      // the connection was deleted under us
      await this.teardown(s, { release: true });
      return;
    }
    await this.events.session(row);
  }

  /**
   * Stops a session here. `status` is stored (and published) when given; otherwise the stored status
   * stays, so that another process resumes the session (shutdown, lost lease).
   */
  private teardown(s: LiveSession, opts: { release: boolean; logout?: boolean; status?: ConnectionStatus; forgetPairing?: boolean }): Promise<void> {
    if (s.ended) return s.ended;
    s.stopped = true;
    clearTimeout(s.reconnectTimer);
    s.provider.ev.removeAllListeners();
    s.sub?.unsubscribe();
    if (this.sessions.get(s.id) === s) this.sessions.delete(s.id);
    const ended = (async () => {
      await this.stopConsumer(s);
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
        const row = await this.store.setStatus(s.id, { status: opts.status, qrcode: '', retries: 0 });
        if (row) await this.events.session(row);
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

  // ---------------------------------------------------------------- outbound

  private startConsumer(s: LiveSession): void {
    s.consumerOp = s.consumerOp
      .then(async () => {
        if (s.stopped || s.consumer || s.status !== 'CONNECTED') return;
        s.consumer = await this.bus.consume<WaOutboundSend>({
          stream: Streams.WA.name,
          durable: outboundDurable(s.id),
          filterSubjects: [WaSubjects.outbound(s.id)],
          // one lane: a connection's sends leave in the order tickets published them
          concurrency: 1,
          batchSize: 1,
          maxAttempts: 8,
          backoffMs: [500, 1000, 2000, 5000, 10_000],
          handler: (batch) => this.handleOutbound(s, batch),
        });
        if (s.stopped) {
          const c = s.consumer;
          s.consumer = undefined;
          await c.stop();
        }
      })
      .catch((err: unknown) => this.logger.error({ err, connectionId: s.id }, 'outbound consumer not started; retrying on the next renewal'));
  }

  private stopConsumer(s: LiveSession): Promise<void> {
    s.consumerOp = s.consumerOp
      .then(async () => {
        const c = s.consumer;
        s.consumer = undefined;
        await c?.stop();
      })
      .catch((err: unknown) => this.logger.error({ err, connectionId: s.id }, 'outbound consumer did not stop cleanly'));
    return s.consumerOp;
  }

  /**
   * One send: recorded before it goes out (a redelivery of a send already out is only acked), sent with
   * the WhatsApp id tickets chose, marked sent, ack 1 published. A session that is not CONNECTED
   * fails the delivery: the bus retries it, then dead-letters it.
   */
  private async handleOutbound(s: LiveSession, batch: BusMessage<WaOutboundSend>[]): Promise<void> {
    for (const m of batch) {
      const send = m.data;
      if (!isOutboundSend(send) || send.connectionId !== s.id || send.companyId !== s.companyId) {
        this.logger.error({ connectionId: s.id, subject: m.subject, seq: m.streamSeq }, 'outbound send not for this connection or malformed; dropped');
        continue;
      }
      if (s.stopped || s.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
      if ((await this.store.recordSend(send)) === 'sent') continue;
      const jid = contactToJid(send.to);
      await s.provider.sendMessage(jid, { text: send.body }, { messageId: send.waMessageId, quotedMessageId: send.quotedWaMessageId ?? null });
      await this.store.markSent(s.id, send.waMessageId);
      await this.publishAck(s, jidToContact(jid), send.waMessageId, 1).catch((err: unknown) =>
        this.logger.warn({ err, connectionId: s.id, waMessageId: send.waMessageId }, 'ack 1 not published'),
      );
    }
  }

  // ---------------------------------------------------------------- helpers

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
}

function isOutboundSend(v: unknown): v is WaOutboundSend {
  const s = v as Partial<WaOutboundSend> | null;
  return (
    !!s &&
    typeof s.companyId === 'number' &&
    typeof s.connectionId === 'number' &&
    typeof s.waMessageId === 'string' &&
    s.waMessageId.length > 0 &&
    s.waMessageId.length <= 128 &&
    typeof s.to === 'string' &&
    s.to.length > 0 &&
    typeof s.body === 'string'
  );
}
