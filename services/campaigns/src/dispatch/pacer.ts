import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { CampaignSubjects, type CampaignSend, type FileListFiles } from '@wa/contracts';
import { campaignWaMessageId } from '@wa/domain';
import { InjectRedis, MediaStorage, metricsRegistry, PeriodicTask, RedisLease, storedMediaOf, type OutgoingEvent } from '@wa/server-kit';
import { Histogram } from 'prom-client';
import type { Redis } from 'ioredis';
import type { EntityManager } from 'typeorm';
import { CampaignsEnv } from '../config/env.js';
import { CompanyStanding } from '../platform/company-standing.js';
import { ConnectionsRepository } from '../platform/connections.repository.js';
import { Outbox } from '../platform/outbox.service.js';
import { fillPlaceholders, pickVariant } from './compose.js';
import { dayOf, nextSlot, type ConnectionLimits, type PaceState } from './pace.js';
import { Progress } from './progress.js';
import { CampaignSettingsReader, type CampaignSettings } from '../settings/campaign-settings.service.js';
import { ShippingsRepository, type CampaignForSend, type DueRow } from './shippings.repository.js';
import { TicketsClient } from '../platform/tickets-client.js';

/** A pacer's lease: renewed at every step; a crashed replica's connections are taken over after it. */
const LEASE_TTL_MS = 10_000;
/** How long a pacer waits at most before looking again (a cancel, a lost lease, new rows). */
const STEP_MS = 1_000;
/** How often the manager looks for connections with a running campaign. */
const SCAN_EVERY_MS = 2_000;

const leaseKey = (connectionId: number) => `conversa:campaigns:pacer:${connectionId}`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** How long what the pace depends on is reused before it is read again (and the lease renewed). */
const VIEW_MS = 1_000;

/** What the pace of a connection depends on, read at `at`. */
interface PaceView {
  /** what a planned slot depends on: a slot is planned again when it changes */
  key: string;
  at: number;
  campaigns: number[];
  /** why nothing may be sent now: auth never answered, the plan refuses campaigns, the connection is not connected */
  wait: 'unknown' | 'refused' | 'down' | null;
  pace: CampaignSettings;
  timeZone: string;
  limits: ConnectionLimits;
}

/** How late each campaign send was handed to its lane against its planned slot (the benchmark reads it from /metrics). */
const lateness = new Histogram({
  name: 'campaign_send_lateness_seconds',
  help: 'how long after its planned slot a campaign send was handed to its connection lane',
  buckets: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5],
  registers: [metricsRegistry],
});

/** What a handed-over row did to the pace. */
type Handed = 'sent' | 'skipped' | 'none';

/**
 * One pacer per connection with a running campaign, across all replicas (a Redis lease per connection): it takes
 * the next due row of the connection's running campaigns in turn (`FOR UPDATE SKIP LOCKED`), and hands it to the
 * connection's campaign lane through the outbox, in one transaction with the row's change and the day's count, with
 * the WhatsApp id the row fixes (a publish repeated after a crash is a duplicate the session drops). The gap
 * between two sends is the pure nextSlot (the company's intervals, the platform floor, the connection's daily cap,
 * warm-up and sending hours); every campaign on the connection shares it. A company whose plan loses campaigns has
 * its running campaigns stopped; a connection that is not connected waits (no burst when it comes back).
 */
