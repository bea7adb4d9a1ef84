import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { TokenRevocation, UserDirectory } from '@wa/auth';
import { BillingSubjects, CHECKOUT_REQUIRED, Streams, Subjects, type CompanyBillingCopy, type InvoicePaidEvent } from '@wa/contracts';
import { daysFromToday } from '@wa/domain';
import { EventBus } from '@wa/event-bus';
import { CompanySession, HttpClient, startInProcess, uniqueSuffix, waitFor, type RunningApp } from '@wa/testing';
import { createHmac, randomInt } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { BillingEnv } from '../../src/config/env.js';
import { billingDatabase } from '../../src/database/data-source.js';
import { InvoiceJob } from '../../src/invoices/invoice-jobs.js';
import { PollJobProcessor } from '../../src/payments/payment-jobs.js';

/**
 * Invoices, the checkout and paying once (issue 41), against billing in this process with the sandbox provider, the
 * real PostgreSQL, Redis and NATS, a local stand-in for auth's company list and a real local SMTP server.
 */
let billing: RunningApp & { env: BillingEnv };
let db: DataSource;
let bus: EventBus;
let authPeer: Server;
let smtp: SMTPServer;
const mails: Array<{ to: string; text: string }> = [];
/** what the stand-in for auth lists (GET /internal/companies/billing) */
const authCompanies: CompanyBillingCopy[] = [];
let paidPlan: number;
let dearPlan: number;
let privatePlan: number;
let freePlan: number;

const WEBHOOK_SECRET = 'test-webhook-secret';
const api = () => new HttpClient(billing.baseUrl);
const newCompanyId = () => randomInt(1_500_000_000, 2_000_000_000);

async function plan(name: string, value: number, isPublic = true): Promise<number> {
  const rows: Array<{ id: number }> = await db.query(
    `INSERT INTO billing.plans (name, value, "isPublic") VALUES ($1, $2, $3) RETURNING id`,
    [`${name} ${uniqueSuffix()}`, value, isPublic],
  );
  return rows[0]!.id;
}

/** A company as auth announces it (company.created), with an admin and a token. */
async function company(opts: { planId?: number; dueDate?: string; email?: string | null; recurrence?: string } = {}) {
  const companyId = newCompanyId();
  const session = new CompanySession(
    { directory: billing.app.get(UserDirectory), revocation: billing.app.get(TokenRevocation) },
    { companyId },
  );
  const admin = await session.user({ profile: 'admin' });
  const user = await session.user({ profile: 'user' });
  await bus.publish(
    Subjects.companyCreated(companyId),
    {
      companyId,
      name: `Empresa ${companyId}`,
      at: new Date().toISOString(),
      planId: opts.planId ?? paidPlan,
      status: true,
      dueDate: opts.dueDate ?? daysFromToday(7),
      email: opts.email === undefined ? `financeiro-${companyId}@example.com` : opts.email,
      recurrence: opts.recurrence ?? 'MENSAL',
    },
    { msgId: `test-company-created:${companyId}` },
  );
  await waitFor(async () => (await db.query(`SELECT 1 FROM billing.companies WHERE "companyId" = $1`, [companyId])).length > 0);
  return { companyId, admin, user, session };
}

async function invoicesOf(companyId: number): Promise<Array<{ id: number; valueCents: number; dueDate: string; status: string }>> {
  return db.query(
    `SELECT id, "valueCents", to_char("dueDate", 'YYYY-MM-DD') AS "dueDate", status FROM billing.invoices WHERE "companyId" = $1 ORDER BY "dueDate"`,
    [companyId],
  );
}

const checkout = (invoiceId: number, extra: Record<string, unknown> = {}) => ({
  firstName: 'Maria',
  lastName: 'Silva',
  address: 'Rua A, 1',
  city: 'São Paulo',
  state: 'SP',
  zipcode: '01000-000',
  country: 'BR',
  invoiceId,
  ...extra,
});

async function paidEvents(companyId: number): Promise<number> {
  const jsm = await bus.connection.jetstreamManager();
  const subject = BillingSubjects.invoicePaid(companyId);
  const info = await jsm.streams.info(Streams.BILLING.name, { subjects_filter: subject });
  return (info.state.subjects as Record<string, number> | undefined)?.[subject] ?? 0;
}

