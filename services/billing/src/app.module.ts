import { BullModule } from '@nestjs/bullmq';
import { Module, type DynamicModule } from '@nestjs/common';
import { AuthLibModule } from '@wa/auth';
import { redisOptionsOf, serviceModules } from '@wa/server-kit';
import { CheckoutService } from './checkout/checkout.service.js';
import { SubscriptionController } from './checkout/subscription.controller.js';
import { CompanyCopyConsumer } from './companies/company-copy.consumer.js';
import { CompanyCopyRepository } from './companies/company-copy.repository.js';
import { BillingEnv } from './config/env.js';
import { billingDatabase } from './database/data-source.js';
import { INVOICES_QUEUE, InvoiceJob, InvoiceSchedule } from './invoices/invoice-jobs.js';
import { InvoicesController } from './invoices/invoices.controller.js';
import { InvoicesRepository } from './invoices/invoices.repository.js';
import { InvoicesService } from './invoices/invoices.service.js';
import { Outbox } from './outbox/outbox.service.js';
import { ChargesRepository } from './payments/charges.repository.js';
import { PollJobProcessor, ReceiptJobProcessor } from './payments/payment-jobs.js';
import { POLLS_QUEUE, RECEIPTS_QUEUE } from './payments/queues.js';
import { PaymentsService } from './payments/payments.service.js';
import { Receipts } from './payments/receipts.js';
import { WebhookRegistration } from './payments/webhook-registration.js';
import { WebhooksController } from './payments/webhooks.controller.js';
import { PlansController } from './plans/plans.controller.js';
import { PlansRepository } from './plans/plans.repository.js';
import { PlansService } from './plans/plans.service.js';
import { pixProviders } from './providers/providers.js';

export const SERVICE = 'billing';

/**
 * Plans (their events keep auth's copy), invoices (a copy of auth's companies makes them), the Pix checkout, and
 * payments confirmed by the provider (webhooks read back, fallback polls), which renew the company through auth.
 */
@Module({})
export class AppModule {
  static register(env: BillingEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceModules({ service: SERVICE, env, database: billingDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE) }),
        AuthLibModule.forRoot({ secret: env.JWT_SECRET }),
        BullModule.forRoot({ connection: { ...redisOptionsOf(env.REDIS_URL), maxRetriesPerRequest: null }, prefix: 'conversa' }),
        BullModule.registerQueue({ name: INVOICES_QUEUE }, { name: POLLS_QUEUE }, { name: RECEIPTS_QUEUE }),
      ],
      controllers: [PlansController, InvoicesController, SubscriptionController, WebhooksController],
      providers: [
        { provide: BillingEnv, useValue: env },
        Outbox,
        PlansService,
        PlansRepository,
        CompanyCopyRepository,
        CompanyCopyConsumer,
        InvoicesRepository,
        InvoicesService,
        InvoiceSchedule,
        InvoiceJob,
        ChargesRepository,
        CheckoutService,
        PaymentsService,
        Receipts,
        PollJobProcessor,
        ReceiptJobProcessor,
        ...pixProviders,
        WebhookRegistration,
      ],
    };
  }
}
