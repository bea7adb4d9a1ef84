import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { countJobsOf } from '@wa/server-kit';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { CompanyCopyConsumer } from '../companies/company-copy.consumer.js';
import { BillingEnv } from '../config/env.js';
import { PaymentsService } from '../payments/payments.service.js';
import { InvoicesService } from './invoices.service.js';

export const INVOICES_QUEUE = 'billing-invoices';
/** The one scheduler of the daily job, whatever the number of replicas or restarts. */
export const DAILY_JOB_ID = 'invoices-daily';

/** Registers the daily invoice job (a BullMQ job scheduler with a fixed id: one, however many replicas start). */
@Injectable()
export class InvoiceSchedule implements OnApplicationBootstrap {
  private readonly log = new Logger(InvoiceSchedule.name);

  constructor(
    @InjectQueue(INVOICES_QUEUE) private readonly queue: Queue,
    private readonly env: BillingEnv,
  ) {
    countJobsOf(this.queue);
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      await this.queue.upsertJobScheduler(DAILY_JOB_ID, { pattern: this.env.INVOICE_JOB_CRON, tz: 'UTC' }, { name: 'create-invoices' });
    } catch (err) {
      this.log.error({ err: (err as Error).message }, 'daily invoice job not scheduled');
    }
  }
}

/**
 * The daily job: auth's companies read again (a missed event), the invoices due within INVOICE_DAYS_AHEAD, and the
 * charges left open read back from the provider.
 */
@Processor(INVOICES_QUEUE, { concurrency: 1 })
export class InvoiceJob extends WorkerHost {
  private readonly log = new Logger(InvoiceJob.name);

  constructor(
    private readonly invoices: InvoicesService,
    private readonly companies: CompanyCopyConsumer,
    private readonly payments: PaymentsService,
  ) {
    super();
  }

  async process(): Promise<{ created: number; charges: Record<string, number> }> {
    await this.companies.backfill().catch((err: Error) => this.log.warn({ err: err.message }, 'companies not read from auth'));
    const created = await this.invoices.createDue();
    const charges = await this.payments.sweep();
    this.log.log({ created, charges }, 'daily invoices');
    return { created, charges };
  }
}
