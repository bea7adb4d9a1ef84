import { Controller, HttpCode, Inject, Logger, Param, Post, Req } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public, SuperOnly } from '@wa/auth';
import { DomainError } from '@wa/server-kit';
import { BillingEnv } from '../config/env.js';
import { PIX_PROVIDER, type PixProvider, type WebhookRequest } from '../providers/pix-provider.js';
import { SandboxPixProvider } from '../providers/sandbox.provider.js';
import { PaymentsService, type SettleOutcome } from './payments.service.js';

/** The parts of Express's request a webhook needs (the raw body is kept by the JSON parser: server-kit). */
type Request = Pick<WebhookRequest, 'headers'> & { rawBody?: Buffer; query: unknown };

const webhookOf = (req: Request): WebhookRequest => ({
  rawBody: req.rawBody ?? Buffer.alloc(0),
  headers: req.headers,
  query: req.query as Record<string, unknown>,
});

/**
 * The providers' calls (issue 41 §5). A webhook only names charges: each is read back from the provider before
 * anything is paid. The sandbox's is signed (`X-Signature`), Efí's carries the secret in its URL or comes through
 * mutual TLS at the ingress.
 */
@ApiTags('billing')
@Controller('billing')
export class WebhooksController {
  private readonly log = new Logger(WebhooksController.name);

  constructor(
    private readonly payments: PaymentsService,
    @Inject(PIX_PROVIDER) private readonly provider: PixProvider,
    private readonly sandbox: SandboxPixProvider,
    private readonly env: BillingEnv,
  ) {}

  @Public()
  @Post('webhooks/sandbox')
  @HttpCode(200)
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: the sandbox is not the configured provider' })
  @ApiResponse({
    status: 200,
    description:
      'what was done with each charge: { received: { <txid>: paid | paid-not-settled | already-recorded | pending | short | expired | unknown } }',
  })
  @ApiResponse({ status: 401, description: 'ERR_WEBHOOK_SIGNATURE: missing or wrong X-Signature' })
  sandboxWebhook(@Req() req: Request): Promise<{ received: Record<string, SettleOutcome> }> {
    this.requireProvider('sandbox');
    return this.settleAll(this.sandbox.readWebhook(webhookOf(req)), 'sandbox-webhook');
  }

  /** Efí calls the registered URL with `/pix` appended; both are accepted. */
  @Public()
  @Post(['webhooks/efi', 'webhooks/efi/pix'])
  @HttpCode(200)
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: Efí is not the configured provider' })
  @ApiResponse({
    status: 200,
    description:
      'what was done with each charge: { received: { <txid>: paid | paid-not-settled | already-recorded | pending | short | expired | unknown } }',
  })
  @ApiResponse({ status: 401, description: 'ERR_WEBHOOK_SIGNATURE: the URL’s secret is missing or wrong' })
  efiWebhook(@Req() req: Request): Promise<{ received: Record<string, SettleOutcome> }> {
    this.requireProvider('efi');
    return this.settleAll(this.provider.readWebhook(webhookOf(req)), 'efi-webhook');
  }

  /** The sandbox payer (super users, sandbox provider only): pays the charge; the sandbox then calls our webhook. */
  @SuperOnly()
  @Post('sandbox/charges/:txid/pay')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: 'the sandbox charge paid and its webhook delivered: { endToEndId, webhookStatus }' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: super users only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no sandbox charge has this txid' })
  @ApiResponse({ status: 409, description: 'ERR_SANDBOX_PROVIDER_ONLY: another provider is configured' })
  async sandboxPay(@Param('txid') txid: string): Promise<{ endToEndId: string; webhookStatus: number }> {
    if (this.env.PIX_PROVIDER !== 'sandbox') throw new DomainError('ERR_SANDBOX_PROVIDER_ONLY');
    return this.sandbox.pay(txid);
  }

  private requireProvider(name: 'sandbox' | 'efi'): void {
    if (this.env.PIX_PROVIDER !== name) throw new DomainError('ERR_NOT_FOUND');
  }

  private async settleAll(txids: string[], source: string): Promise<{ received: Record<string, SettleOutcome> }> {
    const received: Record<string, SettleOutcome> = {};
    for (const txid of [...new Set(txids)]) received[txid] = await this.payments.settle(txid, source);
    if (txids.length > 0) this.log.log({ source, received }, 'webhook');
    return { received };
  }
}
