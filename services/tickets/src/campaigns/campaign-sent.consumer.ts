import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CampaignSubjects, Streams, type CampaignMessageSent } from '@wa/contracts';
import { inboundContactNumber } from '@wa/domain';
import { EventBus, type ConsumerHandle } from '@wa/event-bus';
import { PeriodicTask } from '@wa/server-kit';
import { DataSource } from 'typeorm';
import { KEEP_CAMPAIGN_MESSAGES, PURGE_CAMPAIGN_MESSAGES } from './campaign-messages.queries.js';

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0 && v <= 2_147_483_647;
const PURGE_EVERY_MS = 3_600_000;

/** The number as inbound contacts are kept (digits, the Brazilian 9th digit added), or null when it is none. */
export function keptNumber(number: unknown): string | null {
  const digits = typeof number === 'string' ? number.replace(/\D/g, '') : '';
  return digits.length >= 8 && digits.length <= 20 ? inboundContactNumber(digits, false) : null;
}

/**
 * campaigns' `campaign.sent.*` (a campaign message left its connection): the last one per contact and connection is
 * kept 7 days, for the new ticket the contact's answer opens (CampaignReplies). Nothing else: a campaign send
 * opens no ticket and moves none. Older rows are purged hourly by every process (a delete of nothing is cheap).
 */
@Injectable()
export class CampaignSentConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CampaignSentConsumer.name);
  private handle: ConsumerHandle | undefined;
  private stopping = false;
  private readonly purge: PeriodicTask;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
  ) {
    this.purge = new PeriodicTask({
      name: 'campaign messages purge',
      everyMs: PURGE_EVERY_MS,
      run: async () => {
        await this.db.query(PURGE_CAMPAIGN_MESSAGES);
      },
      logger: this.logger,
    });
  }

  /**
   * Not awaited: campaigns declares CAMPAIGNS, and with one NATS user per service the bus waits until it did; tickets
   * starts meanwhile (campaigns may start later, or not be deployed).
   */
  onApplicationBootstrap(): void {
    this.bus
      .consume<CampaignMessageSent>({
        stream: Streams.CAMPAIGNS.name,
        durable: 'tickets-campaign-sent',
        filterSubjects: [CampaignSubjects.allSent],
        // one write per batch; the order within a contact is kept by sentAt, whatever the lane
        concurrency: 2,
        batchSize: 200,
        handler: async (batch) => this.keep(batch.map((m) => m.data)),
      })
      .then(
        async (handle) => {
          if (this.stopping) await handle.stop();
          else this.handle = handle;
        },
        (err: unknown) => {
          if (!this.stopping) this.logger.error({ err: String(err) }, 'campaign.sent: not consumed (campaign messages are not kept)');
        },
      );
    this.purge.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.all([this.handle?.stop(), this.purge.stop()]);
  }

  async keep(events: CampaignMessageSent[]): Promise<void> {
    const rows = events.flatMap((e) => {
      const number = keptNumber(e?.number);
      const ok =
        number !== null &&
        isId(e.companyId) &&
        isId(e.connectionId) &&
        isId(e.campaignId) &&
        typeof e.waMessageId === 'string' &&
        e.waMessageId.length > 0 &&
        e.waMessageId.length <= 128 &&
        Number.isFinite(e.sentAt);
      if (!ok) {
        this.logger.warn({ campaignId: e?.campaignId, companyId: e?.companyId }, 'campaign.sent: malformed event skipped');
        return [];
      }
      return [{ ...e, number, body: typeof e.body === 'string' ? e.body : '' }];
    });
    if (rows.length === 0) return;
    await this.db.query(KEEP_CAMPAIGN_MESSAGES, [
      rows.map((r) => r.companyId),
      rows.map((r) => r.connectionId),
      rows.map((r) => r.number),
      rows.map((r) => r.campaignId),
      rows.map((r) => r.waMessageId),
      rows.map((r) => r.body),
      rows.map((r) => new Date(r.sentAt).toISOString()),
    ]);
  }
}
