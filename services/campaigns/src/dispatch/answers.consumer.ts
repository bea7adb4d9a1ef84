import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  CampaignSubjects,
  inboundLaneKey,
  inboundMessagesOf,
  Streams,
  WaSubjects,
  type CampaignSend,
  type WaInboundBatch,
  type WaInboundMessage,
} from '@wa/contracts';
import { campaignWaMessageId, canonicalPhoneNumber, phoneNumberVariants } from '@wa/domain';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { Outbox } from '../platform/outbox.service.js';
import { isOptOut, OPT_OUT_CONFIRMATION } from './compose.js';
import { CampaignSettingsReader } from '../settings/campaign-settings.service.js';
import { Pacers } from './pacer.js';
import { Progress } from './progress.js';
import { ShippingsRepository } from './shippings.repository.js';

/** How long a company's own opt-out words are reused before they are read again. */
const KEYWORDS_TTL_MS = 30_000;

/**
 * What contacts write back (`wa.inbound.>`): any text answers a confirmation waiting for them (the row's message
 * is sent next, still paced); a whole message that is an opt-out word, from someone who received a campaign
 * message of the company, opts them out of its campaigns (not of conversations): confirmed with one short
 * message, and every row of theirs still to go is skipped. One indexed statement per batch for the confirmations.
 */
@Injectable()
export class AnswersConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private handle: ConsumerHandle | undefined;
  private readonly keywords = new Map<number, { until: number; words: string[] | null }>();

  constructor(
    private readonly bus: EventBus,
    private readonly rows: ShippingsRepository,
    private readonly outbox: Outbox,
    private readonly progress: Progress,
    private readonly pacers: Pacers,
    private readonly settings: CampaignSettingsReader,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<WaInboundMessage | WaInboundBatch>({
      stream: Streams.WA.name,
      durable: 'campaigns-inbound',
      filterSubjects: [WaSubjects.allInbound],
      // a connection's answers in the order it received them, alone or in batches
      orderKey: inboundLaneKey,
      concurrency: 4,
      batchSize: 200,
      lingerMs: 20,
      handler: (batch) => this.handle_(batch),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  private async handle_(batch: BusMessage<WaInboundMessage | WaInboundBatch>[]): Promise<void> {
    const answers: Array<{ companyId: number; connectionId: number; number: string; body: string; waMessageId: string }> = [];
    // a message alone, or each of a batch's (a connection's messages received together)
    for (const d of batch.flatMap((m) => inboundMessagesOf(m.data))) {
      if (d.fromMe || d.isGroup || typeof d.companyId !== 'number' || typeof d.from !== 'string') continue;
      const number = canonicalPhoneNumber(d.from);
      if (number)
        answers.push({ companyId: d.companyId, connectionId: d.connectionId, number, body: d.body ?? '', waMessageId: d.waMessageId });
    }
    if (answers.length === 0) return;
    const words = await this.keywordsOf([...new Set(answers.map((a) => a.companyId))]);
    const optOuts = answers.filter((a) => isOptOut(a.body, words.get(a.companyId) ?? undefined));
    const touched: Array<{ id: number; companyId: number }> = [];
    let confirmed = false;
    await this.rows.transaction(async (tx) => {
      // an opt-out word answers no confirmation
      const confirming = answers
        .filter((a) => !optOuts.includes(a))
        .flatMap((a) => phoneNumberVariants(a.number).map((n) => ({ companyId: a.companyId, number: n })));
      for (const r of await this.rows.confirm(tx, confirming)) {
        touched.push({ id: r.campaignId, companyId: r.companyId });
        confirmed = true;
      }
      for (const a of optOuts) {
        const variants = phoneNumberVariants(a.number);
        if (!(await this.rows.receivedCampaign(tx, a.companyId, variants))) continue;
        if (!(await this.rows.addOptOut(tx, a.companyId, a.number))) continue;
        for (const id of await this.rows.skipNumber(tx, a.companyId, variants)) touched.push({ id, companyId: a.companyId });
        const waMessageId = campaignWaMessageId(a.companyId, `optout-${a.waMessageId}`, 'message');
        const payload: CampaignSend = {
          companyId: a.companyId,
          connectionId: a.connectionId,
          campaignId: 0,
          shippingId: 0,
          waMessageId,
          to: a.number,
          body: OPT_OUT_CONFIRMATION,
        };
        await this.outbox.add(tx, [
          { subject: CampaignSubjects.send(a.companyId, a.connectionId), msgId: `campaign-send:${waMessageId}`, payload },
        ]);
      }
    });
    this.outbox.flush();
    if (touched.length > 0) {
      this.progress.moved(touched);
      await this.progress.finish(touched.map((t) => t.id));
    }
    if (confirmed) this.pacers.wake();
  }

  private async keywordsOf(companyIds: number[]): Promise<Map<number, string[] | null>> {
    const now = Date.now();
    const missing = companyIds.filter((id) => !((this.keywords.get(id)?.until ?? 0) > now));
    if (missing.length > 0) {
      for (const id of missing) this.keywords.set(id, { until: now + KEYWORDS_TTL_MS, words: (await this.settings.of(id)).optOutKeywords });
      if (this.keywords.size > 10_000) for (const [k, v] of this.keywords) if (v.until <= now) this.keywords.delete(k);
    }
    return new Map(companyIds.map((id) => [id, this.keywords.get(id)?.words ?? null]));
  }
}
