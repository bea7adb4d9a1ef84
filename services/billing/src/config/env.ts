import { InfraEnv, Secret } from '@wa/server-kit';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

export class BillingEnv extends InfraEnv {
  override PORT: number = 3105;

  /** auth: how many companies are on a plan before it is deleted; the companies billing keeps a copy of */
  @IsString()
  AUTH_URL: string = 'http://127.0.0.1:3101';

  /** The Pix provider: `sandbox` (no set-up; its charges are paid with POST /billing/sandbox/charges/{txid}/pay) or `efi`. */
  @IsIn(['sandbox', 'efi'])
  PIX_PROVIDER: 'sandbox' | 'efi' = 'sandbox';

  /** The receiver's Pix key (the sandbox's static BR Code; Efí's `chave`). */
  @IsString()
  @MaxLength(77)
  PIX_KEY: string = 'financeiro@conversa.local';

  /** Name (at most 25) and city (at most 15) of the BR Code, folded to ASCII. */
  @IsString()
  PIX_MERCHANT_NAME: string = 'Conversa Plataforma';

  @IsString()
  PIX_MERCHANT_CITY: string = 'Sao Paulo';

  /** How long a charge stays payable. */
  @IsInt()
  @Min(60)
  @Max(7 * 86_400)
  PIX_CHARGE_TTL_S: number = 3600;

  /** Signs the sandbox's webhook (`X-Signature: sha256=<HMAC-SHA256 of the raw body>`). Required in production. */
  @Secret({ requiredInProduction: true })
  @IsOptional()
  @IsString()
  BILLING_WEBHOOK_SECRET?: string;

  /**
   * Where providers reach billing's webhooks (`<url>/billing/webhooks/<provider>`): for Efí the public HTTPS address
   * of the ingress; empty: this process's own loopback address (the sandbox calls it from here).
   */
  @IsOptional()
  @Matches(/^$|^https?:\/\/.+/)
  BILLING_PUBLIC_URL?: string;

  /** Efí (PIX_PROVIDER=efi): API base, OAuth client credentials, the client certificate (PEM cert + key, or a .p12). */
  @IsString()
  EFI_BASE_URL: string = 'https://pix.api.efipay.com.br';

  @IsOptional() @IsString() EFI_CLIENT_ID?: string;

  @Secret()
  @IsOptional()
  @IsString()
  EFI_CLIENT_SECRET?: string;

  /** PEM certificate, or a PKCS#12 (.p12) file holding certificate and key */
  @IsOptional() @IsString() EFI_CERT_PATH?: string;

  /** PEM private key (empty with a .p12) */
  @IsOptional() @IsString() EFI_KEY_PATH?: string;

  @Secret()
  @IsOptional()
  @IsString()
  EFI_CERT_PASSPHRASE?: string;

  /** Extra CA to trust for the API (tests: the local fake Efí server's) */
  @IsOptional() @IsString() EFI_CA_PATH?: string;

  /**
   * Efí's webhook without mutual TLS at the ingress: this secret travels in the registered URL (`?hmac=`) and a call
   * without it is refused. With mutual TLS at the ingress, leave it empty.
   */
  @Secret()
  @IsOptional()
  @IsString()
  EFI_WEBHOOK_HMAC?: string;

  /** The fallback polls of an unpaid charge, after its creation (and one more at its expiry). */
  @Matches(/^\d+(,\d+)*$/)
  BILLING_POLL_DELAYS_MS: string = '60000,300000';

  /** The next invoice is created this many days before the due date. */
  @IsInt()
  @Min(1)
  @Max(60)
  INVOICE_DAYS_AHEAD: number = 20;

  /** When the daily invoice job runs (cron, UTC). */
  @IsString()
  INVOICE_JOB_CRON: string = '0 6 * * *';

  /** Where receipts go out (npm start runs a local catcher on this port; its inbox: http://127.0.0.1:1080). */
  @Matches(/^smtps?:\/\/.+/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL: string = 'smtp://127.0.0.1:1025';

  @IsString()
  MAIL_FROM: string = 'Conversa <nao-responda@conversa.local>';
}
