import { readFileSync } from 'node:fs';
import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { DomainError } from '@wa/server-kit';
import { Agent, request } from 'undici';
import type { BillingEnv } from '../config/env.js';
import type {
  CreateChargeInput,
  CreatedCharge,
  PixProvider,
  ProviderChargeStatus,
  ProviderCharge,
  WebhookRequest,
} from './pix-provider.js';
import { centsOf, sameSecret, txidsOf, valorOf, webhookPixOf } from './pix-webhook-body.js';

const CONNECT_TIMEOUT_MS = 10_000;
const ANSWER_TIMEOUT_MS = 20_000;
/** A token is renewed this long before Efí says it expires (clocks drift, a call takes time). */
const TOKEN_MARGIN_MS = 60_000;
/** Efí's limit for `solicitacaoPagador`. */
const PAYER_REQUEST_MAX = 140;

const STATUSES: readonly ProviderChargeStatus[] = ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'];

type EfiEnv = Pick<
  BillingEnv,
  | 'EFI_BASE_URL'
  | 'EFI_CLIENT_ID'
  | 'EFI_CLIENT_SECRET'
  | 'EFI_CERT_PATH'
  | 'EFI_KEY_PATH'
  | 'EFI_CERT_PASSPHRASE'
  | 'EFI_CA_PATH'
  | 'EFI_WEBHOOK_HMAC'
  | 'PIX_KEY'
>;

/** An Efí `cob` as its API answers it (the fields read here). */
interface EfiCob {
  txid?: string;
  status?: string;
  calendario?: { criacao?: string; expiracao?: number };
  valor?: { original?: string };
  loc?: { id?: number; location?: string };
  location?: string;
  pixCopiaECola?: string;
  pix?: Array<{ endToEndId?: string; valor?: string; horario?: string }>;
}

interface Answer {
  status: number;
  body: unknown;
}

/**
 * The TLS options of the client certificate Efí requires on every call: a PEM certificate and key (the key from
 * EFI_KEY_PATH, or from the certificate's own file when it holds both), or a PKCS#12 file (.p12/.pfx) with its
 * passphrase; plus EFI_CA_PATH, a CA to trust for the API, when set.
 */
export function efiTlsOptions(env: EfiEnv): { cert?: Buffer; key?: Buffer; pfx?: Buffer; passphrase?: string; ca?: Buffer } {
  const out: { cert?: Buffer; key?: Buffer; pfx?: Buffer; passphrase?: string; ca?: Buffer } = {};
  if (env.EFI_CERT_PATH) {
    const file = readFileSync(env.EFI_CERT_PATH);
    if (/\.(p12|pfx)$/i.test(env.EFI_CERT_PATH)) {
      out.pfx = file;
      if (env.EFI_CERT_PASSPHRASE !== undefined) out.passphrase = env.EFI_CERT_PASSPHRASE;
    } else {
      out.cert = file;
      out.key = env.EFI_KEY_PATH ? readFileSync(env.EFI_KEY_PATH) : file;
      if (env.EFI_CERT_PASSPHRASE) out.passphrase = env.EFI_CERT_PASSPHRASE;
    }
  }
  if (env.EFI_CA_PATH) out.ca = readFileSync(env.EFI_CA_PATH);
  return out;
}

/**
 * The `efi` Pix provider (Efí, formerly Gerencianet): its Pix API over mutual TLS (our client certificate on every
 * call), OAuth client credentials (a token kept until shortly before it expires, renewed once when a call answers
 * 401), charges created with our own txid (`PUT /v2/cob/{txid}`: a retry is the same charge), read back with
 * `GET /v2/cob/{txid}`. A network failure or an error answer is ERR_PAYMENT_PROVIDER; logs carry the call and its
 * status, never a secret or a token.
 */
export class EfiPixProvider implements PixProvider, OnModuleDestroy {
  readonly name = 'efi' as const;
  private readonly log = new Logger(EfiPixProvider.name);
  private readonly agent: Agent;
  private readonly base: string;
  private token: { value: string; until: number } | undefined;
  private tokenRequest: Promise<string> | undefined;

