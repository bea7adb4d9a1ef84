import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AccessTokenClaims, SubscriptionCharge } from '@wa/contracts';
import { countJobsOf, DomainError } from '@wa/server-kit';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { BillingEnv } from '../config/env.js';
import { InvoicesRepository } from '../invoices/invoices.repository.js';
import { chargesCreated } from '../metrics.js';
import { ChargesRepository, type ChargeRow } from '../payments/charges.repository.js';
import { POLLS_QUEUE, pollJobs } from '../payments/queues.js';
import { brCodeImage } from '../pix/qr-image.js';
import { PlansRepository } from '../plans/plans.repository.js';
import { PIX_PROVIDER, type PixProvider } from '../providers/pix-provider.js';
import { valorOf } from '../providers/pix-webhook-body.js';
import { chosenPlanId, type SubscriptionDto } from './checkout.dto.js';

/** A charge reused by another checkout must stay payable at least this long. */
const REUSE_MARGIN_S = 300;
const TXID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Our txid (26 to 35 characters [a-zA-Z0-9], Banco Central's rule): 32 random ones. */
export function newTxid(): string {
  const bytes = randomBytes(32);
  return Array.from(bytes, (b) => TXID_ALPHABET[b % TXID_ALPHABET.length]).join('');
}

/**
 * The checkout (spec 02 §2 Checkout, issue 41 §2): the invoice is the caller's company's, the amount is the
 * invoice's or the chosen plan's price (never the body's), and the invoice's payable charge is reused.
 */
@Injectable()
export class CheckoutService {
  private readonly log = new Logger(CheckoutService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly invoices: InvoicesRepository,
    private readonly charges: ChargesRepository,
    private readonly plans: PlansRepository,
    @Inject(PIX_PROVIDER) private readonly provider: PixProvider,
    @InjectQueue(POLLS_QUEUE) private readonly polls: Queue,
    private readonly env: BillingEnv,
  ) {
    countJobsOf(this.polls);
  }

  async subscribe(caller: AccessTokenClaims, dto: SubscriptionDto): Promise<SubscriptionCharge> {
    const chosen = chosenPlanId(dto.plan);
    if (chosen === null) throw invalid('plan', 'plan not found');
    const { charge, created } = await this.db.transaction(async (tx) => {
      // the invoice row is the lock: two checkouts of one invoice at once make one charge
      const invoice = await this.invoices.find(tx, dto.invoiceId, caller.companyId, true);
      if (!invoice) throw new DomainError('ERR_NO_INVOICE_FOUND', { invoiceId: dto.invoiceId });
      if (invoice.status !== 'open') throw new DomainError('ERR_INVOICE_NOT_OPEN', { invoiceId: invoice.id, status: invoice.status });
      let planId = invoice.planId;
      let amountCents = invoice.valueCents;
      if (chosen !== undefined && chosen !== invoice.planId) {
        const plan = await this.plans.find(tx, chosen);
        // a plan not offered (the provider's own, an internal one) is not chosen here
        if (!plan || !plan.isPublic) throw invalid('plan', 'plan not found');
        planId = plan.id;
        amountCents = Math.round(plan.value * 100);
      }
      if (amountCents <= 0) throw new DomainError('ERR_INVOICE_NOTHING_TO_PAY', { invoiceId: invoice.id });
      const reused = await this.charges.reusable(tx, invoice.id, planId, amountCents, REUSE_MARGIN_S);
      if (reused) return { charge: reused, created: false };
      const txid = newTxid();
      const made = await this.provider.createCharge({
        txid,
        amountCents,
        expiresInSeconds: this.env.PIX_CHARGE_TTL_S,
        description: `Fatura ${invoice.id}`,
        payer: { name: [dto.firstName, dto.lastName].filter(Boolean).join(' ').trim() },
      });
      const charge = await this.charges.insert(tx, {
        txid,
        invoiceId: invoice.id,
        companyId: caller.companyId,
        planId,
        amountCents,
        provider: this.provider.name,
        brCode: made.brCode,
        location: made.location,
        expiresAt: made.expiresAt,
        // the payer's details as given (never the card's: the payment is a Pix)
        payer: {
          firstName: dto.firstName,
          lastName: dto.lastName ?? null,
          address: dto.address,
          address2: dto.address2 ?? null,
          city: dto.city,
          state: dto.state ?? null,
          zipcode: dto.zipcode,
          country: dto.country,
          userId: caller.id,
        },
      });
      return { charge, created: true };
    });
    if (created) {
      chargesCreated.inc({ provider: this.provider.name });
      await this.schedulePolls(charge);
    }
    return {
      qrcode: { qrcode: charge.brCode, imagemQrcode: await brCodeImage(charge.brCode) },
      valor: { original: valorOf(charge.amountCents) },
      txid: charge.txid,
      expiresAt: new Date(charge.expiresAt).toISOString(),
      invoiceId: charge.invoiceId,
      planId: charge.planId,
    };
  }

  /** The fallback polls of the charge (BullMQ delayed jobs: they survive a restart). */
  private async schedulePolls(charge: ChargeRow): Promise<void> {
    try {
      await this.polls.addBulk(pollJobs(charge.txid, new Date(charge.expiresAt), this.env.BILLING_POLL_DELAYS_MS));
    } catch (err) {
      // the webhook still pays it, and the daily job reads open charges back
      this.log.warn({ txid: charge.txid, err: (err as Error).message }, 'charge polls not scheduled');
    }
  }
}

function invalid(field: string, message: string): DomainError {
  return new DomainError('ERR_VALIDATION', { details: [{ field, messages: [message] }] }, `${field}: ${message}`);
}
