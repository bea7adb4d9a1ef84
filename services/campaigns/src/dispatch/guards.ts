import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PeriodicTask } from '@wa/server-kit';
import { CampaignsEnv } from '../config/env.js';
import { ConnectionsConsumer, type SessionChange } from '../platform/connections.consumer.js';
import { AcksConsumer } from './acks.consumer.js';
import { CampaignLifecycle, STOP_REASONS } from './campaign-lifecycle.js';
import { Pacers } from './pacer.js';
import { Progress } from './progress.js';
import { ShippingsRepository } from './shippings.repository.js';

/**
 * What stops or ends campaigns without a request: a number WhatsApp bans or logs out, a connection whose sends
 * keep failing and a company whose plan loses campaigns pause their campaigns (CANCELADA with the reason, shown
 * live) instead of burning the list into failures; confirmations nobody answered within
 * CAMPAIGN_CONFIRMATION_HOURS end unconfirmed, so their campaigns finish.
 */
@Injectable()
export class CampaignGuards implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(CampaignGuards.name);
  private readonly expiry: PeriodicTask;

  constructor(
    env: CampaignsEnv,
    private readonly lifecycle: CampaignLifecycle,
    private readonly pacers: Pacers,
    private readonly acks: AcksConsumer,
    private readonly connections: ConnectionsConsumer,
    private readonly rows: ShippingsRepository,
    private readonly progress: Progress,
  ) {
    this.expiry = new PeriodicTask({
      name: 'campaign confirmations expiry',
      everyMs: env.CAMPAIGN_EXPIRY_SWEEP_MS,
      runAtStart: true,
      run: async () => {
        const ended = await this.rows.expireConfirmations(env.CAMPAIGN_CONFIRMATION_HOURS);
        if (ended.length === 0) return;
        const campaigns = ended.map((e) => ({ id: e.campaignId, companyId: e.companyId }));
        this.progress.moved(campaigns);
        await this.progress.finish(campaigns.map((c) => c.id));
      },
    });
    this.pacers.onPlanRefused = (companyId, connectionId) => this.lifecycle.pauseConnection(companyId, connectionId, STOP_REASONS.plan);
    this.acks.onFailing = (companyId, connectionId) => this.lifecycle.pauseConnection(companyId, connectionId, STOP_REASONS.failing);
    this.connections.onStatus((c) => void this.sessionChanged(c));
  }

  onApplicationBootstrap(): void {
    this.expiry.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.expiry.stop();
  }

  private async sessionChanged(c: SessionChange): Promise<void> {
    const reason = c.reason === 'banned' ? STOP_REASONS.banned : c.reason === 'logged_out' ? STOP_REASONS.loggedOut : null;
    if (!reason) return;
    await this.lifecycle
      .pauseConnection(c.companyId, c.id, reason)
      .catch((err: unknown) => this.log.error({ err, connectionId: c.id }, 'campaigns of a banned or logged-out number not paused'));
  }
}
