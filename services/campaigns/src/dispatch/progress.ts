import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { CampaignRecords } from '../records/campaign-records.js';
import { ShippingsRepository } from './shippings.repository.js';

/** How often a running campaign's progress is announced at most. */
const PROGRESS_EVERY_MS = 1000;

/**
 * A campaign's progress, announced live at most every PROGRESS_EVERY_MS (with its report), and its end: a campaign
 * with no row left to send turns FINALIZADA (announced at once).
 */
@Injectable()
export class Progress implements OnApplicationShutdown {
  private readonly log = new Logger(Progress.name);
  private readonly dirty = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly rows: ShippingsRepository,
    private readonly records: CampaignRecords,
  ) {}

  /** Rows of these campaigns moved: their end is checked now, their progress announced soon. */
  moved(campaigns: Iterable<{ id: number; companyId: number }>): void {
    for (const c of campaigns) this.dirty.set(c.id, c.companyId);
    this.timer ??= setTimeout(() => void this.flush(), PROGRESS_EVERY_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.flush();
  }

  /** Finishes the campaigns among `ids` with nothing left to send, and announces them. */
  async finish(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.rows.transaction(async (tx) => {
      const done = await this.rows.finishDone(tx, [...new Set(ids)]);
      for (const c of done) await this.records.changed(tx, c.companyId, c.id, true);
    });
    this.records.flush();
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    const batch = [...this.dirty];
    this.dirty.clear();
    if (batch.length === 0) return;
    try {
      await this.finish(batch.map(([id]) => id));
      await this.rows.transaction(async (tx) => {
        for (const [id, companyId] of batch) await this.records.changed(tx, companyId, id, true);
      });
      this.records.flush();
    } catch (err) {
      this.log.warn({ err, campaigns: batch.length }, 'campaign progress not announced; tried again');
      for (const [id, companyId] of batch) this.dirty.set(id, companyId);
      this.timer ??= setTimeout(() => void this.flush(), PROGRESS_EVERY_MS);
    }
  }
}
