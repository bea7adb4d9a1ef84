import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { createDataSource, runMigrations } from '@wa/database';
import { decodeBrCode } from '@wa/domain';
import { loadConfig } from '@wa/server-kit';
import { testEnv } from '@wa/testing';
import type { DataSource } from 'typeorm';
import { BillingEnv } from '../../src/config/env.js';
import { billingDatabase } from '../../src/database/data-source.js';
import type { WebhookRequest } from '../../src/providers/pix-provider.js';
import { SandboxPixProvider, webhookSecretOf, webhookSignature } from '../../src/providers/sandbox.provider.js';

/** What reached the stand-in for billing, and what the sandbox's readWebhook made of it. */
interface Delivery {
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: Buffer;
  txids?: string[];
  refused?: string;
}

let db: DataSource;
let billing: Server;
let billingUrl: string;
let env: BillingEnv;
let sandbox: SandboxPixProvider;
const deliveries: Delivery[] = [];

const newTxid = () => randomBytes(16).toString('hex');
const charge = (txid: string, amountCents = 4990, expiresInSeconds = 3600) => ({
  txid,
  amountCents,
  expiresInSeconds,
  description: 'Fatura',
});
const ledgerRows = async (txid: string) =>
  (await db.query(`SELECT count(*)::int AS n FROM billing.sandbox_charges WHERE txid = $1`, [txid]))[0].n;

const request = (rawBody: Buffer | string, headers: Record<string, string> = {}): WebhookRequest => ({
  rawBody: Buffer.from(rawBody),
  headers: { 'content-type': 'application/json', ...headers },
  query: {},
});

function envWith(overrides: Record<string, string>): BillingEnv {
  return loadConfig(
    BillingEnv,
    testEnv({
      PIX_KEY: 'financeiro@conversa.local',
      PIX_MERCHANT_NAME: 'Conversa Plataforma',
      PIX_MERCHANT_CITY: 'São Paulo',
      ...overrides,
    }),
  );
}

/** Listens on a free loopback port; answers its address. */
async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  Logger.overrideLogger(false);
  // the stand-in for billing: its webhook route checks the call with the sandbox's own readWebhook
  billing = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const delivery: Delivery = { path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks) };
      deliveries.push(delivery);
      try {
        delivery.txids = sandbox.readWebhook({ rawBody: delivery.rawBody, headers: req.headers, query: {} });
        res.writeHead(200).end();
      } catch (err) {
        delivery.refused = (err as { code?: string }).code;
        res.writeHead(401).end();
      }
    });
  });
  billingUrl = await listen(billing);
  env = envWith({ BILLING_PUBLIC_URL: billingUrl });
  const database = billingDatabase(env.DATABASE_URL);
  await runMigrations(database);
  db = await createDataSource({ ...database, poolSize: 4 }).initialize();
  sandbox = new SandboxPixProvider(db, env);
});

afterAll(async () => {
  await db?.destroy();
  billing?.closeAllConnections();
  await new Promise<void>((resolve) => (billing ? billing.close(() => resolve()) : resolve()));
});