const sign = (body: string) => `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;

beforeAll(async () => {
  authPeer = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/internal/companies/billing' || !req.headers.authorization?.startsWith('Bearer ')) {
      res.writeHead(401).end();
      return;
    }
    const afterId = Number(url.searchParams.get('afterId') ?? 0);
    const companies = authCompanies.filter((c) => c.companyId > afterId).sort((a, b) => a.companyId - b.companyId);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ companies }));
  });
  await new Promise<void>((r) => authPeer.listen(0, '127.0.0.1', r));
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let text = '';
      stream.on('data', (c: Buffer) => (text += c.toString()));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text });
        done();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  billing = await startInProcess({
    envClass: BillingEnv,
    module: (env) => AppModule.register(env),
    database: (env) => billingDatabase(env.DATABASE_URL),
    overrides: {
      AUTH_URL: `http://127.0.0.1:${(authPeer.address() as AddressInfo).port}`,
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      BILLING_WEBHOOK_SECRET: WEBHOOK_SECRET,
      BILLING_POLL_DELAYS_MS: '600000',
    },
  });
  // the sandbox calls billing's webhook where this process listens
  billing.env.BILLING_PUBLIC_URL = billing.baseUrl;
  db = billing.app.get(getDataSourceToken());
  bus = billing.app.get(EventBus);
  paidPlan = await plan('Básico', 49.9);
  dearPlan = await plan('Avançado', 99.9);
  privatePlan = await plan('Interno', 1, false);
  freePlan = await plan('Grátis', 0);
}, 60_000);

afterAll(async () => {
  await billing?.close();
  await new Promise((r) => authPeer?.close(r));
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
});

describe('invoices (issue 41 §1)', () => {
  it('a new company on a paid plan gets an open invoice for its due date at its plan’s price; on a free plan none', async () => {
    const due = daysFromToday(45);
    const paid = await company({ dueDate: due });
    await waitFor(async () => (await invoicesOf(paid.companyId)).length === 1);
    expect(await invoicesOf(paid.companyId)).toEqual([expect.objectContaining({ valueCents: 4990, dueDate: due, status: 'open' })]);
    const free = await company({ planId: freePlan });
    expect(await invoicesOf(free.companyId)).toEqual([]);
  });

  it('the daily job makes the next invoice 20 days ahead, once however often it runs; a later due date waits', async () => {
    const soon = newCompanyId();
    const later = newCompanyId();
    const at = new Date().toISOString();
    // known to billing already (their first invoices paid long ago): only the daily job makes the next one
    for (const [id, days] of [
      [soon, 12],
      [later, 40],
    ] as const) {
      await db.query(
        `INSERT INTO billing.companies ("companyId", name, email, "planId", status, "dueDate", recurrence, "at") VALUES ($1, $2, null, $3, true, $4, 'MENSAL', $5)`,
        [id, `Empresa ${id}`, paidPlan, daysFromToday(days), at],
      );
    }
    const job = billing.app.get(InvoiceJob);
    await job.process();
    await job.process();
    expect(await invoicesOf(soon)).toEqual([expect.objectContaining({ dueDate: daysFromToday(12), valueCents: 4990 })]);
    expect(await invoicesOf(later)).toEqual([]);
  });

  it('fills its copy from auth’s list (companies made without events) and invoices them', async () => {
    const id = newCompanyId();
    authCompanies.push({
      companyId: id,
      name: `Semeada ${id}`,
      email: null,
      planId: dearPlan,
      status: true,
      dueDate: daysFromToday(3),
      recurrence: 'MENSAL',
      at: new Date().toISOString(),
    });
    await billing.app.get(InvoiceJob).process();
    expect(await invoicesOf(id)).toEqual([expect.objectContaining({ valueCents: 9990, dueDate: daysFromToday(3) })]);
  });

  it('lists the caller’s company’s only, paged and searched; a super user sees every company’s or one chosen', async () => {
    const a = await company({ dueDate: daysFromToday(2) });
    const b = await company({ dueDate: daysFromToday(4) });
    await waitFor(async () => (await invoicesOf(b.companyId)).length === 1);
    const mine = await api().get('/invoices/all', { token: a.admin.token });
    expect(mine.status).toBe(200);
    expect(mine.body.invoices.map((i: { companyId: number }) => i.companyId)).toEqual([a.companyId]);
    expect(mine.body).toMatchObject({ count: 1, hasMore: false });
    expect(mine.body.invoices[0]).toMatchObject({
      value: 49.9,
      status: 'open',
      dueDate: daysFromToday(2),
      companyName: `Empresa ${a.companyId}`,
    });
    // an agent does not manage invoices
    expect((await api().get('/invoices/all', { token: a.user.token })).status).toBe(403);
    const superUser = await a.session.user({ profile: 'admin', super: true });
    const chosen = await api().get(`/invoices/all?companyId=${b.companyId}`, { token: superUser.token });
    expect(chosen.body.invoices.map((i: { companyId: number }) => i.companyId)).toEqual([b.companyId]);
    const searched = await api().get(`/invoices/all?searchParam=${encodeURIComponent(`Empresa ${b.companyId}`)}`, {
      token: superUser.token,
    });
    expect(searched.body.invoices.map((i: { companyId: number }) => i.companyId)).toEqual([b.companyId]);
    const all = await api().get('/invoices/all?pageNumber=1', { token: superUser.token });
    expect(all.body.count).toBeGreaterThanOrEqual(2);
    expect(all.body.hasMore).toBe(all.body.count > 20);
    const next = await api().get(`/invoices/next?companyIds=${a.companyId},${b.companyId}`, { token: superUser.token });
    expect(next.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ companyId: a.companyId, dueDate: daysFromToday(2), overdue: false })]),
    );
    expect((await api().get(`/invoices/next?companyIds=${a.companyId}`, { token: a.admin.token })).status).toBe(403);
    expect((await api().get('/invoices/all?pageNumber=0', { token: a.admin.token })).status).toBe(400);
  });
});

