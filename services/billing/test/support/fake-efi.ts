import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { encodeBrCode } from '@wa/domain';
import type { TestCerts } from './test-certs.js';

/** A call that reached the fake's handler (the TLS handshake, client certificate included, went through). */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** the CN of the client certificate the caller presented */
  clientCn: string | undefined;
}

export interface FakeCob {
  txid: string;
  status: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
  calendario: { criacao: string; expiracao: number };
  revisao: number;
  loc: { id: number; location: string; tipoCob: 'cob' };
  location: string;
  valor: { original: string };
  chave: string;
  solicitacaoPagador?: string;
  pixCopiaECola?: string;
  pix?: Array<{ endToEndId: string; txid: string; valor: string; horario: string }>;
}

export interface FakeEfiOptions {
  clientId: string;
  clientSecret: string;
  /** the receiver's key the charges must name */
  pixKey: string;
  /** seconds a token lives (expires_in) */
  tokenSeconds?: number;
}

/**
 * A local stand-in for Efí's Pix API, over HTTPS with mutual TLS like the real one: `requestCert` and
 * `rejectUnauthorized`, trusting only the test CA, so a caller without a client certificate it signed never reaches
 * the handler. It answers the calls the provider makes: `POST /oauth/token` (HTTP Basic client credentials), `PUT`
 * and `GET /v2/cob/{txid}`, `GET /v2/loc/{id}/qrcode`, `PUT /v2/webhook/{chave}`; every other call needs a bearer
 * token it issued.
 */
export class FakeEfi {
  readonly requests: SeenRequest[] = [];
  readonly charges = new Map<string, FakeCob>();
  readonly webhooks = new Map<string, { webhookUrl: string; skipMtls: string | undefined }>();
  /** tokens issued, in order */
  readonly tokens: string[] = [];
  /** answer every API call (not the token) with this status, while set */
  failWith: number | undefined;
  /** leave `pixCopiaECola` out of the charges' answers (the provider then reads the location's code) */
  omitCopiaECola = false;
  private valid = new Set<string>();
  private nextLoc = 1;
  private server!: Server;

  constructor(
    private readonly certs: TestCerts,
    private readonly opts: FakeEfiOptions,
  ) {}

