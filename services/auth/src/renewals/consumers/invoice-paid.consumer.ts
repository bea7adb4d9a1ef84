import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Streams, type InvoicePaidEvent } from '@wa/contracts';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { RenewalsService } from '../renewals.service.js';

export const INVOICES_PAID_DURABLE = 'auth-invoices-paid';
/** billing's `billing.invoice.paid.<companyId>` */
export const INVOICES_PAID_FILTER = 'billing.invoice.paid.>';

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** The event when it is one: ids, a due date, and the subject's company the payload's. */
export function invoicePaid(msg: Pick<BusMessage<unknown>, 'subject' | 'data'>): InvoicePaidEvent | null {
  const e = msg.data as Partial<InvoicePaidEvent> | null | undefined;
  if (!e || !isId(e.invoiceId) || !isId(e.companyId) || !isId(e.planId)) return null;
  if (msg.subject.split('.')[3] !== String(e.companyId)) return null;
  return e as InvoicePaidEvent;
}

/**
 * Renews a company when billing settles one of its invoices (`billing.invoice.paid`), once per invoice. From the
 * stream's start the first time: an invoice paid while auth was down is applied when it comes back.
 */
@Injectable()
export class InvoicePaidConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(InvoicePaidConsumer.name);
  private handle: ConsumerHandle | undefined;

  constructor(
    private readonly bus: EventBus,
    private readonly renewals: RenewalsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<unknown>({
      stream: Streams.BILLING.name,
      durable: INVOICES_PAID_DURABLE,
      filterSubjects: [INVOICES_PAID_FILTER],
      handler: async (batch) => {
        for (const msg of batch) {
          const event = invoicePaid(msg);
          if (!event) {
            this.log.warn({ subject: msg.subject, seq: msg.streamSeq }, 'not an invoice paid: nothing renewed');
            continue;
          }
          await this.renewals.apply(event);
        }
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }
}
