import { Injectable } from '@nestjs/common';
import type { SandboxCallItem, SandboxOutboxItem } from '@wa/contracts';
import { CommandRouter } from './command-router.js';
import { OutboundConsumer } from './outbound-consumer.js';
import { Placement } from './placement.js';
import { SandboxCallsRepository } from './providers/sandbox/sandbox-calls.repository.js';
import { SandboxOutboxRepository } from './providers/sandbox/sandbox-outbox.repository.js';
import type { SessionCommand } from './session-commands.js';
import { ReplicaRegistry, type LiveReplica } from './replicas.js';
import { SessionLeases } from './session-leases.js';
import { SessionRunner } from './session-runner.js';
import { SessionStats, type ConnectionHealth } from './session-stats.js';

/**
 * The session runtime as the rest of the service sees it (connections/, sessions/): commands to a connection's
 * session wherever it runs, where it runs, what the sandbox phone sent, and forgetting a deleted connection.
 * Everything else in runtime/ (placement, the runner, providers, the inbound and outbound paths) stays behind it.
 */
@Injectable()
export class SessionRuntime {
  constructor(
    private readonly router: CommandRouter,
    private readonly runner: SessionRunner,
    private readonly placement: Placement,
    private readonly outbound: OutboundConsumer,
    private readonly outbox: SandboxOutboxRepository,
    private readonly calls: SandboxCallsRepository,
    private readonly leases: SessionLeases,
    private readonly registry: ReplicaRegistry,
    private readonly stats: SessionStats,
  ) {}

  /**
   * Runs a command on the connection's session: here, at the process holding it, or (nobody holds it) here
   * after taking it (start, restart) or on its stored state (end). Rejects with the session's DomainError.
   */
  command(connectionId: number, cmd: SessionCommand): Promise<unknown> {
    return this.router.command(connectionId, cmd);
  }

  /** Who holds the connection's session (its lease), null when nobody does. */
  holder(connectionId: number): Promise<string | null> {
    return this.placement.holder(connectionId);
  }

  /** Who holds each connection's session (null: nobody), in their order. */
  holders(connectionIds: number[]): Promise<Array<string | null>> {
    return this.leases.holders(connectionIds);
  }

  /** The live replicas of whatsapp-sessions, with the sessions each holds (operators, the scaler). */
  replicas(): Promise<LiveReplica[]> {
    return this.placement.liveReplicas();
  }

  /** Drains a replica (it hands its sessions over and takes none), or undoes it. */
  drain(name: string, on: boolean): Promise<void> {
    return this.registry.setDrain(name, on);
  }

  /** The health figures of these connections, in their order. */
  health(connectionIds: number[]): Promise<ConnectionHealth[]> {
    return this.stats.read(connectionIds);
  }

  /** This process, as lease holder (shown to operators). */
  get owner(): string {
    return this.placement.owner;
  }

  /** The company of the connection whose session runs in this process; undefined when it does not run here. */
  localCompanyOf(connectionId: number): number | undefined {
    return this.runner.localCompanyOf(connectionId);
  }

  /** A page of what the sandbox phone of a connection put on the wire, newest first. */
  sandboxOutbox(connectionId: number, companyId: number, pageNumber: number): Promise<{ items: SandboxOutboxItem[]; hasMore: boolean }> {
    return this.outbox.page(connectionId, companyId, pageNumber);
  }

  /** A page of the calls the sandbox phone of a connection got, newest first (ringing, or rejected by the session). */
  sandboxCalls(connectionId: number, companyId: number, pageNumber: number): Promise<{ items: SandboxCallItem[]; hasMore: boolean }> {
    return this.calls.page(connectionId, companyId, pageNumber);
  }

  /** Forgets what outlives a deleted connection's session (its outbound durables). */
  forget(connectionId: number): Promise<void> {
    return this.outbound.forget(connectionId);
  }
}
