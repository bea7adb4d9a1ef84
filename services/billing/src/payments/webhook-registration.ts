import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { BillingEnv } from '../config/env.js';
import { PIX_PROVIDER, type PixProvider } from '../providers/pix-provider.js';

/**
 * At start, with a provider that has the call (Efí): our webhook URL registered for PIX_KEY
 * (`<BILLING_PUBLIC_URL>/billing/webhooks/efi`). A failure is logged, not fatal: the fallback polls still pay.
 */
@Injectable()
export class WebhookRegistration implements OnApplicationBootstrap {
  private readonly log = new Logger(WebhookRegistration.name);

  constructor(
    @Inject(PIX_PROVIDER) private readonly provider: PixProvider,
    private readonly env: BillingEnv,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.provider.registerWebhook) return;
    if (!this.env.BILLING_PUBLIC_URL) {
      this.log.warn('BILLING_PUBLIC_URL is not set: the provider’s webhook is not registered (payments arrive by the polls only)');
      return;
    }
    const url = `${this.env.BILLING_PUBLIC_URL.replace(/\/+$/, '')}/billing/webhooks/${this.provider.name}`;
    try {
      await this.provider.registerWebhook(url);
      this.log.log({ provider: this.provider.name, url: url.replace(/\?.*$/, '') }, 'webhook registered');
    } catch (err) {
      this.log.error({ provider: this.provider.name, err: (err as Error).message }, 'webhook not registered');
    }
  }
}
