import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { decodeBrCode } from '@wa/domain';
import { EfiPixProvider } from '../../src/providers/efi.provider.js';
import type { WebhookRequest } from '../../src/providers/pix-provider.js';
import { FakeEfi } from '../support/fake-efi.js';
import { makeTestCerts, type TestCerts } from '../support/test-certs.js';

const CLIENT_ID = 'Client_Id_conversa';
const CLIENT_SECRET = `Client_Secret_${randomBytes(8).toString('hex')}`;
const PIX_KEY = 'efipay@conversa.local';

let certs: TestCerts;
let efi: FakeEfi;
const providers: EfiPixProvider[] = [];

/** Our txids: 32 letters and digits (Efí wants 26 to 35). */
const newTxid = () => randomBytes(16).toString('hex');

const charge = (txid: string, amountCents = 4990) => ({
  txid,
  amountCents,
  expiresInSeconds: 3600,
  description: 'Fatura #12 — Plano Básico',
});

/** A provider for the fake, with the test CA trusted; `tls` picks the client certificate (PEM by default). */
function provider(overrides: Record<string, string | undefined> = {}): EfiPixProvider {
  const p = new EfiPixProvider({
    EFI_BASE_URL: efi.baseUrl,
    EFI_CLIENT_ID: CLIENT_ID,
    EFI_CLIENT_SECRET: CLIENT_SECRET,
    EFI_CERT_PATH: certs.client.cert,
    EFI_KEY_PATH: certs.client.key,
    EFI_CA_PATH: certs.ca.cert,
    PIX_KEY,
    ...overrides,
  });
  providers.push(p);
  return p;
}

const webhook = (body: unknown, query: Record<string, unknown> = {}): WebhookRequest => ({
  rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  headers: { 'content-type': 'application/json' },
  query,
});

beforeAll(async () => {
  Logger.overrideLogger(false);
  certs = makeTestCerts();
  efi = await new FakeEfi(certs, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKey: PIX_KEY }).start();
});

afterAll(async () => {
  await Promise.all(providers.map((p) => p.onModuleDestroy()));
  await efi?.stop();
  certs?.remove();
});

