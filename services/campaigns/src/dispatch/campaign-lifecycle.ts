import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { CampaignDto } from '@wa/contracts';
import { countJobsOf, DomainError, PeriodicTask } from '@wa/server-kit';
import type { Job, Queue } from 'bullmq';
import { CampaignRecords } from '../records/campaign-records.js';
import { CompanyStanding } from '../platform/company-standing.js';
import { Pacers } from './pacer.js';
import { Progress } from './progress.js';
import { ShippingsRepository } from './shippings.repository.js';
import { TicketsClient } from '../platform/tickets-client.js';

export const CAMPAIGN_START_QUEUE = 'campaign-start';

interface StartJob {
  companyId: number;
  campaignId: number;
}

/** How often the sweep looks for campaigns whose date came (the delayed jobs are the punctual way; this catches a lost one). */
const SWEEP_EVERY_MS = 5_000;
/** How long a request waits for Redis to take a job; past it the sweep starts the campaign. */
const ADD_TIMEOUT_MS = 2_000;

/** The reasons a campaign shows when the server stopped it. */
export const STOP_REASONS = {
  plan: 'O plano da empresa não inclui campanhas (ou a empresa está inativa).',
  noConnection: 'A campanha não tem conexão.',
  banned: 'O WhatsApp baniu este número: a campanha foi pausada.',
  loggedOut: 'A conexão foi desconectada do WhatsApp: a campanha foi pausada.',
  failing: 'Os envios por esta conexão estão falhando seguidamente: a campanha foi pausada.',
} as const;

/**
 * The server's side of a campaign's life (spec 02 §4). Start is a compare-and-set (PROGRAMADA → EM_ANDAMENTO once,
 * whoever fires: the delayed job of its version, or the sweep) that freezes the audience into one shipping row per
 * contact in the same transaction. Cancel and restart are compare-and-sets too; a cancel waits for the one send being
 * handed over (the pacer holds the campaign's row FOR SHARE), so at most that one still leaves.
 */
