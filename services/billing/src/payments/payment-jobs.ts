import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { PaymentsService } from './payments.service.js';
import { POLLS_QUEUE, RECEIPTS_QUEUE, type PollJob, type ReceiptJob } from './queues.js';
import { Receipts } from './receipts.js';

@Processor(POLLS_QUEUE, { concurrency: 5 })
export class PollJobProcessor extends WorkerHost {
  constructor(private readonly payments: PaymentsService) {
    super();
  }

  async process(job: Job<PollJob>): Promise<string> {
    return this.payments.settle(job.data.txid, job.data.last ? 'expiry-poll' : 'poll');
  }
}

/** A receipt to the company's billing email (SMTP), retried while the mail server refuses. */
@Processor(RECEIPTS_QUEUE, { concurrency: 2 })
export class ReceiptJobProcessor extends WorkerHost {
  private readonly log = new Logger(ReceiptJobProcessor.name);

  constructor(private readonly receipts: Receipts) {
    super();
  }

  async process(job: Job<ReceiptJob>): Promise<string> {
    const outcome = await this.receipts.send(job.data.paymentId);
    this.log.log({ paymentId: job.data.paymentId, outcome }, 'receipt');
    return outcome;
  }
}