describe('EfiPixProvider against a local fake Efí (mutual TLS)', () => {
  it('reaches the API only with the client certificate: without it, or with one of another authority, nothing gets through', async () => {
    const before = efi.requests.length;
    await expect(provider({ EFI_CERT_PATH: undefined, EFI_KEY_PATH: undefined }).createCharge(charge(newTxid()))).rejects.toMatchObject({
      code: 'ERR_PAYMENT_PROVIDER',
    });
    await expect(provider({ EFI_CERT_PATH: certs.rogue.cert, EFI_KEY_PATH: certs.rogue.key }).readCharge(newTxid())).rejects.toMatchObject({
      code: 'ERR_PAYMENT_PROVIDER',
    });
    // the handshake failed: no request reached the handler, not even the token's
    expect(efi.requests.length).toBe(before);

    // the same calls with our certificate go through, and the fake saw who called
    const txid = newTxid();
    await provider().createCharge(charge(txid));
    expect(efi.charges.has(txid)).toBe(true);
    expect(efi.requests.at(-1)?.clientCn).toBe('conversa-billing');
  });

  it('creates a charge with PUT /v2/cob/{txid}: Basic auth once for a token that is reused, one charge for a txid sent twice', async () => {
    const p = provider();
    const tokensBefore = efi.tokens.length;
    const txid = newTxid();
    const first = await p.createCharge(charge(txid));
    const again = await p.createCharge(charge(txid));

    // one token, asked with HTTP Basic client_id:client_secret and the client-credentials grant
    expect(efi.tokens.length).toBe(tokensBefore + 1);
    const tokenCall = efi.requests.filter((r) => r.path === '/oauth/token').at(-1);
    expect(tokenCall?.headers.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
    expect(tokenCall?.body).toEqual({ grant_type: 'client_credentials' });

    // the charge: our txid in the path, the amount as text with two decimals, our key
    const puts = efi.apiCalls('PUT', `/v2/cob/${txid}`);
    expect(puts).toHaveLength(2);
    expect(puts[0]?.body).toEqual({
      calendario: { expiracao: 3600 },
      valor: { original: '49.90' },
      chave: PIX_KEY,
      solicitacaoPagador: 'Fatura #12 — Plano Básico',
    });
    expect(puts.every((r) => r.headers.authorization === `Bearer ${efi.tokens.at(-1)}`)).toBe(true);
    expect([...efi.charges.keys()].filter((t) => t === txid)).toHaveLength(1);

    // the retry is the same charge: same code, same location, same expiry
    expect(again).toEqual(first);
    const cob = efi.charges.get(txid);
    expect(first.brCode).toBe(cob?.pixCopiaECola);
    expect(first.location).toBe(cob?.loc.location);
    expect(first.expiresAt.getTime()).toBe(Date.parse(cob?.calendario.criacao ?? '') + 3600_000);
    expect(decodeBrCode(first.brCode)).toMatchObject({ url: cob?.loc.location, amountCents: 4990 });
  });

  it('refuses a txid Efí has for another amount rather than answer that charge', async () => {
    const p = provider();
    const txid = newTxid();
    await p.createCharge(charge(txid, 4990));
    await expect(p.createCharge(charge(txid, 1))).rejects.toMatchObject({ code: 'ERR_PAYMENT_PROVIDER' });
    expect(efi.charges.get(txid)?.valor.original).toBe('49.90');
  });

  it('takes the BR Code from the location when the charge comes without pixCopiaECola; works with a .p12 and with one PEM file', async () => {
    const p = provider({ EFI_CERT_PATH: certs.clientP12, EFI_KEY_PATH: undefined, EFI_CERT_PASSPHRASE: certs.clientP12Passphrase });
    efi.omitCopiaECola = true;
    try {
      const txid = newTxid();
      const created = await p.createCharge(charge(txid, 12345));
      const cob = efi.charges.get(txid);
      expect(efi.apiCalls('GET', `/v2/loc/${cob?.loc.id}/qrcode`)).toHaveLength(1);
      expect(created.brCode).toBe(cob?.pixCopiaECola);
      expect(decodeBrCode(created.brCode).amountCents).toBe(12345);
    } finally {
      efi.omitCopiaECola = false;
    }
    // one PEM file holding the certificate and its key (Efí's .p12 converted with openssl), no EFI_KEY_PATH
    const pem = join(certs.dir, 'conversa-billing.pem');
    writeFileSync(pem, Buffer.concat([certs.read(certs.client.cert), certs.read(certs.client.key)]));
    const txid = newTxid();
    await provider({ EFI_CERT_PATH: pem, EFI_KEY_PATH: undefined }).createCharge(charge(txid));
    expect(efi.charges.has(txid)).toBe(true);
  });

  it('reads a charge back: ATIVA, then CONCLUIDA with its Pix; an unknown txid is undefined', async () => {
    const p = provider();
    const txid = newTxid();
    await p.createCharge(charge(txid));
    expect(await p.readCharge(txid)).toEqual({ txid, status: 'ATIVA', amountCents: 4990, pix: [] });

    const paidAt = new Date('2026-11-28T12:34:56.000Z');
    const { endToEndId } = efi.pay(txid, 4990, paidAt);
    expect(await p.readCharge(txid)).toEqual({
      txid,
      status: 'CONCLUIDA',
      amountCents: 4990,
      pix: [{ endToEndId, amountCents: 4990, paidAt }],
    });
    expect(await p.readCharge(newTxid())).toBeUndefined();
  });

  it('asks a new token once when the API answers 401, and keeps going', async () => {
    const p = provider();
    const txid = newTxid();
    await p.createCharge(charge(txid));
    const tokensBefore = efi.tokens.length;
    efi.revokeTokens();
    expect((await p.readCharge(txid))?.status).toBe('ATIVA');
    expect(efi.tokens.length).toBe(tokensBefore + 1);
    // the new token is kept
    await p.readCharge(txid);
    expect(efi.tokens.length).toBe(tokensBefore + 1);
  });

  it('answers ERR_PAYMENT_PROVIDER for a 5xx, wrong credentials, and an API that cannot be reached', async () => {
    const p = provider();
    efi.failWith = 503;
    try {
      await expect(p.readCharge(newTxid())).rejects.toMatchObject({ code: 'ERR_PAYMENT_PROVIDER', status: 502 });
      await expect(p.createCharge(charge(newTxid()))).rejects.toMatchObject({ code: 'ERR_PAYMENT_PROVIDER' });
    } finally {
      efi.failWith = undefined;
    }
    await expect(provider({ EFI_CLIENT_SECRET: 'wrong' }).readCharge(newTxid())).rejects.toMatchObject({ code: 'ERR_PAYMENT_PROVIDER' });

    // a port nothing listens on
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(provider({ EFI_BASE_URL: `https://127.0.0.1:${port}` }).readCharge(newTxid())).rejects.toMatchObject({
      code: 'ERR_PAYMENT_PROVIDER',
    });
  });

  it('registers the webhook for the key: the secret in the URL and skip-mTLS with EFI_WEBHOOK_HMAC, only ignorar= without', async () => {
    const url = 'https://billing.conversa.example/billing/webhooks/efi';
    await provider({ EFI_WEBHOOK_HMAC: 's3cr3t-hmac' }).registerWebhook(url);
    expect(efi.apiCalls('PUT', `/v2/webhook/${encodeURIComponent(PIX_KEY)}`).at(-1)?.headers['x-skip-mtls-checking']).toBe('true');
    // Efí appends /pix to the URL it calls: `ignorar=` at the end takes it in as a parameter
    expect(efi.webhooks.get(PIX_KEY)).toEqual({ webhookUrl: `${url}?hmac=s3cr3t-hmac&ignorar=`, skipMtls: 'true' });

    await provider().registerWebhook(url);
    expect(efi.webhooks.get(PIX_KEY)).toEqual({ webhookUrl: `${url}?ignorar=`, skipMtls: undefined });
  });

  it("reads Efí's webhook: the hmac parameter must match when set; the test call names no charge", () => {
    const p = provider({ EFI_WEBHOOK_HMAC: 's3cr3t-hmac' });
    const body = {
      pix: [
        {
          endToEndId: 'E09089356202611281234abcdef12345',
          txid: 'a'.repeat(32),
          chave: PIX_KEY,
          valor: '49.90',
          horario: '2026-11-28T12:00:00.000Z',
        },
        {
          endToEndId: 'E09089356202611281234abcdef12346',
          txid: 'b'.repeat(32),
          chave: PIX_KEY,
          valor: '10.00',
          horario: '2026-11-28T12:00:01.000Z',
        },
        // a Pix to the key without a charge: no txid
        { endToEndId: 'E09089356202611281234abcdef12347', chave: PIX_KEY, valor: '1.00', horario: '2026-11-28T12:00:02.000Z' },
      ],
    };
    for (const query of [
      {},
      { hmac: 'wrong' },
      { hmac: 's3cr3t-hmac-and-more' },
      { hmac: ['s3cr3t-hmac', 's3cr3t-hmac'] },
      { ignorar: '/pix' },
    ]) {
      expect(() => p.readWebhook(webhook(body, query))).toThrow(expect.objectContaining({ code: 'ERR_WEBHOOK_SIGNATURE', status: 401 }));
    }
    expect(p.readWebhook(webhook(body, { hmac: 's3cr3t-hmac', ignorar: '/pix' }))).toEqual(['a'.repeat(32), 'b'.repeat(32)]);
    expect(p.readWebhook(webhook({ evento: 'teste_webhook', data_criacao: '2026-11-28T12:00:00.000Z' }, { hmac: 's3cr3t-hmac' }))).toEqual(
      [],
    );
    for (const bad of [
      'not json',
      { pix: 'x' },
      { pix: [{ txid: 'a'.repeat(32), valor: '49.90' }] },
      { pix: [{ ...body.pix[0], valor: 49.9 }] },
    ]) {
      expect(() => p.readWebhook(webhook(bad, { hmac: 's3cr3t-hmac' }))).toThrow(
        expect.objectContaining({ code: 'ERR_VALIDATION', status: 400 }),
      );
    }
    // without EFI_WEBHOOK_HMAC, mutual TLS at the ingress is the check: the body is read as is
    expect(provider().readWebhook(webhook(body))).toEqual(['a'.repeat(32), 'b'.repeat(32)]);
  });
});