describe('checkout (issue 41 §2)', () => {
  it('takes the amount from the invoice, never the body’s price, and reuses the invoice’s charge', async () => {
    const c = await company();
    const [invoice] = await invoicesOf(c.companyId);
    const first = await api().post('/subscription', { token: c.admin.token, body: checkout(invoice!.id, { price: 0.01 }) });
    expect(first.status).toBe(201);
    expect(first.body.valor).toEqual({ original: '49.90' });
    expect(first.body.qrcode.qrcode).toContain('br.gov.bcb.pix');
    expect(first.body.qrcode.qrcode).toContain('540549.90');
    expect(first.body.qrcode.imagemQrcode).toMatch(/^data:image\/png;base64,/);
    const again = await api().post('/subscription', { token: c.admin.token, body: checkout(invoice!.id, { price: 1 }) });
    expect(again.body.txid).toBe(first.body.txid);
    expect((await db.query(`SELECT count(*)::int AS n FROM billing.charges WHERE "invoiceId" = $1`, [invoice!.id]))[0].n).toBe(1);
  });

  it('a plan chosen at the checkout sets the amount from that plan; a plan not offered is refused', async () => {
    const c = await company();
    const [invoice] = await invoicesOf(c.companyId);
    const res = await api().post('/subscription', {
      token: c.admin.token,
      body: checkout(invoice!.id, { plan: JSON.stringify({ planId: dearPlan }), price: 2 }),
    });
    expect(res.body).toMatchObject({ valor: { original: '99.90' }, planId: dearPlan });
    const hidden = await api().post('/subscription', { token: c.admin.token, body: checkout(invoice!.id, { plan: privatePlan }) });
    expect(hidden.status).toBe(400);
    const free = await api().post('/subscription', { token: c.admin.token, body: checkout(invoice!.id, { plan: freePlan }) });
    expect([400, 409]).toContain(free.status);
  });

  it('refuses another company’s invoice, an unknown one, and missing fields with the spec’s texts', async () => {
    const a = await company();
    const b = await company();
    const [theirs] = await invoicesOf(b.companyId);
    const other = await api().post('/subscription', { token: a.admin.token, body: checkout(theirs!.id) });
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('ERR_NO_INVOICE_FOUND');
    expect((await db.query(`SELECT count(*)::int AS n FROM billing.charges WHERE "invoiceId" = $1`, [theirs!.id]))[0].n).toBe(0);
    const missing = await api().post('/subscription', {
      token: a.admin.token,
      body: { invoiceId: theirs!.id, firstName: '', address: '', city: '', zipcode: '', country: '' },
    });
    expect(missing.status).toBe(400);
    const texts = (missing.body.details as Array<{ messages: string[] }>).flatMap((d) => d.messages);
    for (const text of Object.values(CHECKOUT_REQUIRED)) expect(texts).toContain(text);
  });
});

