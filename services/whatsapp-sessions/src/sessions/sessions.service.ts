import { Injectable } from '@nestjs/common';
import type { ConnectionStatus, SandboxOutboxItem } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { ConnectionsRepository } from '../connections/connections.repository.js';
import type { ConnectionEntity } from '../database/entities/connection.entity.js';
import { SandboxOutboxStore } from './sandbox/sandbox-outbox.store.js';
import { SessionLeases } from './session-leases.js';
import { SessionManager } from './session-manager.js';
import type { SandboxInboundDto } from './sessions.dto.js';

export interface SessionPlacement {
  connectionId: number;
  status: ConnectionStatus;
  /** the process holding the session (its lease), null when none does */
  owner: string | null;
}

/** `/whatsappsession/:id`: the caller's company's sessions, whichever process runs them. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly connections: ConnectionsRepository,
    private readonly manager: SessionManager,
    private readonly leases: SessionLeases,
    private readonly outbox: SandboxOutboxStore,
  ) {}

  async start(id: number): Promise<void> {
    await this.manager.command((await this.mustFind(id)).id, { action: 'start' });
  }

  async restart(id: number): Promise<void> {
    await this.manager.command((await this.mustFind(id)).id, { action: 'restart' });
  }

  async end(id: number): Promise<void> {
    await this.manager.command((await this.mustFind(id)).id, { action: 'end' });
  }

  async placement(id: number): Promise<SessionPlacement> {
    const c = await this.mustFind(id);
    return { connectionId: c.id, status: c.status, owner: await this.leases.holder(c.id) };
  }

  /** Delivers a message to the sandbox phone; answers once it is on JetStream. */
  async inbound(id: number, dto: SandboxInboundDto): Promise<{ id: string }> {
    const c = this.mustBeSandbox(await this.mustFind(id));
    const result = (await this.manager.command(c.id, { action: 'inbound', message: dto })) as { id: string };
    return { id: result.id };
  }

  async outboxPage(id: number, pageNumber: number): Promise<{ items: SandboxOutboxItem[]; hasMore: boolean }> {
    const c = this.mustBeSandbox(await this.mustFind(id));
    if (c.status !== 'CONNECTED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    return this.outbox.page(c.id, c.companyId, pageNumber);
  }

  private async mustFind(id: number): Promise<ConnectionEntity> {
    const c = await this.connections.byId(id);
    if (!c) throw new DomainError('ERR_NO_WAPP_FOUND');
    return c;
  }

  private mustBeSandbox(c: ConnectionEntity): ConnectionEntity {
    if (c.channel !== 'sandbox') {
      throw new DomainError('ERR_VALIDATION', { channel: c.channel }, `Connection ${c.id} is not a sandbox connection (its channel is ${c.channel}).`);
    }
    return c;
  }
}
