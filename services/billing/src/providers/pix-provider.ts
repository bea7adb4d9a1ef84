/**
 * The Pix payment service provider behind one interface (issue 41 §4): create a charge, read it back, read a
 * webhook. `sandbox` (the default under `npm start`) keeps its own ledger in `billing.sandbox_charges`; `efi` talks
 * to Efí's API (OAuth client credentials and the client certificate on every call).
 *
 * Nothing is paid on a webhook's word: the webhook only names charges (`txids`), which are then read back with
 * `readCharge` and must be CONCLUIDA for at least the amount.
 */

export const PIX_PROVIDER = Symbol('PIX_PROVIDER');

export type ProviderName = 'sandbox' | 'efi';

export interface CreateChargeInput {
  /** ours, 26 to 35 characters [a-zA-Z0-9]: a retry of the same txid is the same charge (Efí `PUT /v2/cob/{txid}`) */
  txid: string;
  amountCents: number;
  /** seconds the charge stays payable */
  expiresInSeconds: number;
  /** shown to the payer (solicitacaoPagador) */
  description: string;
  payer?: { name: string };
}

export interface CreatedCharge {
  /** the BR Code (Pix copia e cola) */
  brCode: string;
  /** the provider's payload location (dynamic codes), if any */
  location: string | null;
  expiresAt: Date;
}

/** The provider's own statuses (Efí's `cob` statuses; the sandbox uses the same). */
export type ProviderChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

export interface ProviderPix {
  endToEndId: string;
  amountCents: number;
  paidAt: Date;
}

export interface ProviderCharge {
  txid: string;
  status: ProviderChargeStatus;
  amountCents: number;
  /** the Pix received for this charge */
  pix: ProviderPix[];
}

/** A webhook's request as the controller got it (the raw body is what the signature covers). */
export interface WebhookRequest {
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
}

export interface PixProvider {
  readonly name: ProviderName;
  createCharge(input: CreateChargeInput): Promise<CreatedCharge>;
  /** undefined: the provider does not know this txid */
  readCharge(txid: string): Promise<ProviderCharge | undefined>;
  /**
   * Checks the webhook is the provider's (sandbox: `X-Signature: sha256=<HMAC-SHA256 of the raw body>` with
   * BILLING_WEBHOOK_SECRET; efi: the secret in the URL's `hmac` parameter when set, mutual TLS at the ingress)
   * and returns the txids it names. Throws DomainError('ERR_WEBHOOK_SIGNATURE') when it is not.
   */
  readWebhook(req: WebhookRequest): string[];
  /** At start: registers our webhook URL with the provider where it has such a call (efi). */
  registerWebhook?(url: string): Promise<void>;
}

/** Thrown (as DomainError 'ERR_PAYMENT_PROVIDER') when the provider cannot be reached or answers an error. */