  constructor(private readonly env: EfiEnv) {
    if (!env.EFI_CLIENT_ID || !env.EFI_CLIENT_SECRET) throw new Error('PIX_PROVIDER=efi needs EFI_CLIENT_ID and EFI_CLIENT_SECRET');
    if (!env.EFI_CERT_PATH) this.log.warn('EFI_CERT_PATH is not set: Efí refuses calls without the client certificate');
    this.base = env.EFI_BASE_URL.replace(/\/+$/, '');
    this.agent = new Agent({
      connect: { ...efiTlsOptions(env), timeout: CONNECT_TIMEOUT_MS },
      headersTimeout: ANSWER_TIMEOUT_MS,
      bodyTimeout: ANSWER_TIMEOUT_MS,
    });
  }

  async createCharge(input: CreateChargeInput): Promise<CreatedCharge> {
    const path = `/v2/cob/${encodeURIComponent(input.txid)}`;
    const put = await this.call('PUT', path, {
      calendario: { expiracao: input.expiresInSeconds },
      valor: { original: valorOf(input.amountCents) },
      chave: this.env.PIX_KEY,
      solicitacaoPagador: input.description.slice(0, PAYER_REQUEST_MAX),
    });
    let cob: EfiCob;
    if (put.status === 200 || put.status === 201) cob = put.body as EfiCob;
    else if (put.status >= 400 && put.status < 500) {
      // a retry of a txid Efí already has (the first answer was lost): that charge, if it is this one
      const existing = await this.readCob(input.txid);
      if (!existing || existing.valor?.original !== valorOf(input.amountCents)) throw this.failure('PUT /v2/cob', put);
      cob = existing;
    } else throw this.failure('PUT /v2/cob', put);

    const brCode = cob.pixCopiaECola ?? (await this.qrCodeOf(cob));
    const created = cob.calendario?.criacao ? Date.parse(cob.calendario.criacao) : Date.now();
    const seconds = cob.calendario?.expiracao ?? input.expiresInSeconds;
    return {
      brCode,
      location: cob.loc?.location ?? cob.location ?? null,
      expiresAt: new Date((Number.isNaN(created) ? Date.now() : created) + seconds * 1000),
    };
  }

  async readCharge(txid: string): Promise<ProviderCharge | undefined> {
    const cob = await this.readCob(txid);
    if (!cob) return undefined;
    const status = STATUSES.find((s) => s === cob.status);
    const original = cob.valor?.original;
    if (!status || !original || !/^\d+\.\d{2}$/.test(original)) {
      this.log.warn(`efi GET /v2/cob answered a charge of an unknown shape (status ${String(cob.status)})`);
      throw new DomainError('ERR_PAYMENT_PROVIDER');
    }
    return {
      txid: cob.txid ?? txid,
      status,
      amountCents: centsOf(original),
      pix: (cob.pix ?? []).flatMap((p) =>
        p.endToEndId && p.valor && /^\d+\.\d{2}$/.test(p.valor) && p.horario && !Number.isNaN(Date.parse(p.horario))
          ? [{ endToEndId: p.endToEndId, amountCents: centsOf(p.valor), paidAt: new Date(p.horario) }]
          : [],
      ),
    };
  }

  /**
   * Efí's webhook: with EFI_WEBHOOK_HMAC set, the `hmac` query parameter must carry it (the registered URL has it;
   * without the secret, mutual TLS at the ingress is what keeps others out). Efí's test call at registration has no
   * `pix`: no txids.
   */
  readWebhook(req: WebhookRequest): string[] {
    const secret = this.env.EFI_WEBHOOK_HMAC;
    if (secret) {
      const given = req.query.hmac;
      if (typeof given !== 'string' || !sameSecret(given, secret)) {
        this.log.warn('efi webhook refused: missing or wrong hmac');
        throw new DomainError('ERR_WEBHOOK_SIGNATURE');
      }
    }
    const pix = webhookPixOf(req.rawBody, false);
    return pix ? txidsOf(pix) : [];
  }

