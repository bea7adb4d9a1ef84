import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signAccessToken } from '@wa/auth';
import { runMigrations } from '@wa/database';
import { RECURRENCE_MONTHS, SocketChannels, type PaymentEvent } from '@wa/contracts';
import { daysFromToday } from '@wa/domain';
import { HttpClient, randomIp, TEST_DATABASE_URL, TEST_JWT_SECRET, uniqueEmail, uniqueSuffix, waitFor } from '@wa/testing';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { billingDatabase } from '../../services/billing/src/database/data-source.js';
import { startProcesses, stopProcesses, type ServiceProcess } from './processes.js';
import { Product } from './product.js';

/**
 * Billing end to end (issue 41), through the gateway against the real services: a company made by the super user
 * gets its invoice, pays it by Pix in the sandbox, billing reads the charge back and settles the invoice once, auth
 * moves the due date by the recurrence and the company's sockets (only theirs) hear CONCLUIDA.
 */
const running: ServiceProcess[] = [];
const sockets: Socket[] = [];
let http: HttpClient;
let product: Product;
const superToken = signAccessToken({ id: 1_999_999_301, companyId: 1, profile: 'admin', super: true, sid: randomUUID() }, TEST_JWT_SECRET);
let planId: number;

beforeAll(async () => {
  for (const db of [authDatabase, billingDatabase]) await runMigrations(db(TEST_DATABASE_URL));
  const services = await startProcesses({
    auth: {},
    billing: (urls) => ({ AUTH_URL: urls.auth, BILLING_POLL_DELAYS_MS: '600000' }),
    'realtime-gateway': { TICKETS_URL: 'http://127.0.0.1:1' },
    'messaging-gateway': (urls) => ({
      AUTH_URL: urls.auth,
      BILLING_URL: urls.billing,
      REALTIME_URL: urls['realtime-gateway'],
      TICKETS_URL: 'http://127.0.0.1:1',
      WHATSAPP_SESSIONS_URL: 'http://127.0.0.1:1',
      CAMPAIGNS_URL: 'http://127.0.0.1:1',
    }),
  });
  running.push(...Object.values(services));
  const gateway = services['messaging-gateway'];
  http = new HttpClient(gateway.url, { 'x-forwarded-for': randomIp() });
  product = new Product(http, gateway.url);
  const plan = await http.post('/plans', {
    token: superToken,
    body: { name: `Pix ${uniqueSuffix()}`, value: 49.9, users: 3, connections: 3, queues: 3 },
  });
  expect(plan.status).toBe(201);
  planId = plan.body.id;
}, 120_000);

afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await stopProcesses(running);
});

/** A company the super user makes (settings tab Empresas), its admin signed in, and its open invoice. */
async function company(opts: { dueDate: string; recurrence?: string }) {
  const email = uniqueEmail('billing');
  const password = 'segredo123';
  const made = await waitFor(async () => {
    // auth's copy of the new plan may still be on its way
    const res = await http.post('/companies', {
      token: superToken,
      body: { name: `Pagante ${uniqueSuffix()}`, email, password, planId, dueDate: opts.dueDate, recurrence: opts.recurrence ?? 'MENSAL' },
    });
    return res.status === 201 ? res : undefined;
  });
  const companyId = made.body.id as number;
  const login = await http.post('/auth/login', { body: { email, password } });
  expect(login.status).toBe(200);
  const token = login.body.token as string;
  const invoice = await waitFor(async () => {
    const res = await http.get('/invoices/all', { token });
    return res.body.invoices?.[0] as { id: number; dueDate: string; value: number; status: string } | undefined;
  });
  return { companyId, email, password, token, invoice };
}

async function pay(token: string, invoiceId: number) {
  const res = await http.post('/subscription', {
    token,
    body: {
      firstName: 'Ana',
      lastName: 'Souza',
      address: 'Rua B, 2',
      city: 'Recife',
      state: 'PE',
      zipcode: '50000-000',
      country: 'BR',
      invoiceId,
      price: 0.01,
    },
  });
  expect(res.status).toBe(201);
  expect(res.body.valor.original).toBe('49.90');
  const paid = await http.post(`/billing/sandbox/charges/${res.body.txid}/pay`, { token: superToken });
  expect(paid.status).toBe(200);
  return res.body.txid as string;
}

/** A calendar date plus months, the day clamped to the month's last (2026-01-31 + 1 → 2026-02-28). */
function plusMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, last))).toISOString().slice(0, 10);
}

