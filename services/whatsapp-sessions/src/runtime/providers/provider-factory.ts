import { Inject, Injectable, Optional } from '@nestjs/common';
import type { ConnectionProviderKind, ConnectionStatus } from '@wa/contracts';
import { MediaStorage } from '@wa/server-kit';
import { pino } from 'pino';
import { WhatsappSessionsEnv } from '../../config/env.js';
import { NumberJids } from '../number-jids.js';
import { BaileysProvider, defaultSocketFactory, type BaileysLogger, type SocketFactory } from './baileys/baileys.provider.js';
import { AuthStateStore } from './baileys/postgres-auth-state.js';
import { SentContents } from './baileys/sent-contents.js';
import { socketLimitsOf } from './baileys/socket-caches.js';
import type { SessionProvider } from './provider.js';
import { SandboxCallsRepository } from './sandbox/sandbox-calls.repository.js';
import { SandboxHeldRepository } from './sandbox/sandbox-held.repository.js';
import { SandboxOutboxRepository } from './sandbox/sandbox-outbox.repository.js';
import { SandboxProvider } from './sandbox/sandbox.provider.js';

/** Injection token of the Baileys socket factory (tests drive a scripted socket; WhatsApp is out of reach). */
export const BAILEYS_SOCKET_FACTORY = Symbol('BAILEYS_SOCKET_FACTORY');

const QUIET = new Set(['fatal', 'error', 'silent']);

/** Picks the provider of a connection by its channel. */
@Injectable()
export class ProviderFactory {
  private readonly baileysLogger: BaileysLogger;
  private readonly socketFactory: SocketFactory;

  constructor(
    private readonly env: WhatsappSessionsEnv,
    private readonly outbox: SandboxOutboxRepository,
    private readonly calls: SandboxCallsRepository,
    private readonly held: SandboxHeldRepository,
    private readonly authStore: AuthStateStore,
    private readonly storage: MediaStorage,
    private readonly jids: NumberJids,
    private readonly sent: SentContents,
    @Optional() @Inject(BAILEYS_SOCKET_FACTORY) socketFactory?: SocketFactory,
  ) {
    this.socketFactory = socketFactory ?? defaultSocketFactory;
    // Baileys is chatty below warn
    this.baileysLogger = pino({ name: 'baileys', level: QUIET.has(env.LOG_LEVEL) ? env.LOG_LEVEL : 'warn' });
  }

  /**
   * `status`: the connection's as stored when its session starts (DISCONNECTED: the phone pairs anew). `holdsLease`:
   * the fencing check of the lease the session runs under.
   */
  create(
    connection: { id: number; companyId: number; channel: ConnectionProviderKind; status?: ConnectionStatus },
    holdsLease?: () => Promise<boolean>,
  ): SessionProvider {
    const ctx = { connectionId: connection.id, companyId: connection.companyId, holdsLease };
    const jids = this.jids.forCompany(connection.companyId);
    switch (connection.channel) {
      case 'sandbox':
        return new SandboxProvider(
          ctx,
          this.outbox,
          this.env.SANDBOX_ACK_STEP_MS,
          this.storage,
          jids,
          this.held,
          connection.status === 'DISCONNECTED',
          this.calls,
        );
      case 'baileys':
        return new BaileysProvider(
          ctx,
          this.authStore,
          this.socketFactory,
          this.baileysLogger,
          jids,
          this.sent.forConnection(connection.id),
          socketLimitsOf(this.env),
        );
      default:
        throw new Error(`unknown channel ${String(connection.channel)}`);
    }
  }
}