  /**
   * Registers our webhook for PIX_KEY (`PUT /v2/webhook/{chave}`). Efí calls the URL with `/pix` appended: the
   * `ignorar=` parameter at its end takes that in, so the path stays ours. With EFI_WEBHOOK_HMAC, the secret
   * travels in the URL (`hmac=`) and Efí is told not to check for mutual TLS at our ingress.
   */
  async registerWebhook(url: string): Promise<void> {
    const secret = this.env.EFI_WEBHOOK_HMAC;
    const params = secret ? `hmac=${encodeURIComponent(secret)}&ignorar=` : 'ignorar=';
    const webhookUrl = `${url}${url.includes('?') ? '&' : '?'}${params}`;
    const res = await this.call(
      'PUT',
      `/v2/webhook/${encodeURIComponent(this.env.PIX_KEY)}`,
      { webhookUrl },
      secret ? { 'x-skip-mtls-checking': 'true' } : {},
    );
    if (res.status !== 200 && res.status !== 201) throw this.failure('PUT /v2/webhook', res);
    this.log.log(`efi webhook registered for ${new URL(url).origin}`);
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close();
  }

  private async readCob(txid: string): Promise<EfiCob | undefined> {
    const res = await this.call('GET', `/v2/cob/${encodeURIComponent(txid)}`);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw this.failure('GET /v2/cob', res);
    return res.body as EfiCob;
  }

  /** A charge answered without its BR Code: the code of its location. */
  private async qrCodeOf(cob: EfiCob): Promise<string> {
    if (cob.loc?.id === undefined) throw this.failure('PUT /v2/cob', { status: 200, body: { nome: 'sem pixCopiaECola nem loc.id' } });
    const res = await this.call('GET', `/v2/loc/${cob.loc.id}/qrcode`);
    const qrcode = (res.body as { qrcode?: unknown } | undefined)?.qrcode;
    if (res.status !== 200 || typeof qrcode !== 'string') throw this.failure('GET /v2/loc/qrcode', res);
    return qrcode;
  }

  /** An API call with the bearer token; a 401 renews the token and tries once more. */
  private async call(method: 'GET' | 'PUT', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    let res = await this.send(method, path, body, { ...headers, authorization: `Bearer ${await this.accessToken()}` });
    if (res.status === 401) {
      this.token = undefined;
      res = await this.send(method, path, body, { ...headers, authorization: `Bearer ${await this.accessToken()}` });
    }
    if (res.status === 401 || res.status >= 500) throw this.failure(`${method} ${path.split('/').slice(0, 3).join('/')}`, res);
    return res;
  }

  /** The OAuth token, asked once at a time and kept until shortly before it expires. */
  private async accessToken(): Promise<string> {
    if (this.token && Date.now() < this.token.until) return this.token.value;
    this.tokenRequest ??= this.askToken().finally(() => (this.tokenRequest = undefined));
    return this.tokenRequest;
  }

  private async askToken(): Promise<string> {
    const basic = Buffer.from(`${this.env.EFI_CLIENT_ID}:${this.env.EFI_CLIENT_SECRET}`).toString('base64');
    const res = await this.send('POST', '/oauth/token', { grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    const answer = res.body as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (res.status !== 200 || typeof answer?.access_token !== 'string') throw this.failure('POST /oauth/token', res);
    const seconds = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 3600;
    this.token = { value: answer.access_token, until: Date.now() + Math.max(seconds * 1000 - TOKEN_MARGIN_MS, (seconds * 1000) / 2) };
    return answer.access_token;
  }

  private async send(method: 'GET' | 'PUT' | 'POST', path: string, body: unknown, headers: Record<string, string>): Promise<Answer> {
    try {
      const res = await request(`${this.base}${path}`, {
        method,
        dispatcher: this.agent,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.statusCode, body: parsed };
    } catch (err) {
      const code = (err as { code?: string }).code ?? (err as Error).name;
      this.log.warn(`efi ${method} ${path.split('/').slice(0, 3).join('/')} failed: ${code}`);
      throw new DomainError('ERR_PAYMENT_PROVIDER');
    }
  }

  /** Logs an error answer (status and Efí's error name, no secrets) and makes it ERR_PAYMENT_PROVIDER. */
  private failure(call: string, res: Answer): DomainError {
    const name =
      (res.body as { nome?: unknown; title?: unknown } | undefined)?.nome ?? (res.body as { title?: unknown } | undefined)?.title;
    this.log.warn(`efi ${call} answered ${res.status}${typeof name === 'string' ? ` (${name})` : ''}`);
    return new DomainError('ERR_PAYMENT_PROVIDER');
  }
}
