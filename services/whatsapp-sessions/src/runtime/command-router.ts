import { Injectable, Logger } from '@nestjs/common';
import type { ConnectionStatus, SandboxInboundRequest } from '@wa/contracts';
import { whatsappMessageId } from '@wa/domain';
import { EventBus, NoRespondersError, request } from '@wa/event-bus';
import { DomainError } from '@wa/server-kit';
import { CommandHandler } from './command-handler.js';
import { Placement } from './placement.js';
import { SandboxHeldRepository, type WrittenMessage } from './providers/sandbox/sandbox-held.repository.js';
import { COMMAND_TIMEOUT_MS, commandSubject, type CommandReply, type SessionCommand } from './session-commands.js';
import { SessionRunner } from './session-runner.js';
import { SessionStore } from './session-store.repository.js';

/** Tries of a command while its session moves between processes. */
const ROUTE_ATTEMPTS = 5;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The statuses of a paired phone whose session is up or coming back: what customers write to it while no process
 * runs its session is kept by its WhatsApp servers. A phone logged out or never paired (DISCONNECTED, waiting for
 * a pairing) gets nothing of it.
 */
const HOLDS_WHILE_DOWN: ReadonlySet<ConnectionStatus> = new Set(['CONNECTED', 'OPENING', 'TIMEOUT']);

/** How long the session's holder is given to take a nudge (something was held for it). */
const NUDGE_TIMEOUT_MS = 5000;

/**
 * Runs a command on a connection's session wherever it runs: here when this process holds it, through
 * its holder (NATS request/reply on `whatsapp-sessions.cmd.<connectionId>`) when another one does, and
 * when nobody does, here after taking the lease (start, restart) or directly on the stored state (end); a
 * sandbox phone's inbound is then kept by its WhatsApp servers for the session's next connect (holdInbound).
 */
@Injectable()
export class CommandRouter {
  private readonly logger = new Logger(CommandRouter.name);

  constructor(
    private readonly bus: EventBus,
    private readonly runner: SessionRunner,
    private readonly handler: CommandHandler,
    private readonly placement: Placement,
    private readonly store: SessionStore,
    private readonly held: SandboxHeldRepository,
  ) {}

  async command(connectionId: number, cmd: SessionCommand): Promise<unknown> {
    for (let attempt = 0; attempt < ROUTE_ATTEMPTS; attempt++) {
      if (this.runner.isRunning(connectionId)) {
        const local = await this.handler.execute(connectionId, cmd);
        if (local.ok) return local.result;
        if (!local.notHere) throw failure(local);
      }
      const remote = await this.askHolder(connectionId, cmd);
      if (remote) {
        if (remote.ok) return remote.result;
        if (!remote.notHere) throw failure(remote);
      }
      // nobody runs it (or its holder is letting it go)
      if (cmd.action === 'inbound') return this.holdInbound(connectionId, cmd.messages);
      // a pairing code or a picture is asked of a session that runs: none starts for it
      if (cmd.action === 'pairingCode' || cmd.action === 'profilePicture') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
      if (this.placement.shuttingDown) throw new DomainError('ERR_SERVICE_UNAVAILABLE');
      const outcome =
        cmd.action === 'end'
          ? await this.placement.endUnheld(connectionId)
          : await this.placement.startHere(connectionId, { fresh: cmd.action === 'restart' });
      if (outcome === 'gone') throw new DomainError('ERR_NO_WAPP_FOUND');
      if (outcome === 'running') continue; // taken here meanwhile: run the command on it
      if (outcome !== 'held-elsewhere') return undefined;
      await sleep(100 * (attempt + 1));
    }
    throw new DomainError('ERR_SERVICE_UNAVAILABLE', {}, 'The session is moving between processes; try again.');
  }

  /**
   * What customers write to a sandbox phone whose session runs nowhere (nobody holds it, its holder died, or it is
   * letting it go): its WhatsApp servers keep it, in the order written, with the time written, and hand it over as
   * the offline backlog when a session of the phone connects, in any process. Answered as delivered (the customer's
   * phone did send it). A connection gone, not a sandbox, or whose phone is logged out or unpaired: refused as before.
   */
  private async holdInbound(connectionId: number, messages: SandboxInboundRequest[]): Promise<{ ids: string[] }> {
    const row = await this.store.byId(connectionId);
    if (!row) throw new DomainError('ERR_NO_WAPP_FOUND');
    if (row.channel !== 'sandbox') throw new DomainError('ERR_VALIDATION', {}, 'This connection is not a sandbox connection.');
    if (!HOLDS_WHILE_DOWN.has(row.status)) throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    const written = messages.map((m): WrittenMessage => ({ ...m, id: m.id ?? whatsappMessageId() }));
    await this.held.hold(row.id, row.companyId, written, new Date(Math.floor(Date.now() / 1000) * 1000));
    // a session that began meanwhile may have looked for its backlog before this was kept: an empty inbound makes it look again
    void request<CommandReply>(this.bus, commandSubject(connectionId), { action: 'inbound', messages: [] } satisfies SessionCommand, {
      timeoutMs: NUDGE_TIMEOUT_MS,
    }).catch(() => undefined);
    return { ids: written.map((m) => m.id) };
  }

  /** The holder's reply; undefined when no process holds the session. */
  private async askHolder(connectionId: number, cmd: SessionCommand): Promise<CommandReply | undefined> {
    try {
      return await request<CommandReply>(this.bus, commandSubject(connectionId), cmd, { timeoutMs: COMMAND_TIMEOUT_MS });
    } catch (err) {
      if (err instanceof NoRespondersError) return undefined;
      this.logger.error({ err, connectionId, action: cmd.action }, 'session holder did not answer');
      throw new DomainError('ERR_SERVICE_UNAVAILABLE');
    }
  }
}

function failure(reply: Extract<CommandReply, { ok: false }>): DomainError {
  return new DomainError(reply.code ?? 'ERR_INTERNAL', {}, reply.message, reply.status);
}
