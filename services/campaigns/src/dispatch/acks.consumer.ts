import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CampaignSubjects, Streams, WaSubjects, type CampaignMessageSent, type WaAck, type WaAcks } from '@wa/contracts';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { Outbox } from '../platform/outbox.service.js';
import { Progress } from './progress.js';
import { ShippingsRepository } from './shippings.repository.js';

/** Failures in a row on one connection (not a number's own refusal) that pause its campaigns. */
export const FAILURES_BEFORE_PAUSE = 5;

/**
 * WhatsApp's answers about campaign sends (`wa.ack.>`): a message WhatsApp took is sent (and the conversation is
 * told, `campaign.sent`), then delivered and read as its acks rise; a send given up or refused fails its row, and
 * a connection whose sends keep failing (FAILURES_BEFORE_PAUSE in a row, not counting numbers that are not on
 * WhatsApp) has its campaigns paused. Acks of other messages (agents', the bot's) match no row and cost one
 * indexed look per batch.
 */
@Injectable()
export class AcksConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(AcksConsumer.name);
  private handle: ConsumerHandle | undefined;
  private readonly failuresInRow = new Map<number, number>();
  /** a hook the lifecycle sets: pause a connection's campaigns with a reason */
  onFailing: (companyId: number, connectionId: number) => Promise<void> = async () => undefined;

  constructor(
    private readonly bus: EventBus,
    private readonly rows: ShippingsRepository,
    private readonly outbox: Outbox,
    private readonly progress: Progress,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<WaAck | WaAcks>({
      stream: Streams.WA.name,
      durable: 'campaigns-acks',
      filterSubjects: [WaSubjects.allAcks],
      // a connection's acks in one lane
      orderKey: (subject) => subject.split('.').slice(2, 4).join('.'),
      concurrency: 4,
      batchSize: 200,
      lingerMs: 50,
      handler: (batch) => this.handle_(batch),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  private async handle_(batch: BusMessage<WaAck | WaAcks>[]): Promise<void> {
    // per company: the acks that rose, and the sends that failed
    const rising = new Map<number, Map<string, { id: string; ack: number; at: number }>>();
    const failed: WaAck[] = [];
    for (const m of batch) {
      const d = m.data;
      if (!d || typeof d.companyId !== 'number') continue;
      const entries = 'acks' in d && Array.isArray(d.acks) ? d.acks.map((a) => ({ ...a, at: d.at })) : [d as WaAck];
      for (const e of entries) {
        if (typeof e.waMessageId !== 'string') continue;
        if ('failed' in e && e.failed) {
          failed.push(e as WaAck);
          continue;
        }
        if (typeof e.ack !== 'number' || e.ack < 1) continue;
        const forCompany = rising.get(d.companyId) ?? new Map();
        rising.set(d.companyId, forCompany);
        const prev = forCompany.get(e.waMessageId);
        if (!prev || prev.ack < e.ack) forCompany.set(e.waMessageId, { id: e.waMessageId, ack: e.ack, at: Number(e.at) || Date.now() });
      }
    }
    const touched: Array<{ id: number; companyId: number }> = [];
    const failing: Array<{ companyId: number; connectionId: number }> = [];
    await this.rows.transaction(async (tx) => {
      for (const [companyId, acks] of rising) {
        const list = [...acks.values()];
        const sent = await this.rows.markSent(tx, companyId, list);
        if (sent.length > 0) {
          await this.outbox.add(
            tx,
            sent.map((s) => {
              const payload: CampaignMessageSent = {
                companyId,
                connectionId: s.connectionId,
                campaignId: s.campaignId,
                number: s.number,
                waMessageId: s.waMessageId,
                body: s.message ?? '',
                sentAt: Number(s.at),
              };
              return { subject: CampaignSubjects.sent(companyId, s.connectionId), msgId: `campaign-sent:${s.waMessageId}`, payload };
            }),
          );
          for (const s of sent) {
            touched.push({ id: s.campaignId, companyId });
            this.failuresInRow.delete(s.connectionId);
          }
        }
        for (const id of await this.rows.raiseAcks(tx, companyId, list)) touched.push({ id, companyId });
      }
      for (const f of failed) {
        const reason = String(f.failed).slice(0, 500);
        for (const r of await this.rows.failByWaId(tx, f.companyId, f.waMessageId, reason)) {
          touched.push({ id: r.campaignId, companyId: f.companyId });
          // a number that is not on WhatsApp is the number's doing, not the connection's
          if (reason.startsWith('ERR_WAPP_INVALID_CONTACT')) continue;
          const n = (this.failuresInRow.get(r.connectionId) ?? 0) + 1;
          this.failuresInRow.set(r.connectionId, n);
          if (n >= FAILURES_BEFORE_PAUSE) failing.push({ companyId: f.companyId, connectionId: r.connectionId });
        }
      }
    });
    this.outbox.flush();
    if (touched.length > 0) {
      this.progress.moved(touched);
      await this.progress.finish(touched.map((t) => t.id));
    }
    for (const f of failing) {
      this.failuresInRow.delete(f.connectionId);
      this.log.warn(f, 'campaign sends keep failing on this connection; its campaigns are paused');
      await this.onFailing(f.companyId, f.connectionId);
    }
  }
}