describe('SandboxPixProvider (its own ledger in billing.sandbox_charges)', () => {
  it('creates one charge per txid, however often and concurrently it is asked: the same static BR Code of the key, amount and txid', async () => {
    const txid = newTxid();
    const [first, ...others] = await Promise.all(Array.from({ length: 5 }, () => sandbox.createCharge(charge(txid))));
    const again = await sandbox.createCharge(charge(txid));
    expect(await ledgerRows(txid)).toBe(1);
    for (const c of [...others, again]) expect(c).toEqual(first);
    expect(first?.location).toBeNull();
    expect(Math.abs((first?.expiresAt.getTime() ?? 0) - (Date.now() + 3600_000))).toBeLessThan(60_000);

    const decoded = decodeBrCode(first?.brCode ?? '');
    expect(decoded).toMatchObject({
      key: 'financeiro@conversa.local',
      amountCents: 4990,
      merchantName: 'Conversa Plataforma',
      merchantCity: 'Sao Paulo',
    });
    // a static code's txid holds 25 characters: our 32-character txid is there by its last 25
    expect(decoded.txid).toBe(txid.slice(-25));
    expect(first?.brCode).toContain('540549.90');

    expect(await sandbox.readCharge(txid)).toEqual({ txid, status: 'ATIVA', amountCents: 4990, pix: [] });
    expect(await sandbox.readCharge(newTxid())).toBeUndefined();
  });

  it('pays a charge: the ledger says CONCLUIDA with the Pix, and billing gets a signed webhook naming the charge', async () => {
    const txid = newTxid();
    await sandbox.createCharge(charge(txid, 12345));
    const before = Date.now();
    const paid = await sandbox.pay(txid);
    expect(paid.endToEndId).toMatch(/^E[A-Za-z0-9]{31}$/);
    expect(paid.webhookStatus).toBe(200);

    const delivery = deliveries.find((d) => d.rawBody.toString().includes(txid));
    expect(delivery?.path).toBe('/billing/webhooks/sandbox');
    expect(delivery?.refused).toBeUndefined();
    expect(delivery?.txids).toEqual([txid]);
    expect(delivery?.headers['x-signature']).toBe(webhookSignature(webhookSecretOf(env), delivery?.rawBody ?? ''));
    const body = JSON.parse(delivery?.rawBody.toString() ?? '{}');
    expect(body).toEqual({ pix: [{ endToEndId: paid.endToEndId, txid, valor: '123.45', horario: expect.any(String) }] });

    const read = await sandbox.readCharge(txid);
    expect(read).toMatchObject({
      txid,
      status: 'CONCLUIDA',
      amountCents: 12345,
      pix: [{ endToEndId: paid.endToEndId, amountCents: 12345 }],
    });
    const paidAt = read?.pix[0]?.paidAt.getTime() ?? 0;
    expect(paidAt).toBeGreaterThanOrEqual(before - 5_000);
    expect(new Date(body.pix[0].horario).getTime()).toBe(paidAt);

    // paying again is refused, and nothing changes
    await expect(sandbox.pay(txid)).rejects.toMatchObject({ code: 'ERR_VALIDATION', message: `The charge ${txid} is already paid.` });
    expect((await sandbox.readCharge(txid))?.pix).toEqual(read?.pix);
    expect(deliveries.filter((d) => d.rawBody.toString().includes(txid))).toHaveLength(1);
  });

  it('pays another amount when asked (a payer who paid less), and refuses amounts that are not cents', async () => {
    const txid = newTxid();
    await sandbox.createCharge(charge(txid, 4990));
    for (const bad of [0, -1, 10.5]) await expect(sandbox.pay(txid, bad)).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    await sandbox.pay(txid, 100);
    expect(await sandbox.readCharge(txid)).toMatchObject({ status: 'CONCLUIDA', amountCents: 4990, pix: [{ amountCents: 100 }] });
  });

  it('refuses to pay an unknown charge (404) or an expired one, which reads as REMOVIDA_PELO_PSP', async () => {
    await expect(sandbox.pay(newTxid())).rejects.toMatchObject({ code: 'ERR_NOT_FOUND', status: 404 });
    const txid = newTxid();
    await sandbox.createCharge(charge(txid, 4990, 1));
    await new Promise((r) => setTimeout(r, 1100));
    expect(await sandbox.readCharge(txid)).toEqual({ txid, status: 'REMOVIDA_PELO_PSP', amountCents: 4990, pix: [] });
    await expect(sandbox.pay(txid)).rejects.toMatchObject({ code: 'ERR_VALIDATION', message: expect.stringContaining('expired') });
    expect(deliveries.some((d) => d.rawBody.toString().includes(txid))).toBe(false);
  });

  it('refuses a webhook without the signature, with a forged one, or with a body changed after signing', () => {
    const body = JSON.stringify({
      pix: [{ endToEndId: `E${'1'.repeat(31)}`, txid: newTxid(), valor: '49.90', horario: new Date().toISOString() }],
    });
    const secret = webhookSecretOf(env);
    expect(sandbox.readWebhook(request(body, { 'x-signature': webhookSignature(secret, body) }))).toHaveLength(1);
    // upper-case hex is the same signature
    expect(
      sandbox.readWebhook(request(body, { 'x-signature': webhookSignature(secret, body).toUpperCase().replace('SHA256=', 'sha256=') })),
    ).toHaveLength(1);

    const forged: Array<Record<string, string>> = [
      {},
      { 'x-signature': '' },
      { 'x-signature': webhookSignature('another-secret', body) },
      { 'x-signature': webhookSignature(secret, body).replace('sha256=', '') },
      { 'x-signature': `sha1=${webhookSignature(secret, body).slice(7)}` },
      { 'x-signature': webhookSignature(secret, body).slice(0, -1) },
    ];
    for (const headers of forged) {
      expect(() => sandbox.readWebhook(request(body, headers))).toThrow(
        expect.objectContaining({ code: 'ERR_WEBHOOK_SIGNATURE', status: 401 }),
      );
    }
    const changed = body.replace('49.90', '0.01');
    expect(() => sandbox.readWebhook(request(changed, { 'x-signature': webhookSignature(secret, body) }))).toThrow(
      expect.objectContaining({ code: 'ERR_WEBHOOK_SIGNATURE' }),
    );
    // a secret derived from another JWT_SECRET does not verify
    const other = new SandboxPixProvider(
      db,
      envWith({ JWT_SECRET: 'another-secret-of-at-least-32-characters', BILLING_PUBLIC_URL: billingUrl }),
    );
    expect(() => other.readWebhook(request(body, { 'x-signature': webhookSignature(secret, body) }))).toThrow(
      expect.objectContaining({ code: 'ERR_WEBHOOK_SIGNATURE' }),
    );
  });

  it('refuses a signed body that is not a webhook of Pix received (400)', () => {
    const secret = webhookSecretOf(env);
    const entry = { endToEndId: `E${'2'.repeat(31)}`, txid: newTxid(), valor: '49.90', horario: new Date().toISOString() };
    for (const bad of [
      'not json',
      '[]',
      '{}',
      '{"pix":[]}',
      JSON.stringify({ pix: [{ ...entry, txid: undefined }] }),
      JSON.stringify({ pix: [{ ...entry, valor: '49.9' }] }),
      JSON.stringify({ pix: [{ ...entry, horario: 'yesterday' }] }),
    ]) {
      expect(() => sandbox.readWebhook(request(bad, { 'x-signature': webhookSignature(secret, bad) }))).toThrow(
        expect.objectContaining({ code: 'ERR_VALIDATION', status: 400 }),
      );
    }
  });

  it('signs with BILLING_WEBHOOK_SECRET when set, else with a secret derived from JWT_SECRET', () => {
    const derived = webhookSecretOf({ JWT_SECRET: env.JWT_SECRET, BILLING_WEBHOOK_SECRET: undefined });
    expect(derived).toMatch(/^[0-9a-f]{64}$/);
    expect(derived).not.toContain(env.JWT_SECRET);
    expect(webhookSecretOf({ JWT_SECRET: env.JWT_SECRET, BILLING_WEBHOOK_SECRET: 'configured-secret' })).toBe('configured-secret');

    const configured = new SandboxPixProvider(db, envWith({ BILLING_WEBHOOK_SECRET: 'configured-secret', BILLING_PUBLIC_URL: billingUrl }));
    const body = JSON.stringify({
      pix: [{ endToEndId: `E${'3'.repeat(31)}`, txid: newTxid(), valor: '1.00', horario: new Date().toISOString() }],
    });
    expect(configured.readWebhook(request(body, { 'x-signature': webhookSignature('configured-secret', body) }))).toHaveLength(1);
    expect(() => configured.readWebhook(request(body, { 'x-signature': webhookSignature(derived, body) }))).toThrow(
      expect.objectContaining({ code: 'ERR_WEBHOOK_SIGNATURE' }),
    );
  });

  it("calls this process's own port when BILLING_PUBLIC_URL is unset; a billing that cannot be reached leaves the charge paid", async () => {
    // the listening server as Nest's HttpAdapterHost shows it (PORT=0: the port is only known once listening)
    const host = { httpAdapter: { getHttpServer: () => billing } } as unknown as HttpAdapterHost;
    const local = new SandboxPixProvider(db, envWith({ PORT: '0' }), host);
    const txid = newTxid();
    await local.createCharge(charge(txid));
    expect((await local.pay(txid)).webhookStatus).toBe(200);
    expect(deliveries.find((d) => d.rawBody.toString().includes(txid))?.txids).toEqual([txid]);

    const closed = createServer();
    const closedUrl = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = new SandboxPixProvider(db, envWith({ BILLING_PUBLIC_URL: closedUrl }));
    const lost = newTxid();
    await unreachable.createCharge(charge(lost));
    expect((await unreachable.pay(lost)).webhookStatus).toBe(0);
    expect((await unreachable.readCharge(lost))?.status).toBe('CONCLUIDA');
  });
});
