import { createHmac } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { liveGauge, PeriodicTask, readPeer, WEBHOOK_ANSWER_MAX_BYTES } from '@wa/server-kit';
import { Agent } from 'undici';
import type { DataSource } from 'typeorm';
import type { SecretBox } from '@wa/server-kit';
import { TicketsEnv } from '../config/env.js';
import { ticketsSecretMaterial, webhookSecretBox } from '../database/stored-secrets.js';
import { CompanyStandings, refusalText } from '../identity/company-standings.js';
import { guardedLookup } from '../platform/address-guard.js';
import { CLAIM_DUE_DELIVERIES, PENDING_DELIVERIES, RECORD_DELIVERY_ATTEMPT, SELECT_WEBHOOK_TARGET } from './webhook-dispatcher.queries.js';

/** Deliveries taken per pass, and sent at once. */
const BATCH = 50;
/** A taken delivery is someone's for this long (a process that died with it lets it go after). */
const CLAIM_S = 60;
const TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 3600_000;

interface Claimed {
  id: string;
  companyId: number;
  ticketId: number;
  event: string;
  payload: Record<string, unknown>;
  attempts: number;
  createdAt: Date;
}

/** The signature a receiver checks: HMAC-SHA256 of `<timestamp>.<body>` with the company's secret, in hex. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The webhook backlog, asked of PostgreSQL once a scrape (both gauges share the answer; every replica answers the same: alert on its max). */
let backlogDb: DataSource | undefined;
let asked: { at: number; answer: Promise<{ n: number; oldestS: number }> } | undefined;
const backlog = (): Promise<{ n: number; oldestS: number }> => {
  if (!backlogDb) return Promise.resolve({ n: 0, oldestS: 0 });
  if (!asked || Date.now() - asked.at > 1_000) {
    const db = backlogDb;
    asked = {
      at: Date.now(),
      answer: db.query(PENDING_DELIVERIES).then((rows: Array<{ n: number; oldestS: number }>) => rows[0] ?? { n: 0, oldestS: 0 }),
    };
  }
  return asked.answer;
};
liveGauge(
  'webhook_deliveries_pending',
  "Webhook deliveries not yet made (waiting for their turn or a retry), every company's",
  async () => (await backlog()).n,
);
liveGauge(
  'webhook_deliveries_oldest_pending_seconds',
  'Age of the oldest webhook delivery not yet made (0 when none): a receiver down, or the dispatcher behind',
  async () => (await backlog()).oldestS,
);

/**
 * Sends the webhook deliveries: for each ticket only its oldest undelivered one (so a ticket's events arrive
 * in order, and one that fails holds back the ones after it, not other tickets'), each POSTed as JSON with
 * its id (`X-Webhook-Id`, for the receiver to drop a repeat), the event, a timestamp and the signature
 * (`X-Webhook-Signature: sha256=<hex>` of `<timestamp>.<body>`). A failure (no answer, not 2xx) is tried
 * again with back-off doubling from WEBHOOK_BACKOFF_MS up to an hour, until WEBHOOK_GIVE_UP_MS after the event:
 * then it is marked failed and the next one goes. Taking a delivery is a row update, so any number of
 * processes may run this.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(WebhookDispatcher.name);
  private readonly agent: Agent;
  /** opens the company's signing secret (sealed at rest) */
  private readonly secrets: SecretBox;
  /** a pass over the due deliveries every WEBHOOK_POLL_MS, and whenever a change wrote some (`kick`) */
  private readonly passes: PeriodicTask;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly env: TicketsEnv,
    private readonly standings: CompanyStandings,
  ) {
    this.secrets = webhookSecretBox(ticketsSecretMaterial(env));
    backlogDb = db;
    this.agent = new Agent({
      connect: { lookup: guardedLookup(env.WEBHOOK_ALLOW_PRIVATE === 'true'), timeout: TIMEOUT_MS },
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    this.passes = new PeriodicTask({
      name: 'webhook deliveries',
      everyMs: env.WEBHOOK_POLL_MS,
      run: () => this.drain(),
      logger: this.log,
      runAtStart: true,
    });
  }

  onApplicationBootstrap(): void {
    this.passes.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.passes.stop();
    await this.agent.close().catch(() => undefined);
  }

  /** Looks for due deliveries now (after a change that wrote some): at once, or right after the pass under way. */
  kick(): void {
    this.passes.request();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const taken = await this.claim();
      if (taken.length === 0 || this.stopped) return;
      await Promise.all(taken.map((d) => this.deliver(d)));
      if (taken.length < BATCH) return;
    }
  }

  /** The due head of each ticket's queue, taken for CLAIM_S. */
  private async claim(): Promise<Claimed[]> {
    const [rows] = (await this.db.query(CLAIM_DUE_DELIVERIES, [BATCH, String(CLAIM_S)])) as [Claimed[], number];
    return rows.sort((a, b) => Number(a.id) - Number(b.id));
  }

  private async deliver(d: Claimed): Promise<void> {
    // the one plan check: nothing goes out for a company disabled or past its due date (no plan flag gates webhooks)
    const refused = await this.standings.refusal(d.companyId);
    if (refused) {
      await this.settle(d, 'failed', null, refusalText(refused));
      return;
    }
    const [target] = (await this.db.query(SELECT_WEBHOOK_TARGET, [d.companyId])) as Array<{ url: string; secret: string }>;
    if (!target) {
      await this.settle(d, 'failed', null, 'the company has no enabled webhook any more');
      return;
    }
    const secret = this.secrets.open(target.secret);
    if (secret === null) {
      await this.settle(
        d,
        'failed',
        null,
        'the signing secret cannot be opened (was TICKETS_SECRETS_KEY changed?): save the webhook again',
      );
      return;
    }
    const body = JSON.stringify({ id: String(d.id), ...d.payload });
    const timestamp = Math.floor(Date.now() / 1000);
    let status: number | null = null;
    let error: string | null = null;
    try {
      // the receiver's answer is not used: its first 64 KB are read, all within TIMEOUT_MS (a receiver that
      // trickles its answer counts as not answering), then the connection is closed
      const res = await readPeer(target.url, {
        method: 'POST',
        body,
        dispatcher: this.agent,
        maxBytes: WEBHOOK_ANSWER_MAX_BYTES,
        overflow: 'stop',
        deadlineMs: TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Conversa-Webhooks/1',
          'x-webhook-id': String(d.id),
          'x-webhook-event': d.event,
          'x-webhook-timestamp': String(timestamp),
          'x-webhook-signature': `sha256=${webhookSignature(secret, timestamp, body)}`,
        },
      });
      status = res.status;
      if (status >= 200 && status < 300) {
        await this.settle(d, 'delivered', status, null);
        return;
      }
      error = `HTTP ${status}`;
    } catch (err) {
      error = ((err as Error)?.message ?? String(err)).slice(0, 500);
    }
    const given = Date.now() - new Date(d.createdAt).getTime() >= this.env.WEBHOOK_GIVE_UP_MS;
    await this.settle(d, given ? 'failed' : 'pending', status, error);
  }

  private async settle(
    d: Claimed,
    status: 'pending' | 'delivered' | 'failed',
    httpStatus: number | null,
    error: string | null,
  ): Promise<void> {
    const backoff = Math.min(this.env.WEBHOOK_BACKOFF_MS * 2 ** d.attempts, MAX_BACKOFF_MS);
    await this.db.query(RECORD_DELIVERY_ATTEMPT, [d.id, status, httpStatus, error, String(backoff)]);
  }
}
