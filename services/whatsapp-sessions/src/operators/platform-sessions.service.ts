import { Injectable } from '@nestjs/common';
import type { PlatformSessionsPage, ReplicaDrainDto } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { SessionRuntime } from '../runtime/session-runtime.js';
import type { ConnectionHealth } from '../runtime/session-stats.js';
import type { PlatformSessionsQueryDto } from './platform-sessions.dto.js';
import { PLATFORM_SESSIONS_PAGE_SIZE, PlatformSessionsRepository } from './platform-sessions.repository.js';

/**
 * The operators' view of the sessions: every live replica (whole) and a page of connections with where each runs and
 * its health; draining a replica. Platform-wide: super users only (the controller's guard).
 */
@Injectable()
export class PlatformSessionsService {
  constructor(
    private readonly runtime: SessionRuntime,
    private readonly connections: PlatformSessionsRepository,
  ) {}

  async view(q: PlatformSessionsQueryDto): Promise<PlatformSessionsPage> {
    const pageNumber = q.pageNumber ?? 1;
    const live = await this.runtime.replicas();
    // a replica's connections as it announced them at its last heartbeat (an unknown replica holds none)
    const ids = q.replica === undefined ? undefined : (live.find((r) => r.name === q.replica)?.sessions ?? []);
    const { rows, count } = await this.connections.page({ companyId: q.companyId, status: q.status, ids }, pageNumber);
    const ofPage = rows.map((r) => r.id);
    const [holders, health] = await Promise.all([this.runtime.holders(ofPage), this.runtime.health(ofPage)]);
    return {
      replicas: live.map(({ sessions: _, companies: __, ...r }) => r),
      connections: rows.map((r, i) => ({ ...r, replica: holders[i] ?? null, ...(health[i] as ConnectionHealth) })),
      count,
      hasMore: pageNumber * PLATFORM_SESSIONS_PAGE_SIZE < count,
    };
  }

  /** Drains a live replica (on) or undoes it; ERR_NO_REPLICA_FOUND for a name no live replica has. */
  async drain(name: string, on: boolean): Promise<ReplicaDrainDto> {
    const live = await this.runtime.replicas();
    // undoing the drain of a replica that has since stopped is allowed (it would come back drained)
    if (on && !live.some((r) => r.name === name)) throw new DomainError('ERR_NO_REPLICA_FOUND');
    await this.runtime.drain(name, on);
    return { name, draining: on };
  }
}