describe('paying, once (issue 41 §5, §6)', () => {
  it('a forged or missing signature answers 401 and pays nothing; the sandbox payer pays it once, with a receipt', async () => {
    const c = await company({ email: 'contas@example.com' });
    const [invoice] = await invoicesOf(c.companyId);
    const charge = await api().post('/subscription', { token: c.admin.token, body: checkout(invoice!.id) });
    const txid = charge.body.txid as string;
    // the sandbox ledger says paid, but the webhook is forged: nothing happens
    const body = JSON.stringify({
      pix: [{ endToEndId: 'E00000000202611281200abcdefghijk', txid, valor: '49.90', horario: new Date().toISOString() }],
    });
    const forged = await api().post('/billing/webhooks/sandbox', {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-signature': 'sha256=00' },
    });
    expect(forged.status).toBe(401);
    const unsigned = await api().post('/billing/webhooks/sandbox', { rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(unsigned.status).toBe(401);
    // a signed webhook naming a charge the provider has not concluded pays nothing either
    const early = await api().post('/billing/webhooks/sandbox', {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-signature': sign(body) },
    });
    expect(early.status).toBe(200);
    expect((await invoicesOf(c.companyId))[0]!.status).toBe('open');
    // only a super user pays in the sandbox
    expect((await api().post(`/billing/sandbox/charges/${txid}/pay`, { token: c.admin.token })).status).toBe(403);
    const superUser = await c.session.user({ profile: 'admin', super: true });
    const paid = await api().post(`/billing/sandbox/charges/${txid}/pay`, { token: superUser.token });
    expect(paid.status).toBe(200);
    expect((await invoicesOf(c.companyId))[0]!.status).toBe('paid');
    await waitFor(async () => (await paidEvents(c.companyId)) === 1);
    // the webhook again (a replay), and the fallback poll: the invoice was renewed once
    const replay = JSON.stringify({ pix: [{ endToEndId: paid.body.endToEndId, txid, valor: '49.90', horario: new Date().toISOString() }] });
    const again = await api().post('/billing/webhooks/sandbox', {
      rawBody: replay,
      headers: { 'content-type': 'application/json', 'x-signature': sign(replay) },
    });
    expect(again.body.received[txid]).toBe('already-recorded');
    expect(await billing.app.get(PollJobProcessor).process({ data: { txid, last: false } } as never)).toBe('already-recorded');
    expect((await db.query(`SELECT count(*)::int AS n FROM billing.payments WHERE "invoiceId" = $1`, [invoice!.id]))[0].n).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(await paidEvents(c.companyId)).toBe(1);
    const [event] = await lastPaid(c.companyId);
    expect(event).toMatchObject({
      invoiceId: invoice!.id,
      companyId: c.companyId,
      amount: '49.90',
      planId: paidPlan,
      endToEndId: paid.body.endToEndId,
    });
    // the receipt went to the company's billing email
    await waitFor(() => mails.some((m) => m.to === 'contas@example.com' && m.text.includes(`fatura ${invoice!.id}`)));
    // a paid invoice is not paid again
    const closed = await api().post('/subscription', { token: c.admin.token, body: checkout(invoice!.id) });
    expect(closed.status).toBe(409);
    expect(closed.body.error).toBe('ERR_INVOICE_NOT_OPEN');
  });

  it('a poll alone pays a charge whose webhook never came', async () => {
    const c = await company();
    const [invoice] = await invoicesOf(c.companyId);
    const charge = await api().post('/subscription', { token: c.admin.token, body: checkout(invoice!.id) });
    const txid = charge.body.txid as string;
    // the sandbox ledger pays it, but the webhook is lost (nothing listens at that address)
    await db.query(
      `UPDATE billing.sandbox_charges SET status = 'CONCLUIDA', "endToEndId" = $2, "paidCents" = "amountCents", "paidAt" = now() WHERE txid = $1`,
      [txid, `E${String(Date.now()).padEnd(31, '0')}`],
    );
    const poll = billing.app.get(PollJobProcessor);
    expect(await poll.process({ data: { txid, last: false } } as never)).toBe('paid');
    expect(await poll.process({ data: { txid, last: true } } as never)).toBe('already-recorded');
    expect((await invoicesOf(c.companyId))[0]!.status).toBe('paid');
  });

  it('counts charges created and payments in the metrics', async () => {
    const res = await fetch(`${billing.baseUrl}/metrics`);
    const text = await res.text();
    expect(text).toMatch(/billing_charges_created_total\{[^}]*provider="sandbox"[^}]*\} [1-9]/);
    expect(text).toMatch(/billing_payments_total\{[^}]*settled="true"[^}]*\} [1-9]/);
  });
});

/** The last invoice.paid event of the company on the stream. */
async function lastPaid(companyId: number): Promise<InvoicePaidEvent[]> {
  const jsm = await bus.connection.jetstreamManager();
  const msg = await jsm.streams.getMessage(Streams.BILLING.name, { last_by_subj: BillingSubjects.invoicePaid(companyId) });
  return [msg.json<InvoicePaidEvent>()];
}
