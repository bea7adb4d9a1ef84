import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  WebhookDeliveriesPage,
  WebhookDeliveryDto,
  WebhookEvent,
  WebhookSecretDto,
  WebhookSettingsDto,
  WebhookSettingsSavedDto,
} from '@wa/contracts';
import type { DataSource } from 'typeorm';
import { DomainError, type SecretBox } from '@wa/server-kit';
import { TicketsEnv } from '../config/env.js';
import { sealStoredSecrets, ticketsSecretMaterial, webhookSecretBox } from '../database/stored-secrets.js';
import { assertPublicUrl } from '../platform/address-guard.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookRecorder } from './webhook-recorder.js';
import type { WebhookDeliveriesQuery, WebhookSettingsBody } from './webhooks.dto.js';
import {
  DELETE_WEBHOOK_SETTINGS_BY_COMPANY_ID,
  FAIL_PENDING_DELIVERIES,
  INSERT_DELIVERY_REPLAY,
  REPLACE_WEBHOOK_SECRET,
  SELECT_DELIVERIES_PAGE,
  SELECT_WEBHOOK_SETTINGS_BY_COMPANY_ID,
  UPSERT_WEBHOOK_SETTINGS,
} from './webhooks.queries.js';

export const DELIVERIES_PAGE_SIZE = 20;

/** A delivery row as the log's SQL answers it. */
type DeliveryRow = Omit<WebhookDeliveryDto, 'id' | 'createdAt' | 'deliveredAt' | 'nextAttemptAt'> & {
  id: string | number;
  createdAt: Date;
  deliveredAt: Date | null;
  nextAttemptAt: Date;
};

/** A signing secret made by the server: `whsec_` and 32 random bytes (base64url). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function deliveryDto(r: DeliveryRow): WebhookDeliveryDto {
  return {
    id: String(r.id),
    event: r.event,
    // a connection's and a contact's deliveries go in a lane of their own, keyed by their negated id: no ticket
    ticketId: r.ticketId !== null && r.ticketId > 0 ? r.ticketId : null,
    status: r.status,
    attempts: r.attempts,
    lastStatus: r.lastStatus,
    lastError: r.lastError,
    createdAt: r.createdAt.toISOString(),
    deliveredAt: r.deliveredAt ? r.deliveredAt.toISOString() : null,
    nextAttemptAt: r.status === 'pending' ? r.nextAttemptAt.toISOString() : null,
    replayOf: r.replayOf ?? null,
  };
}

/** A company's webhook endpoint (its signing secret sealed at rest, never answered) and its delivery log (admins). */
@Injectable()
export class WebhooksService implements OnApplicationBootstrap {
  private readonly log = new Logger(WebhooksService.name);
  private readonly box: SecretBox;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly env: TicketsEnv,
    private readonly recorder: WebhookRecorder,
    private readonly dispatcher: WebhookDispatcher,
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

  /**
   * Saves the endpoint; a URL whose host is (or resolves to) a private address is refused unless the operator allows it.
   * The secret: the one given (kept for clients that choose their own), else the webhook keeps its own; a webhook
   * saved for the first time without one gets one made here, answered this once.
   */
  async put(companyId: number, body: WebhookSettingsBody): Promise<WebhookSettingsSavedDto> {
    await this.assertReachable(body.url);
    const made = body.secret === undefined ? newWebhookSecret() : null;
    const given = body.secret === undefined ? null : this.box.seal(body.secret);
    const [saved] = (await this.db.query(UPSERT_WEBHOOK_SETTINGS, [
      companyId,
      body.url,
      given ?? this.box.seal(made as string),
      [...new Set(body.events)],
      body.enabled ?? true,
      given,
    ])) as Array<{ created: boolean }>;
    await this.recorder.reload();
    const settings = await this.get(companyId);
    return saved?.created && made ? { ...settings, secret: made } : settings;
  }

  /** A new signing secret, answered this once: the deliveries sent from now on are signed with it, not the old one. */
  async newSecret(companyId: number): Promise<WebhookSecretDto> {
    const secret = newWebhookSecret();
    const [rows] = (await this.db.query(REPLACE_WEBHOOK_SECRET, [companyId, this.box.seal(secret)])) as [unknown[], number];
    if (!rows || rows.length === 0) throw new DomainError('ERR_NOT_FOUND', {}, 'The company has no webhook');
    return { secret };
  }

  /**
   * Sends a delivery of the company's again: a new delivery of the same event and payload (its own id, `replayOf`
   * naming the one replayed), signed with today's secret and dispatched like any other, in the log.
   */
  async replay(companyId: number, id: string): Promise<WebhookDeliveryDto> {
    if (!/^[0-9]{1,18}$/.test(id)) throw new DomainError('ERR_NOT_FOUND', {}, 'Webhook delivery not found');
    const [row] = (await this.db.query(INSERT_DELIVERY_REPLAY, [id, companyId, randomUUID()])) as DeliveryRow[];
    if (!row) throw new DomainError('ERR_NOT_FOUND', {}, 'Webhook delivery not found');
    this.dispatcher.kick();
    return deliveryDto(row);
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
    ])) as DeliveryRow[];
    return { deliveries: rows.slice(0, DELIVERIES_PAGE_SIZE).map(deliveryDto), hasMore: rows.length > DELIVERIES_PAGE_SIZE };
  }

  private async assertReachable(url: string): Promise<void> {
    await assertPublicUrl(url, this.env.WEBHOOK_ALLOW_PRIVATE === 'true', 'url');
  }
}
