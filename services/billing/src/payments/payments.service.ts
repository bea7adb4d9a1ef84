import { InjectQueue } from '@nestjs/bullmq';
import { countJobsOf } from '@wa/server-kit';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { BillingSubjects, type InvoicePaidEvent } from '@wa/contracts';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { InvoicesRepository } from '../invoices/invoices.repository.js';
import { paymentsReceived } from '../metrics.js';
import { Outbox } from '../outbox/outbox.service.js';
import { PIX_PROVIDER, type PixProvider } from '../providers/pix-provider.js';
import { valorOf } from '../providers/pix-webhook-body.js';
import { ChargesRepository } from './charges.repository.js';
import { RECEIPTS_QUEUE, receiptJobOptions, type ReceiptJob } from './queues.js';

/** What became of a charge looked at: the webhook's answer logs it, a poll's job keeps it. */
export type SettleOutcome = 'paid' | 'paid-not-settled' | 'already-recorded' | 'pending' | 'short' | 'expired' | 'unknown';

/**
 * Paying, once (issue 41 §6). Whoever names a charge (a webhook, a poll), it is read back from the provider and must
 * be CONCLUIDA for at least its amount. Then one transaction records the payment (unique by the provider's
 * end-to-end id: a webhook twice, or a webhook and a poll, record it once), marks the invoice paid only if it is open,
 * and publishes `billing.invoice.paid` through the outbox (auth renews the company once per invoice).
 */
@Injectable()
export class PaymentsService {
  private readonly log = new Logger(PaymentsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly charges: ChargesRepository,
    private readonly invoices: InvoicesRepository,
    private readonly outbox: Outbox,
    @Inject(PIX_PROVIDER) private readonly provider: PixProvider,
    @InjectQueue(RECEIPTS_QUEUE) private readonly receipts: Queue<ReceiptJob>,
  ) {
    countJobsOf(this.receipts);
  }

  /**
   * The daily sweep: every charge still open for more than 10 minutes is read back once more (its polls lost with a
   * Redis that lost its data, or a webhook that never came). An expired one is closed.
   */
  async sweep(): Promise<Record<string, number>> {
    const outcomes: Record<string, number> = {};
    for (const txid of await this.charges.unsettled(this.db.manager, 600, 1000)) {
      const outcome = await this.settle(txid, 'sweep').catch(() => 'failed');
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    return outcomes;
  }

  async settle(txid: string, source: string): Promise<SettleOutcome> {
    const charge = await this.charges.byTxid(this.db.manager, txid);
    if (!charge) {
      this.log.warn({ txid, source }, 'a charge we did not create: ignored');
      return 'unknown';
    }
    const remote = await this.provider.readCharge(txid);
    if (!remote) {
      this.log.warn({ txid, source }, 'the provider does not know this charge');
      return 'unknown';
    }
    if (remote.status !== 'CONCLUIDA') {
      const over = remote.status !== 'ATIVA' || new Date(charge.expiresAt).getTime() <= Date.now();
      if (over && charge.status === 'ATIVA')
        await this.charges.setStatus(this.db.manager, charge.id, remote.status === 'ATIVA' ? 'EXPIRADA' : 'REMOVIDA');
      return over ? 'expired' : 'pending';
    }
    const received = remote.pix.reduce((sum, p) => sum + p.amountCents, 0);
    const pix = remote.pix[0];
    if (!pix || received < charge.amountCents || remote.amountCents < charge.amountCents) {
      this.log.warn({ txid, source, received, expected: charge.amountCents }, 'charge concluded for less than its amount: not paid');
      return 'short';
    }
    const done = await this.db.transaction(async (tx) => {
      const paymentId = await this.charges.insertPayment(tx, {
        endToEndId: pix.endToEndId,
        chargeId: charge.id,
        invoiceId: charge.invoiceId,
        companyId: charge.companyId,
        amountCents: received,
        provider: charge.provider,
        paidAt: pix.paidAt,
      });
      if (paymentId === undefined) return undefined;
      await this.charges.setStatus(tx, charge.id, 'CONCLUIDA');
      const invoice = await this.invoices.markPaid(tx, charge.invoiceId, pix.paidAt);
      if (!invoice) return { paymentId, settled: false, outboxIds: [] as string[] };
      await this.charges.markSettled(tx, paymentId);
      const event: InvoicePaidEvent = {
        invoiceId: invoice.id,
        companyId: invoice.companyId,
        dueDate: invoice.dueDate,
        planId: charge.planId,
        amount: valorOf(received),
        paidAt: pix.paidAt.toISOString(),
        endToEndId: pix.endToEndId,
      };
      const outboxIds = await this.outbox.add(tx, [
        { subject: BillingSubjects.invoicePaid(invoice.companyId), msgId: `invoice-paid:${invoice.id}:${pix.endToEndId}`, payload: event },
      ]);
      return { paymentId, settled: true, outboxIds };
    });
    if (!done) return 'already-recorded';
    paymentsReceived.inc({ provider: charge.provider, settled: String(done.settled) });
    if (!done.settled) {
      // money for an invoice no longer open (paid by another charge, cancelled): recorded, for the operator to refund
      this.log.warn({ txid, invoiceId: charge.invoiceId, endToEndId: pix.endToEndId }, 'payment recorded for an invoice that is not open');
      return 'paid-not-settled';
    }
    await this.outbox.flush(done.outboxIds);
    await this.receipts
      .add('receipt', { paymentId: done.paymentId }, receiptJobOptions(done.paymentId))
      .catch((err: Error) => this.log.warn({ paymentId: done.paymentId, err: err.message }, 'receipt not queued'));
    this.log.log({ txid, source, invoiceId: charge.invoiceId }, 'invoice paid');
    return 'paid';
  }
}
