import { Injectable, Logger } from '@nestjs/common';
import { EventBus, NoRespondersError, request } from '@wa/event-bus';
import { DomainError } from '@wa/server-kit';
import { CommandHandler } from './command-handler.js';
import { Placement } from './placement.js';
import { COMMAND_TIMEOUT_MS, commandSubject, type CommandReply, type SessionCommand } from './session-commands.js';
import { SessionRunner } from './session-runner.js';

/** Tries of a command while its session moves between processes. */
const ROUTE_ATTEMPTS = 5;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs a command on a connection's session wherever it runs: here when this process holds it, through
 * its holder (NATS request/reply on `whatsapp-sessions.cmd.<connectionId>`) when another one does, and
 * when nobody does, here after taking the lease (start, restart) or directly on the stored state (end).
 */
@Injectable()
export class CommandRouter {
  private readonly logger = new Logger(CommandRouter.name);

  constructor(
    private readonly bus: EventBus,
    private readonly runner: SessionRunner,
    private readonly handler: CommandHandler,
    private readonly placement: Placement,
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
      if (cmd.action === 'inbound') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
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