@Injectable()
export class CampaignLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(CampaignLifecycle.name);
  private readonly sweep: PeriodicTask;

  constructor(
    @InjectQueue(CAMPAIGN_START_QUEUE) private readonly queue: Queue<StartJob>,
    private readonly rows: ShippingsRepository,
    private readonly records: CampaignRecords,
    private readonly standing: CompanyStanding,
    private readonly tickets: TicketsClient,
    private readonly pacers: Pacers,
    private readonly progress: Progress,
  ) {
    countJobsOf(this.queue);
    this.sweep = new PeriodicTask({ name: 'campaign start sweep', everyMs: SWEEP_EVERY_MS, runAtStart: true, run: () => this.startDue() });
  }

  onApplicationBootstrap(): void {
    this.sweep.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweep.stop();
  }

  /** (Re)arms the start of a PROGRAMADA campaign at its scheduledAt: a delayed job keyed by id and version (an older version's job finds nothing to do). */
  async armed(companyId: number, campaignId: number): Promise<void> {
    const c = await this.rows.armedCampaign(companyId, campaignId);
    if (!c) return;
    const delay = Math.max(0, (c.scheduledAt ? new Date(c.scheduledAt).getTime() : Date.now()) - Date.now());
    const added = this.queue
      .add(
        'start',
        { companyId, campaignId },
        { jobId: `campaign-${campaignId}-v${c.version}`, delay, removeOnComplete: true, removeOnFail: 1000 },
      )
      .then(() => undefined);
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, ADD_TIMEOUT_MS).unref());
    await Promise.race([added, timeout]).catch((err: unknown) =>
      this.log.warn({ err, campaignId }, 'campaign start job not added; the sweep will start it'),
    );
    if (delay === 0) this.sweep.request();
  }

  /** Starts the campaign when it is PROGRAMADA and due (once, whoever calls). */
  async start(companyId: number, campaignId: number): Promise<void> {
    const standing = await this.standing.of(companyId);
    if (!standing) return; // auth not reachable and nothing known: tried again by the sweep
    if (standing.refusal) {
      await this.refuseStart(companyId, campaignId, STOP_REASONS.plan);
      return;
    }
    const record = await this.records.row(companyId, campaignId);
    if (!record || record.status !== 'PROGRAMADA') return;
    // a tag's contacts are asked of tickets before the transaction (a failure leaves the campaign PROGRAMADA for the sweep)
    const tagId = !record.contactListId && /^\d+$/.test(record.tagListId) ? Number(record.tagListId) : null;
    const tagged = tagId !== null ? await this.tickets.tagAudience(companyId, tagId) : [];
    let connectionId: number | null = null;
    const started = await this.rows.transaction(async (tx) => {
      const c = await this.rows.startCas(tx, companyId, campaignId);
      if (!c) return false;
      if (c.whatsappId === null) {
        await this.rows.cancelCas(tx, companyId, campaignId, STOP_REASONS.noConnection);
      } else {
        connectionId = c.whatsappId;
        await this.freeze(tx, companyId, c, tagged);
      }
      await this.records.changed(tx, companyId, campaignId, true);
      return true;
    });
    if (!started) return;
    this.records.flush();
    this.log.log({ companyId, campaignId }, 'campaign started');
    await this.progress.finish([campaignId]);
    if (connectionId !== null) this.pacers.wake();
  }

  async cancel(companyId: number, campaignId: number): Promise<CampaignDto> {
    const done = await this.rows.transaction(async (tx) => {
      if (!(await this.rows.cancelCas(tx, companyId, campaignId, null))) return false;
      await this.records.changed(tx, companyId, campaignId, true);
      return true;
    });
    return this.answer(companyId, campaignId, done, 'ERR_CAMPAIGN_NOT_RUNNING');
  }

  /** CANCELADA → EM_ANDAMENTO: only rows not yet sent go (a campaign stopped before it started freezes its audience now). */
  async restart(companyId: number, campaignId: number): Promise<CampaignDto> {
    const standing = await this.standing.of(companyId);
    if (standing?.refusal) throw new DomainError('ERR_NO_PERMISSION', { reason: standing.refusal }, STOP_REASONS.plan);
    const record = await this.records.row(companyId, campaignId);
    if (!record) throw new DomainError('ERR_NO_CAMPAIGN_FOUND');
    if (record.whatsappId === null)
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'whatsappId', messages: ['Required'] }] }, STOP_REASONS.noConnection);
    const tagId = !record.contactListId && /^\d+$/.test(record.tagListId) ? Number(record.tagListId) : null;
    const needsAudience = !(await this.rows.hasRows(this.records.manager(), companyId, campaignId));
    const tagged = needsAudience && tagId !== null ? await this.tickets.tagAudience(companyId, tagId) : [];
    const done = await this.rows.transaction(async (tx) => {
      const c = await this.rows.restartCas(tx, companyId, campaignId);
      if (!c) return false;
      if (c.whatsappId !== null && !(await this.rows.hasRows(tx, companyId, campaignId))) await this.freeze(tx, companyId, c, tagged);
      await this.records.changed(tx, companyId, campaignId, true);
      return true;
    });
    const answer = await this.answer(companyId, campaignId, done, 'ERR_CAMPAIGN_NOT_CANCELLED');
    await this.progress.finish([campaignId]);
    this.pacers.wake();
    return (await this.records.record(companyId, campaignId)) ?? answer;
  }

  /** A connection's running campaigns stop with a reason (banned, logged out, failing, the plan lost campaigns). */
  async pauseConnection(companyId: number, connectionId: number, reason: string): Promise<void> {
    const ids = await this.rows.transaction(async (tx) => {
      const paused = await this.rows.pauseConnection(tx, companyId, connectionId, reason);
      for (const id of paused) await this.records.changed(tx, companyId, id, true);
      return paused;
    });
    this.records.flush();
    if (ids.length > 0) this.log.warn({ companyId, connectionId, campaigns: ids, reason }, 'campaigns paused');
  }

  /** The sweep: every campaign whose date came is started (each once: the compare-and-set decides). */
  private async startDue(): Promise<void> {
    for (const c of await this.rows.dueCampaigns()) {
      await this.start(c.companyId, c.id).catch((err: unknown) =>
        this.log.warn({ err, campaignId: c.id }, 'campaign not started; tried again'),
      );
    }
  }

  private async freeze(
    tx: Parameters<Parameters<ShippingsRepository['transaction']>[0]>[0],
    companyId: number,
    c: { id: number; whatsappId: number | null; contactListId: number | null },
    tagged: Array<{ number: string; name: string; email: string }>,
  ): Promise<void> {
    if (c.whatsappId === null) return;
    if (c.contactListId !== null) await this.rows.freezeList(tx, companyId, c.id, c.whatsappId, c.contactListId);
    else if (tagged.length > 0) await this.rows.freezeNumbers(tx, companyId, c.id, c.whatsappId, tagged);
  }

  /** A PROGRAMADA campaign the plan no longer allows: moved to running and stopped at once, with the reason. */
  private async refuseStart(companyId: number, campaignId: number, reason: string): Promise<void> {
    await this.rows.transaction(async (tx) => {
      const c = await this.rows.startCas(tx, companyId, campaignId);
      if (!c) return;
      await this.rows.cancelCas(tx, companyId, campaignId, reason);
      await this.records.changed(tx, companyId, campaignId, true);
    });
    this.records.flush();
  }

  private async answer(
    companyId: number,
    campaignId: number,
    done: boolean,
    refusal: 'ERR_CAMPAIGN_NOT_RUNNING' | 'ERR_CAMPAIGN_NOT_CANCELLED',
  ): Promise<CampaignDto> {
    if (done) this.records.flush();
    const record = await this.records.record(companyId, campaignId);
    if (!record) throw new DomainError('ERR_NO_CAMPAIGN_FOUND');
    if (!done) throw new DomainError(refusal);
    return record;
  }
}

/** Runs a campaign's delayed start job. */
@Processor(CAMPAIGN_START_QUEUE, { concurrency: 20 })
export class CampaignStartJob extends WorkerHost {
  constructor(private readonly lifecycle: CampaignLifecycle) {
    super();
  }

  async process(job: Job<StartJob>): Promise<void> {
    await this.lifecycle.start(job.data.companyId, job.data.campaignId);
  }
}