  get baseUrl(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** API calls (not the token's) that reached the handler */
  apiCalls(method?: string, prefix = '/v2/'): SeenRequest[] {
    return this.requests.filter((r) => r.path.startsWith(prefix) && (!method || r.method === method));
  }

  async start(): Promise<this> {
    this.server = createServer(
      {
        key: this.certs.read(this.certs.server.key),
        cert: this.certs.read(this.certs.server.cert),
        ca: this.certs.read(this.certs.ca.cert),
        requestCert: true,
        rejectUnauthorized: true,
      },
      (req, res) => void this.handle(req, res),
    );
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Every token it issued stops being accepted (as when Efí's token expired early). */
  revokeTokens(): void {
    this.valid.clear();
  }

  /** A payer paid the charge: CONCLUIDA with a Pix of `cents`. */
  pay(txid: string, cents: number, at = new Date()): { endToEndId: string } {
    const cob = this.charges.get(txid);
    if (!cob) throw new Error(`no charge ${txid}`);
    const endToEndId = `E${randomBytes(16).toString('hex').slice(0, 31)}`;
    cob.status = 'CONCLUIDA';
    cob.pix = [...(cob.pix ?? []), { endToEndId, txid, valor: (cents / 100).toFixed(2), horario: at.toISOString() }];
    return { endToEndId };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'https://fake-efi.local');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    this.requests.push({
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      clientCn: peer?.subject?.CN as string | undefined,
    });
    const send = (status: number, answer: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    };

    if (req.method === 'POST' && url.pathname === '/oauth/token') {
      const expected = `Basic ${Buffer.from(`${this.opts.clientId}:${this.opts.clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected)
        return send(401, { error: 'invalid_client', error_description: 'Invalid or inactive credentials' });
      if ((body as { grant_type?: string } | undefined)?.grant_type !== 'client_credentials')
        return send(400, { error: 'unsupported_grant_type' });
      const token = randomBytes(24).toString('hex');
      this.tokens.push(token);
      this.valid.add(token);
      return send(200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: this.opts.tokenSeconds ?? 3600,
        scope: 'cob.read cob.write webhook.write',
      });
    }

    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !this.valid.has(bearer)) return send(401, { nome: 'nao_autorizado', mensagem: 'token ausente ou inválido' });
    if (this.failWith) return send(this.failWith, { nome: 'erro_aplicacao', mensagem: 'falha simulada' });

    const cob = /^\/v2\/cob\/([^/]+)$/.exec(url.pathname);
    if (cob && req.method === 'PUT') return this.putCob(decodeURIComponent(cob[1] as string), body, send);
    if (cob && req.method === 'GET') {
      const found = this.charges.get(decodeURIComponent(cob[1] as string));
      return found
        ? send(200, this.answer(found))
        : send(404, { nome: 'cobranca_nao_encontrada', mensagem: 'Nenhuma cobrança encontrada para o txid informado' });
    }
    const loc = /^\/v2\/loc\/(\d+)\/qrcode$/.exec(url.pathname);
    if (loc && req.method === 'GET') {
      const found = [...this.charges.values()].find((c) => c.loc.id === Number(loc[1]));
      return found
        ? send(200, { qrcode: found.pixCopiaECola, imagemQrcode: 'data:image/png;base64,', linkVisualizacao: '' })
        : send(404, { nome: 'location_nao_encontrada' });
    }
    const hook = /^\/v2\/webhook\/([^/]+)$/.exec(url.pathname);
    if (hook && req.method === 'PUT') {
      const webhookUrl = (body as { webhookUrl?: unknown } | undefined)?.webhookUrl;
      if (typeof webhookUrl !== 'string' || !webhookUrl.startsWith('https://'))
        return send(400, { nome: 'json_invalido', mensagem: 'webhookUrl inválida' });
      const chave = decodeURIComponent(hook[1] as string);
      this.webhooks.set(chave, { webhookUrl, skipMtls: req.headers['x-skip-mtls-checking'] as string | undefined });
      return send(200, { webhookUrl, chave, criacao: new Date().toISOString() });
    }
    return send(404, { nome: 'rota_nao_encontrada' });
  }

  private putCob(txid: string, body: unknown, send: (status: number, answer: unknown) => void): void {
    const b = body as
      { calendario?: { expiracao?: unknown }; valor?: { original?: unknown }; chave?: unknown; solicitacaoPagador?: unknown } | undefined;
    if (!/^[a-zA-Z0-9]{26,35}$/.test(txid)) return send(400, { nome: 'valor_invalido', mensagem: 'txid inválido' });
    if (typeof b?.calendario?.expiracao !== 'number' || typeof b.valor?.original !== 'string' || !/^\d+\.\d{2}$/.test(b.valor.original))
      return send(400, { nome: 'json_invalido', mensagem: 'calendario.expiracao ou valor.original inválido' });
    if (b.chave !== this.opts.pixKey) return send(400, { nome: 'chave_invalida', mensagem: 'chave não pertence à conta' });
    // the fake refuses a second charge with a txid it has (a strict PSP): one charge per txid
    if (this.charges.has(txid)) return send(400, { nome: 'txid_duplicado', mensagem: 'txid já utilizado em outra cobrança' });
    const id = this.nextLoc++;
    const location = `pix.fake-efi.local/qr/v2/${randomUUID().replaceAll('-', '')}`;
    const original = b.valor.original;
    const created: FakeCob = {
      txid,
      status: 'ATIVA',
      calendario: { criacao: new Date().toISOString(), expiracao: b.calendario.expiracao },
      revisao: 0,
      loc: { id, location, tipoCob: 'cob' },
      location,
      valor: { original },
      chave: this.opts.pixKey,
      ...(typeof b.solicitacaoPagador === 'string' ? { solicitacaoPagador: b.solicitacaoPagador } : {}),
      pixCopiaECola: encodeBrCode({
        url: location,
        amountCents: Math.round(Number(original) * 100),
        merchantName: 'CONVERSA PLATAFORMA',
        merchantCity: 'OURO PRETO',
        pointOfInitiation: '12',
      }),
    };
    this.charges.set(txid, created);
    send(201, this.answer(created));
  }

  private answer(cob: FakeCob): FakeCob {
    if (!this.omitCopiaECola) return cob;
    const { pixCopiaECola: _omitted, ...rest } = cob;
    return rest;
  }
}
