import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { WebhookDeliveriesPage, WebhookDeliveryDto, WebhookEvent, WebhookSettingsDto } from '@wa/contracts';
import type { DataSource } from 'typeorm';
import type { SecretBox } from '@wa/server-kit';
import { TicketsEnv } from '../config/env.js';
import { sealStoredSecrets, ticketsSecretMaterial, webhookSecretBox } from '../database/stored-secrets.js';
import { assertPublicUrl } from '../platform/address-guard.js';
import { WebhookRecorder } from './webhook-recorder.js';
import type { WebhookDeliveriesQuery, WebhookSettingsBody } from './webhooks.dto.js';
import {
  DELETE_WEBHOOK_SETTINGS_BY_COMPANY_ID,
  FAIL_PENDING_DELIVERIES,
  SELECT_DELIVERIES_PAGE,
  SELECT_WEBHOOK_SETTINGS_BY_COMPANY_ID,
  UPSERT_WEBHOOK_SETTINGS,
} from './webhooks.queries.js';

export const DELIVERIES_PAGE_SIZE = 20;

/** A company's webhook endpoint (its signing secret sealed at rest, never answered) and its delivery log (admins). */
@Injectable()
export class WebhooksService implements OnApplicationBootstrap {
  private readonly log = new Logger(WebhooksService.name);
  private readonly box: SecretBox;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly env: TicketsEnv,
    private readonly recorder: WebhookRecorder,
  ) {
    this.box = webhookSecretBox(ticketsSecretMaterial(env));
  }

  /** Rows written before secrets were sealed (and not sealed by the migration): sealed now, voice keys with them. */
  async onApplicationBootstrap(): Promise<void> {
    const sealed = await sealStoredSecrets(this.db, ticketsSecretMaterial(this.env));
    if (sealed.webhookSecrets + sealed.voiceKeys > 0) this.log.log(sealed, 'secrets stored in clear are now encrypted');
  }

  async get(companyId: number): Promise<WebhookSettingsDto> {
    const [row] = (await this.db.query(SELECT_WEBHOOK_SETTINGS_BY_COMPANY_ID, [companyId])) as Array<{
      url: string;
      events: WebhookEvent[];
      enabled: boolean;
      updatedAt: Date;
    }>;
    if (!row) return { url: null, events: [], enabled: false, hasSecret: false, updatedAt: null };
    return { url: row.url, events: row.events, enabled: row.enabled, hasSecret: true, updatedAt: row.updatedAt.toISOString() };
  }

  /** Saves the endpoint; a URL whose host is (or resolves to) a private address is refused unless the operator allows it. */
  async put(companyId: number, body: WebhookSettingsBody): Promise<WebhookSettingsDto> {
    await this.assertReachable(body.url);
    await this.db.query(UPSERT_WEBHOOK_SETTINGS, [
      companyId,
      body.url,
      this.box.seal(body.secret),
      [...new Set(body.events)],
      body.enabled ?? true,
    ]);
    await this.recorder.reload();
    return this.get(companyId);
  }

  /** Removes the endpoint; what was still to deliver is marked failed. */
  async remove(companyId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(DELETE_WEBHOOK_SETTINGS_BY_COMPANY_ID, [companyId]);
      await tx.query(FAIL_PENDING_DELIVERIES, [companyId]);
    });
    await this.recorder.reload();
  }

  /** The delivery log, newest first (optionally only pending, delivered or failed ones). */
  async deliveries(companyId: number, query: WebhookDeliveriesQuery): Promise<WebhookDeliveriesPage> {
    const page = query.pageNumber ?? 1;
    const rows = (await this.db.query(SELECT_DELIVERIES_PAGE, [
      companyId,
      query.status ?? null,
      DELIVERIES_PAGE_SIZE + 1,
      (page - 1) * DELIVERIES_PAGE_SIZE,
    ])) as Array<
      Omit<WebhookDeliveryDto, 'createdAt' | 'deliveredAt' | 'nextAttemptAt'> & {
        createdAt: Date;
        deliveredAt: Date | null;
        nextAttemptAt: Date;
      }
    >;
    return {
      deliveries: rows.slice(0, DELIVERIES_PAGE_SIZE).map((r) => ({
        id: String(r.id),
        event: r.event,
        ticketId: r.ticketId,
        status: r.status,
        attempts: r.attempts,
        lastStatus: r.lastStatus,
        lastError: r.lastError,
        createdAt: r.createdAt.toISOString(),
        deliveredAt: r.deliveredAt ? r.deliveredAt.toISOString() : null,
        nextAttemptAt: r.status === 'pending' ? r.nextAttemptAt.toISOString() : null,
      })),
      hasMore: rows.length > DELIVERIES_PAGE_SIZE,
    };
  }

  private async assertReachable(url: string): Promise<void> {
    await assertPublicUrl(url, this.env.WEBHOOK_ALLOW_PRIVATE === 'true', 'url');
  }
}
