import { createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Injectable, Logger, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { encodeBrCode } from '@wa/domain';
import { DomainError } from '@wa/server-kit';
import { DataSource } from 'typeorm';
import { request } from 'undici';
import { BillingEnv } from '../config/env.js';
import type { CreateChargeInput, CreatedCharge, PixProvider, ProviderCharge, WebhookRequest } from './pix-provider.js';
import { sameSecret, txidsOf, valorOf, webhookPixOf } from './pix-webhook-body.js';
import { findSandboxCharge, insertOrGetSandboxCharge, paySandboxCharge, type SandboxChargeRow } from './sandbox-ledger.queries.js';

/** The header the sandbox signs its webhook with: `sha256=<hex HMAC-SHA256 of the raw body>`. */
export const SIGNATURE_HEADER = 'x-signature';

/** Where billing takes the sandbox's webhook, under its base address. */
export const SANDBOX_WEBHOOK_PATH = '/billing/webhooks/sandbox';

const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * The secret of the sandbox's webhook: BILLING_WEBHOOK_SECRET, or when unset (development, tests) one derived from
 * JWT_SECRET, so that `npm start` needs no set-up and the secret is still not guessable.
 */
export function webhookSecretOf(env: Pick<BillingEnv, 'BILLING_WEBHOOK_SECRET' | 'JWT_SECRET'>): string {
  return env.BILLING_WEBHOOK_SECRET || createHmac('sha256', env.JWT_SECRET).update('billing-webhook').digest('hex');
}

/** The `X-Signature` value of a body: `sha256=<hex HMAC-SHA256>`. */
export function webhookSignature(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An end-to-end id shaped like the real ones: `E` and 31 letters or digits. */
export function sandboxEndToEndId(): string {
  return `E${Array.from(randomBytes(31), (b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('')}`;
}

/**
 * The txid as a static BR Code may carry it (62/05 holds at most 25 characters, while our txids, made for Efí's
 * `PUT /v2/cob/{txid}`, have 26 to 35): the txid itself when it fits, else its last 25 characters.
 */
export function sandboxReference(txid: string): string {
  return txid.length <= 25 ? txid : txid.slice(-25);
}

export interface SandboxPayment {
  endToEndId: string;
  /** the status billing answered the webhook with; 0 when it could not be reached (the fallback poll pays then) */
  webhookStatus: number;
}

/**
 * The `sandbox` Pix provider (PIX_PROVIDER=sandbox, the default under `npm start`): a PSP of its own with its ledger
 * in `billing.sandbox_charges`. Its charges are static BR Codes of PIX_KEY with the amount and the txid; `pay` is
 * its payer (POST /billing/sandbox/charges/{txid}/pay), which calls billing's webhook signed exactly as a provider
 * would, and nothing else: billing then reads the charge back like any provider's.
 */
@Injectable()
export class SandboxPixProvider implements PixProvider {
  readonly name = 'sandbox' as const;
  private readonly log = new Logger(SandboxPixProvider.name);
  private readonly secret: string;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly env: BillingEnv,
    @Optional() private readonly http?: HttpAdapterHost,
  ) {
    this.secret = webhookSecretOf(env);
  }

  async createCharge(input: CreateChargeInput): Promise<CreatedCharge> {
    const brCode = encodeBrCode({
      key: this.env.PIX_KEY,
      amountCents: input.amountCents,
      merchantName: this.env.PIX_MERCHANT_NAME,
      merchantCity: this.env.PIX_MERCHANT_CITY,
      txid: sandboxReference(input.txid),
    });
    const row = await insertOrGetSandboxCharge(this.db, {
      txid: input.txid,
      amountCents: input.amountCents,
      brCode,
      expiresAt: new Date(Date.now() + input.expiresInSeconds * 1000),
    });
    return { brCode: row.brCode, location: null, expiresAt: new Date(row.expiresAt) };
  }

  async readCharge(txid: string): Promise<ProviderCharge | undefined> {
    const row = await findSandboxCharge(this.db, txid);
    return row && chargeOf(row);
  }

  readWebhook(req: WebhookRequest): string[] {
    const header = req.headers[SIGNATURE_HEADER];
    const given = typeof header === 'string' ? header.trim().toLowerCase() : '';
    if (!/^sha256=[0-9a-f]{64}$/.test(given) || !sameSecret(given, webhookSignature(this.secret, req.rawBody))) {
      this.log.warn('sandbox webhook refused: missing or wrong signature');
      throw new DomainError('ERR_WEBHOOK_SIGNATURE');
    }
    const pix = webhookPixOf(req.rawBody, true);
    if (!pix || pix.length === 0)
      throw new DomainError(
        'ERR_VALIDATION',
        { details: [{ field: 'pix', messages: ['pix is missing or empty'] }] },
        'pix: pix is missing or empty',
      );
    return txidsOf(pix);
  }

  /**
   * Pays a charge as a payer's bank would: the ledger row becomes CONCLUIDA with a new end-to-end id and the amount
   * (default: the charge's), then billing's webhook is called, signed. Refuses an unknown charge (ERR_NOT_FOUND), and
   * one already paid or expired (ERR_VALIDATION).
   */
  async pay(txid: string, amountCents?: number): Promise<SandboxPayment> {
    if (amountCents !== undefined && (!Number.isSafeInteger(amountCents) || amountCents <= 0))
      throw refusal('amountCents', 'amountCents must be a positive whole number of cents');
    const paid = await paySandboxCharge(this.db, txid, sandboxEndToEndId(), amountCents ?? null);
    if (!paid) {
      const row = await findSandboxCharge(this.db, txid);
      if (!row) throw new DomainError('ERR_NOT_FOUND', { txid }, `No sandbox charge has txid ${txid}.`);
      if (row.status === 'CONCLUIDA') throw refusal('txid', `The charge ${txid} is already paid.`);
      throw refusal('txid', `The charge ${txid} expired at ${new Date(row.expiresAt).toISOString()} and can no longer be paid.`);
    }
    const endToEndId = paid.endToEndId as string;
    const body = JSON.stringify({
      pix: [{ endToEndId, txid, valor: valorOf(paid.paidCents as number), horario: new Date(paid.paidAt as Date).toISOString() }],
    });
    return { endToEndId, webhookStatus: await this.deliver(body) };
  }

  /** POSTs the signed webhook to billing; answers its status, or 0 when billing could not be reached. */
  private async deliver(body: string): Promise<number> {
    const url = `${this.baseUrl()}${SANDBOX_WEBHOOK_PATH}`;
    try {
      const res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: webhookSignature(this.secret, body) },
        body,
        headersTimeout: WEBHOOK_TIMEOUT_MS,
        bodyTimeout: WEBHOOK_TIMEOUT_MS,
      });
      await res.body.dump();
      if (res.statusCode >= 300) this.log.warn(`sandbox webhook answered ${res.statusCode}`);
      return res.statusCode;
    } catch (err) {
      this.log.warn(`sandbox webhook not delivered: ${(err as { code?: string }).code ?? (err as Error).message}`);
      return 0;
    }
  }

  /** BILLING_PUBLIC_URL, else this process's own address (the port it listens on, even when PORT is 0). */
  private baseUrl(): string {
    if (this.env.BILLING_PUBLIC_URL) return this.env.BILLING_PUBLIC_URL.replace(/\/+$/, '');
    const address = this.http?.httpAdapter?.getHttpServer?.()?.address?.() as AddressInfo | string | null | undefined;
    const port = address && typeof address === 'object' ? address.port : this.env.PORT;
    return `http://127.0.0.1:${port}`;
  }
}

function refusal(field: string, message: string): DomainError {
  return new DomainError('ERR_VALIDATION', { details: [{ field, messages: [message] }] }, message);
}

function chargeOf(row: SandboxChargeRow): ProviderCharge {
  const paid = row.status === 'CONCLUIDA';
  const expired = !paid && new Date(row.expiresAt).getTime() <= Date.now();
  return {
    txid: row.txid,
    status: paid ? 'CONCLUIDA' : expired ? 'REMOVIDA_PELO_PSP' : 'ATIVA',
    amountCents: row.amountCents,
    pix:
      paid && row.endToEndId && row.paidCents !== null && row.paidAt
        ? [{ endToEndId: row.endToEndId, amountCents: row.paidCents, paidAt: new Date(row.paidAt) }]
        : [],
  };
}