@Injectable()
export class Pacers implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(Pacers.name);
  private readonly lease: RedisLease;
  private readonly running = new Map<number, Promise<void>>();
  private readonly scan: PeriodicTask;
  private stopped = false;
  /** the files sent after each campaign's message (asked of tickets once per campaign and process) */
  private readonly files = new Map<number, { at: number; files: FileListFiles['files'] }>();
  /** a hook the lifecycle sets: pause a connection's campaigns with a reason */
  onPlanRefused: (companyId: number, connectionId: number) => Promise<void> = async () => undefined;

  constructor(
    @InjectRedis() redis: Redis,
    private readonly env: CampaignsEnv,
    private readonly rows: ShippingsRepository,
    private readonly outbox: Outbox,
    private readonly connections: ConnectionsRepository,
    private readonly standing: CompanyStanding,
    private readonly storage: MediaStorage,
    private readonly tickets: TicketsClient,
    private readonly progress: Progress,
    private readonly settings: CampaignSettingsReader,
  ) {
    this.lease = new RedisLease(redis, { owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, ttlMs: LEASE_TTL_MS });
    this.scan = new PeriodicTask({ name: 'campaign pacers', everyMs: SCAN_EVERY_MS, runAtStart: true, run: () => this.look() });
  }

  onApplicationBootstrap(): void {
    this.scan.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.scan.stop();
    await Promise.allSettled(this.running.values());
  }

  /** Something changed (a start, a restart): look for connections to pace now. */
  wake(): void {
    this.scan.request();
  }

  private async look(): Promise<void> {
    if (this.stopped) return;
    for (const { connectionId, companyId } of await this.rows.runningConnections()) {
      if (this.running.has(connectionId)) continue;
      if (!(await this.lease.acquire(leaseKey(connectionId)))) continue;
      const run = this.pace(companyId, connectionId)
        .catch((err: unknown) => this.log.error({ err, connectionId }, 'campaign pacer stopped by an error; started again'))
        .finally(() => {
          this.running.delete(connectionId);
          void this.lease.release(leaseKey(connectionId)).catch(() => undefined);
        });
      this.running.set(connectionId, run);
    }
  }

  /**
   * The connection's pace, for as long as it has running campaigns and this process holds its lease. What the pace
   * depends on (the running campaigns, the plan, the connection's limits, the company's intervals) is read again at
   * most every VIEW_MS, and the lease renewed as often, so a send costs its one transaction; a change applies
   * within that.
   */
  private async pace(companyId: number, connectionId: number): Promise<void> {
    const state: PaceState & { sentByDay: Record<string, number> } = {
      lastAt: await this.rows.lastSend(connectionId),
      sentInRun: 0,
      sentByDay: {},
    };
    let planned: number | null = null;
    let turn = 0;
    let view: PaceView | null = null;
    this.log.log({ connectionId }, 'pacing campaigns');
    while (!this.stopped) {
      if (!view || view.at + VIEW_MS <= Date.now()) {
        if (!(await this.lease.renew(leaseKey(connectionId)).catch(() => false))) return;
        const before = view?.key;
        view = await this.viewOf(companyId, connectionId, state);
        // what the slot was planned on changed (intervals, limits, the day's count): planned again
        if (view.key !== before) planned = null;
      }
      if (view.campaigns.length === 0) return;
      if (view.wait) {
        if (view.wait === 'refused') await this.onPlanRefused(companyId, connectionId);
        else await sleep(STEP_MS);
        view = null;
        continue;
      }
      planned ??= nextSlot({
        now: Date.now(),
        state,
        settings: view.pace,
        limits: view.limits,
        floorMs: this.env.CAMPAIGN_MIN_GAP_MS,
        timeZone: view.timeZone,
        random: Math.random,
      }).at;
      if (planned > Date.now()) {
        await sleep(Math.min(STEP_MS, planned - Date.now()));
        continue;
      }
      // the connection's campaigns take turns
      let handed: Handed = 'none';
      for (let i = 0; i < view.campaigns.length && handed === 'none'; i++) {
        const campaignId = view.campaigns[(turn + i) % view.campaigns.length] as number;
        handed = await this.handOver(companyId, connectionId, campaignId, view.pace, view.timeZone);
        if (handed !== 'none') turn = (turn + i + 1) % view.campaigns.length;
      }
      if (handed === 'sent') {
        lateness.observe(Math.max(0, Date.now() - planned) / 1000);
        state.lastAt = Date.now();
        state.sentInRun++;
        const day = dayOf(state.lastAt, view.timeZone);
        state.sentByDay[day] = (state.sentByDay[day] ?? 0) + 1;
        planned = null;
      } else if (handed === 'none') {
        // nothing due now (rows waiting for answers, or all handed over): campaigns with nothing left end
        await this.progress.finish(view.campaigns);
        await sleep(STEP_MS);
        view = null;
      }
    }
  }

  /** What the connection's pace depends on now, and whether it must wait (the plan, the connection down, auth away). */
  private async viewOf(companyId: number, connectionId: number, state: { sentByDay: Record<string, number> }): Promise<PaceView> {
    const at = Date.now();
    const campaigns = await this.rows.runningOn(companyId, connectionId);
    const standing = campaigns.length > 0 ? await this.standing.of(companyId) : null;
    const connection = standing ? await this.connections.find(companyId, connectionId) : null;
    const pace = await this.settings.of(companyId);
    const timeZone = standing?.timeZone ?? 'UTC';
    const today = dayOf(at, timeZone);
    // the day's count from the table (another pacer may have sent today before this one took over)
    state.sentByDay = { [today]: await this.rows.sentOn(connectionId, today) };
    const wait = !standing ? 'unknown' : standing.refusal ? 'refused' : connection && connection.status !== 'CONNECTED' ? 'down' : null;
    const limits = {
      dailyLimit: connection?.campaignDailyLimit ?? 0,
      warmup: connection?.campaignWarmup ?? false,
      hours: connection?.campaignHours ?? '',
      since: (connection?.createdAt ?? new Date()).getTime(),
    };
    const { messageInterval, longerIntervalAfter, greaterInterval } = pace;
    return {
      key: JSON.stringify([messageInterval, longerIntervalAfter, greaterInterval, limits, timeZone, state.sentByDay]),
      at,
      campaigns,
      wait,
      pace,
      timeZone,
      limits,
    };
  }

  /** The campaign's next due row handed to the lane, in one transaction; 'skipped' (opted out, nothing to say) costs no slot. */
  private async handOver(
    companyId: number,
    connectionId: number,
    campaignId: number,
    pace: CampaignSettings,
    timeZone: string,
  ): Promise<Handed> {
    const files = await this.filesOf(companyId, campaignId);
    const handed = await this.rows.transaction(async (tx): Promise<Handed> => {
      const campaign = await this.rows.campaignForSend(tx, companyId, campaignId);
      if (!campaign) return 'none';
      const row = await this.rows.nextRow(tx, companyId, campaignId);
      if (!row) return 'none';
      // checked again right before the send: a contact who opted out after the audience froze
      if (row.optedOut) {
        await this.rows.skipOptedOut(tx, companyId, row.id);
        return 'skipped';
      }
      const events = await this.compose(tx, companyId, connectionId, campaign, row, pace, files);
      if (!events) return 'skipped';
      await this.rows.countSend(tx, connectionId, dayOf(Date.now(), timeZone));
      await this.outbox.add(tx, events);
      return 'sent';
    });
    if (handed !== 'none') {
      this.outbox.flush();
      this.progress.moved([{ id: campaignId, companyId }]);
    }
    return handed;
  }

  /** The row's sends (the confirmation, or the message with the campaign's attachment and then the file list's files), its row changed. */
  private async compose(
    tx: EntityManager,
    companyId: number,
    connectionId: number,
    campaign: CampaignForSend,
    row: DueRow,
    pace: CampaignSettings,
    files: FileListFiles['files'],
  ): Promise<OutgoingEvent[] | null> {
    const to = { name: row.name, number: row.number, email: row.email };
    const send = (waMessageId: string, body: string, media: CampaignSend['media'] = null): OutgoingEvent => {
      const payload: CampaignSend = {
        companyId,
        connectionId,
        campaignId: campaign.id,
        shippingId: Number(row.id),
        waMessageId,
        to: row.number,
        body,
        media,
      };
      return { subject: CampaignSubjects.send(companyId, connectionId), msgId: `campaign-send:${waMessageId}`, payload };
    };
    if (campaign.confirmation && row.status === 'pending') {
      const text = pickVariant(campaign.confirmationMessages, Math.random);
      if (text !== null) {
        const body = fillPlaceholders(text, to, pace.variables);
        const id = campaignWaMessageId(companyId, row.id, 'confirmation');
        await this.rows.rowConfirming(tx, companyId, row.id, body, id);
        return [send(id, body)];
      }
    }
    const text = pickVariant(campaign.messages, Math.random);
    const media = campaign.mediaPath ? await storedMediaOf(this.storage, campaign.mediaPath) : null;
    if (text === null && !media) {
      await this.rows.failRow(tx, companyId, row.id, 'the campaign has no message');
      return null;
    }
    const body = text === null ? '' : fillPlaceholders(text, to, pace.variables);
    const id = campaignWaMessageId(companyId, row.id, 'message');
    await this.rows.rowQueued(tx, companyId, row.id, body, id);
    const events = [send(id, body, media ? { ...media, fileName: campaign.mediaName ?? media.fileName } : null)];
    files.forEach((f, i) =>
      events.push(
        send(campaignWaMessageId(companyId, row.id, 'message', i + 1), f.mediaType === 'application' ? f.fileName : '', {
          key: f.key,
          mimetype: f.mimetype,
          fileName: f.fileName,
          size: f.size,
          mediaType: f.mediaType,
        }),
      ),
    );
    return events;
  }

  /** The files of the campaign's file list (none without one), asked of tickets at most once a minute per campaign. */
  private async filesOf(companyId: number, campaignId: number): Promise<FileListFiles['files']> {
    const hit = this.files.get(campaignId);
    if (hit && hit.at > Date.now() - 60_000) return hit.files;
    const row = await this.rows.transaction((tx) => this.rows.campaignForSend(tx, companyId, campaignId));
    const list = row?.fileListId ? await this.tickets.fileList(companyId, row.fileListId) : null;
    const files = list?.files ?? [];
    this.files.set(campaignId, { at: Date.now(), files });
    return files;
  }
}