async function dueDateOf(companyId: number): Promise<string> {
  const res = await http.get(`/companies/${companyId}`, { token: superToken });
  return res.body.dueDate as string;
}

describe('billing through the gateway (issue 41)', () => {
  it('pays an invoice by Pix: renewed once by its recurrence, CONCLUIDA to that company’s sockets only', async () => {
    const due = daysFromToday(5);
    const a = await company({ dueDate: due });
    const b = await company({ dueDate: due });
    expect(a.invoice).toMatchObject({ dueDate: due, value: 49.9, status: 'open' });
    const aSocket = await product.socketOf(a.token);
    const bSocket = await product.socketOf(b.token);
    sockets.push(aSocket.socket, bSocket.socket);
    const txid = await pay(a.token, a.invoice.id);
    const heard = await waitFor(
      () => aSocket.events.find((e) => e.name === SocketChannels.payment(a.companyId))?.payload as PaymentEvent | undefined,
    );
    expect(heard).toMatchObject({
      action: 'CONCLUIDA',
      invoiceId: a.invoice.id,
      company: { id: a.companyId, dueDate: plusMonths(due, 1) },
    });
    expect(await dueDateOf(a.companyId)).toBe(plusMonths(due, 1));
    expect((await http.get('/invoices/all', { token: a.token })).body.invoices[0]).toMatchObject({ id: a.invoice.id, status: 'paid' });
    // the sandbox pays once; a second pay of the same charge is refused, and the due date moved once
    expect((await http.post(`/billing/sandbox/charges/${txid}/pay`, { token: superToken })).status).toBeGreaterThanOrEqual(400);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await dueDateOf(a.companyId)).toBe(plusMonths(due, 1));
    expect(aSocket.events.filter((e) => e.name === SocketChannels.payment(a.companyId))).toHaveLength(1);
    expect(bSocket.events.filter((e) => e.name.endsWith('-payment'))).toEqual([]);
    // the other company's invoice is not theirs to pay
    const theirs = await http.post('/subscription', {
      token: a.token,
      body: { firstName: 'Ana', address: 'Rua B', city: 'Recife', zipcode: '50000-000', country: 'BR', invoiceId: b.invoice.id },
    });
    expect(theirs.status).toBe(404);
  });

  it('a company past its due date, refused at sign-in, is renewed from today and signs in again', async () => {
    const a = await company({ dueDate: daysFromToday(0), recurrence: 'TRIMESTRAL' });
    const res = await http.post('/subscription', {
      token: a.token,
      body: { firstName: 'Ana', address: 'Rua B', city: 'Recife', zipcode: '50000-000', country: 'BR', invoiceId: a.invoice.id },
    });
    expect(res.status).toBe(201);
    // it lapses before paying (the QR code was already in the customer's bank app)
    expect((await http.put(`/companies/${a.companyId}`, { token: superToken, body: { dueDate: daysFromToday(-3) } })).status).toBe(200);
    const refused = await http.post('/auth/login', { body: { email: a.email, password: a.password } });
    expect(refused.body.error).toBe('ERR_SUBSCRIPTION_EXPIRED');
    expect((await http.post(`/billing/sandbox/charges/${res.body.txid}/pay`, { token: superToken })).status).toBe(200);
    const renewed = plusMonths(daysFromToday(0), RECURRENCE_MONTHS.TRIMESTRAL as number);
    await waitFor(async () => (await dueDateOf(a.companyId)) === renewed);
    expect((await http.post('/auth/login', { body: { email: a.email, password: a.password } })).status).toBe(200);
  });

  it('a forged webhook through the gateway answers 401 and pays nothing', async () => {
    const a = await company({ dueDate: daysFromToday(10) });
    const charge = await http.post('/subscription', {
      token: a.token,
      body: { firstName: 'Ana', address: 'Rua B', city: 'Recife', zipcode: '50000-000', country: 'BR', invoiceId: a.invoice.id },
    });
    const body = JSON.stringify({
      pix: [{ endToEndId: `E${'1'.repeat(31)}`, txid: charge.body.txid, valor: '49.90', horario: new Date().toISOString() }],
    });
    const forged = await http.post('/billing/webhooks/sandbox', { rawBody: body, headers: { 'x-signature': 'sha256=deadbeef' } });
    expect(forged.status).toBe(401);
    expect(forged.body.error).toBe('ERR_WEBHOOK_SIGNATURE');
    expect((await http.get('/invoices/all', { token: a.token })).body.invoices[0].status).toBe('open');
    expect(await dueDateOf(a.companyId)).toBe(daysFromToday(10));
  });
});
