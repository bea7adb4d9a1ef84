import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signServiceToken } from '@wa/auth';
import {
  BillingSubjects,
  paymentConfirmedSubject,
  planEpochKey,
  PlanSubjects,
  Subjects,
  type CompanyBillingCopy,
  type CompanyCreatedEvent,
  type CompanyUpdatedEvent,
  type InvoicePaidEvent,
  type PaymentEvent,
  type PlanChangedEvent,
  type PublicPlanDto,
} from '@wa/contracts';
import { brDate, todayIn } from '@wa/domain';
import { EventBus } from '@wa/event-bus';
import { REDIS } from '@wa/server-kit';
import { uniqueEmail, uniqueSuffix, waitFor } from '@wa/testing';
import { addMonths, format, parseISO } from 'date-fns';
import type { Redis } from 'ioredis';
import { randomInt, randomUUID } from 'node:crypto';
import { createCompanyWithAdmin, ensureFullPlan, isoDateFromNow } from '../../src/database/companies.js';
import { CompanyEntity } from '../../src/database/entities/index.js';
import { INVOICES_PAID_DURABLE } from '../../src/renewals/consumers/invoice-paid.consumer.js';
import { login, newCompany, startAuth, type AuthUnderTest, type TestCompany } from './harness.js';

let auth: AuthUnderTest;
let bus: EventBus;

beforeAll(async () => {
  auth = await startAuth();
  bus = auth.app.get(EventBus);
});

afterAll(async () => {
  await auth?.close();
});

// far from the invoice ids billing's own tests use
let nextInvoice = randomInt(1_000_000_000, 2_000_000_000);
const newInvoiceId = () => nextInvoice++;

const monthsAfter = (day: string, months: number) => format(addMonths(parseISO(day), months), 'yyyy-MM-dd');

async function companyRow(companyId: number): Promise<CompanyEntity> {
  return auth.db.getRepository(CompanyEntity).findOneByOrFail({ id: companyId });
}

async function setCompany(companyId: number, patch: Partial<Pick<CompanyEntity, 'recurrence' | 'dueDate' | 'status' | 'planId'>>) {
  await auth.db.getRepository(CompanyEntity).update({ id: companyId }, patch);
}

/** billing's `billing.invoice.paid` for a company's invoice; each call its own message (a webhook delivered again is another one). */
async function invoicePaid(companyId: number, invoiceId: number, fields: Partial<InvoicePaidEvent> = {}): Promise<InvoicePaidEvent> {
  const company = await companyRow(companyId);
  const event: InvoicePaidEvent = {
    invoiceId,
    companyId,
    dueDate: company.dueDate,
    planId: company.planId,
    amount: '49.90',
    paidAt: new Date().toISOString(),
    endToEndId: `E${randomUUID().replace(/-/g, '').slice(0, 31)}`,
    ...fields,
  };
  await bus.publish(BillingSubjects.invoicePaid(companyId), event, { msgId: `test-invoice-paid:${randomUUID()}` });
  return event;
}

/** Waits until auth recorded the invoice's renewal; the company as it is then. */
async function renewed(invoiceId: number): Promise<CompanyEntity> {
  const row = await waitFor(async () => {
    const [r] = await auth.db.query(`SELECT "companyId" FROM auth.invoice_renewals WHERE "invoiceId" = $1`, [invoiceId]);
    return r as { companyId: number } | undefined;
  });
  return companyRow(row.companyId);
}

/** Waits until auth's durable has handled everything published so far (nothing waiting, nothing unacked). */
async function drained(): Promise<void> {
  const jsm = await bus.connection.jetstreamManager();
  await waitFor(async () => {
    const info = await jsm.consumers.info('BILLING', INVOICES_PAID_DURABLE);
    return info.num_pending === 0 && info.num_ack_pending === 0;
  });
}

/** Every message published on `subject` from now on, as a core subscriber sees it. */
function listen<T>(subject: string): { seen: T[]; stop: () => void } {
  const seen: T[] = [];
  const sub = bus.connection.subscribe(subject);
  void (async () => {
    for await (const m of sub) seen.push(m.json<T>());
  })();
  return { seen, stop: () => sub.unsubscribe() };
}

/** A plan as billing announces it; waits until auth's copy has it. */
async function billingPlan(): Promise<PublicPlanDto> {
  const plan: PublicPlanDto = {
    id: randomInt(1_000_000, 2_000_000_000),
    name: `Plano ${uniqueSuffix()}`,
    users: 5,
    connections: 5,
    queues: 5,
    value: 99.9,
    useCampaigns: true,
    useKanban: true,
    useOpenAi: true,
    useIntegrations: true,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: true,
    isPublic: true,
    trialDays: 7,
  };
  const event: PlanChangedEvent = { plan, at: new Date().toISOString() };
  await bus.publish(PlanSubjects.updated(plan.id), event, { msgId: `test-plan:${plan.id}:${event.at}` });
  await waitFor(async () => (await auth.db.query(`SELECT 1 FROM auth.plans WHERE id = $1`, [plan.id])).length === 1);
  return plan;
}

async function superUser() {
  const email = uniqueEmail('super');
  const password = 'super-secret-1';
  await auth.db.transaction(async (tx) => {
    const plan = await ensureFullPlan(tx);
    await createCompanyWithAdmin(tx, {
      name: `Staff ${uniqueSuffix()}`,
      dueDate: isoDateFromNow(365),
      planId: plan.id,
      admin: { name: 'Super', email, password, super: true },
    });
  });
  const http = auth.client();
  return { http, token: (await login(http, email, password)).token };
}

describe('the renewal when billing settles an invoice (billing.invoice.paid)', () => {
  it('adds the recurrence’s months to a due date not reached yet, on the calendar (31 January + 1 month = 28 February)', async () => {
    const months: Record<string, string> = {
      MENSAL: '2099-02-28',
      BIMESTRAL: '2099-03-31',
      TRIMESTRAL: '2099-04-30',
      SEMESTRAL: '2099-07-31',
      ANUAL: '2100-01-31',
    };
    const cases = await Promise.all(
      Object.keys(months).map(async (recurrence) => {
        const c = await newCompany(auth.db, { dueDate: '2099-01-31' });
        await setCompany(c.companyId, { recurrence });
        return { recurrence, c, invoiceId: newInvoiceId() };
      }),
    );
    for (const { c, invoiceId } of cases) await invoicePaid(c.companyId, invoiceId);
    for (const { recurrence, c, invoiceId } of cases) {
      const company = await renewed(invoiceId);
      expect({ recurrence, companyId: company.id, dueDate: company.dueDate }).toEqual({
        recurrence,
        companyId: c.companyId,
        dueDate: months[recurrence],
      });
      const [row] = await auth.db.query(`SELECT "fromDueDate"::text, "toDueDate"::text FROM auth.invoice_renewals WHERE "invoiceId" = $1`, [
        invoiceId,
      ]);
      expect(row).toEqual({ fromDueDate: '2099-01-31', toDueDate: months[recurrence] });
    }
  });

  it('counts from today on the company’s own calendar when the due date has passed; the refused sign-in works again', async () => {
    const c = await newCompany(auth.db, { dueDate: isoDateFromNow(-5) });
    // its calendar: the date line's far side, a day ahead of São Paulo for most of the day
    await auth.db.query(`UPDATE auth.settings SET value = 'Pacific/Kiritimati' WHERE "companyId" = $1 AND key = 'timezone'`, [c.companyId]);
    const refused = await auth.client().post('/auth/login', { body: c.admin });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 401, error: 'ERR_SUBSCRIPTION_EXPIRED' });
    expect(refused.body.message).toContain(brDate(isoDateFromNow(-5)));

    const invoiceId = newInvoiceId();
    await invoicePaid(c.companyId, invoiceId);
    const company = await renewed(invoiceId);
    expect(company.dueDate).toBe(monthsAfter(todayIn('Pacific/Kiritimati'), 1));
    const session = await login(auth.client(), c.admin.email, c.admin.password);
    expect(session.user.company.dueDate).toBe(company.dueDate);
  });

  it('renews once for one invoice announced twice (a webhook delivered again, a webhook and a poll); once more for the next invoice', async () => {
    const c = await newCompany(auth.db, { dueDate: '2098-05-10' });
    const updates = listen<CompanyUpdatedEvent>(Subjects.companyUpdated(c.companyId));
    const payments = listen<PaymentEvent>(paymentConfirmedSubject(c.companyId));
    const epochs = auth.app.get<Redis>(REDIS);
    const epochBefore = Number(await epochs.get(planEpochKey(c.companyId)));
    try {
      const first = newInvoiceId();
      await Promise.all([invoicePaid(c.companyId, first), invoicePaid(c.companyId, first)]);
      await invoicePaid(c.companyId, first);
      expect((await renewed(first)).dueDate).toBe('2098-06-10');
      // the next invoice comes after the repeats on the company's subject: once it is renewed, the repeats were handled
      const second = newInvoiceId();
      await invoicePaid(c.companyId, second);
      const company = await renewed(second);
      expect(company.dueDate).toBe('2098-07-10');
      await waitFor(async () => payments.seen.length >= 2 && updates.seen.length >= 2);
      await new Promise((r) => setTimeout(r, 500));

      const rows = await auth.db.query(`SELECT "invoiceId" FROM auth.invoice_renewals WHERE "companyId" = $1 ORDER BY "invoiceId"`, [
        c.companyId,
      ]);
      expect(rows.map((r: { invoiceId: number }) => r.invoiceId)).toEqual([first, second]);
      const view = { id: c.companyId, name: company.name, planId: company.planId, status: true, recurrence: 'MENSAL' };
      expect(payments.seen).toEqual([
        { action: 'CONCLUIDA', invoiceId: first, company: { ...view, dueDate: '2098-06-10' } },
        { action: 'CONCLUIDA', invoiceId: second, company: { ...view, dueDate: '2098-07-10' } },
      ]);
      expect(updates.seen.map((u) => u.dueDate)).toEqual(['2098-06-10', '2098-07-10']);
      expect(updates.seen[1]).toEqual({
        companyId: c.companyId,
        name: company.name,
        planId: company.planId,
        status: true,
        dueDate: '2098-07-10',
        email: null,
        recurrence: 'MENSAL',
        at: expect.any(String),
      });
      // the plan gate was told
      expect(Number(await epochs.get(planEpochKey(c.companyId)))).toBeGreaterThanOrEqual(epochBefore + 2);
    } finally {
      updates.stop();
      payments.stop();
    }
  });

  it('moves the company to the plan chosen at the checkout when auth knows it; an unknown plan leaves its plan', async () => {
    const plan = await billingPlan();
    const c = await newCompany(auth.db, { dueDate: '2097-03-15' });
    const before = (await companyRow(c.companyId)).planId;
    const moved = newInvoiceId();
    await invoicePaid(c.companyId, moved, { planId: plan.id });
    expect(await renewed(moved)).toMatchObject({ planId: plan.id, dueDate: '2097-04-15' });
    const session = await login(auth.client(), c.admin.email, c.admin.password);
    expect(session.user.company.plan).toMatchObject({ id: plan.id, name: plan.name });

    const unknown = newInvoiceId();
    await invoicePaid(c.companyId, unknown, { planId: 2_147_000_000 });
    expect(await renewed(unknown)).toMatchObject({ planId: plan.id, dueDate: '2097-05-15' });
    expect(before).not.toBe(plan.id);
  });

  it('renews a company the provider disabled without enabling it: its users stay out', async () => {
    const c = await newCompany(auth.db, { dueDate: isoDateFromNow(-1) });
    await setCompany(c.companyId, { status: false });
    const invoiceId = newInvoiceId();
    await invoicePaid(c.companyId, invoiceId);
    expect(await renewed(invoiceId)).toMatchObject({ status: false, dueDate: monthsAfter(todayIn('America/Sao_Paulo'), 1) });
    const refused = await auth.client().post('/auth/login', { body: c.admin });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 403, error: 'ERR_NO_PERMISSION' });
  });

  it('acks and skips an event for a company that is gone, and one whose payload names another company than its subject', async () => {
    const c = await newCompany(auth.db, { dueDate: '2096-01-10' });
    const gone = newInvoiceId();
    await invoicePaid(c.companyId, gone, { companyId: 2_147_000_001 });
    const wrongSubject = newInvoiceId();
    const event: InvoicePaidEvent = {
      invoiceId: wrongSubject,
      companyId: c.companyId,
      dueDate: '2096-01-10',
      planId: (await companyRow(c.companyId)).planId,
      amount: '49.90',
      paidAt: new Date().toISOString(),
      endToEndId: 'E1',
    };
    await bus.publish(BillingSubjects.invoicePaid(c.companyId + 1), event, { msgId: `test-invoice-paid:${randomUUID()}` });
    await bus.publish(BillingSubjects.invoicePaid(c.companyId), { invoiceId: 'x', companyId: c.companyId }, { msgId: randomUUID() });
    await drained();
    const rows = await auth.db.query(`SELECT 1 FROM auth.invoice_renewals WHERE "invoiceId" = ANY($1::int[])`, [[gone, wrongSubject]]);
    expect(rows).toEqual([]);
    expect((await companyRow(c.companyId)).dueDate).toBe('2096-01-10');
    // and goes on with the next one
    const next = newInvoiceId();
    await invoicePaid(c.companyId, next);
    expect((await renewed(next)).dueDate).toBe('2096-02-10');
  });
});

describe('what billing keeps of a company', () => {
  it('company.created and company.updated carry the plan, status, due date, billing email and recurrence', async () => {
    const staff = await superUser();
    const plan = await billingPlan();
    const created = listen<CompanyCreatedEvent>(Subjects.companyCreated(0).replace(/0$/, '*'));
    const updated = listen<CompanyUpdatedEvent>(Subjects.companyUpdated(0).replace(/0$/, '*'));
    try {
      const email = uniqueEmail('billing');
      const res = await staff.http.post('/companies', {
        token: staff.token,
        body: { name: `Loja ${uniqueSuffix()}`, email, planId: plan.id, dueDate: '2095-08-20', recurrence: 'TRIMESTRAL' },
      });
      expect(res.status).toBe(201);
      const id = res.body.id as number;
      const fields = { planId: plan.id, status: true, dueDate: '2095-08-20', email, recurrence: 'TRIMESTRAL' };
      const made = await waitFor(async () => created.seen.find((e) => e.companyId === id));
      expect(made).toEqual({ companyId: id, name: res.body.name, at: expect.any(String), ...fields });

      const changed = await staff.http.put(`/companies/${id}`, {
        token: staff.token,
        body: { recurrence: 'ANUAL', email: 'Cobranca@Loja.example' },
      });
      expect(changed.status).toBe(200);
      const last = await waitFor(async () => updated.seen.find((e) => e.companyId === id && e.recurrence === 'ANUAL'));
      expect(last).toEqual({
        companyId: id,
        name: res.body.name,
        at: expect.any(String),
        ...fields,
        recurrence: 'ANUAL',
        email: 'cobranca@loja.example',
      });

      // a sign-up's billing email is its admin's
      const signupEmail = uniqueEmail('signup');
      const signed = await auth.client().post('/auth/signup', {
        body: { name: `Padaria ${uniqueSuffix()}`, email: signupEmail, password: 'segredo1', planId: plan.id },
      });
      expect(signed.status).toBe(201);
      const fromSignup = await waitFor(async () => created.seen.find((e) => e.companyId === signed.body.companyId));
      expect(fromSignup).toMatchObject({
        planId: plan.id,
        status: true,
        dueDate: signed.body.dueDate,
        email: signupEmail,
        recurrence: 'MENSAL',
      });
    } finally {
      created.stop();
      updated.stop();
    }
  });

  it('GET /internal/companies/billing pages the companies by id, to services only', async () => {
    const made: TestCompany[] = [];
    for (let i = 0; i < 3; i++) made.push(await newCompany(auth.db, { dueDate: `2094-0${i + 1}-05` }));
    await setCompany(made[1]!.companyId, { recurrence: 'SEMESTRAL', status: false });
    const ids = made.map((m) => m.companyId);
    const http = auth.client();
    const token = signServiceToken('billing', auth.env.JWT_SECRET);
    const page = async (afterId: number, limit: number) => {
      const res = await http.get(`/internal/companies/billing?afterId=${afterId}&limit=${limit}`, { token });
      expect(res.status).toBe(200);
      return res.body.companies as CompanyBillingCopy[];
    };
    const first = await page(ids[0]! - 1, 2);
    expect(first.map((c) => c.companyId)).toEqual(ids.slice(0, 2));
    const second = await page(first[1]!.companyId, 1);
    expect(second.map((c) => c.companyId)).toEqual([ids[2]]);
    const row = await companyRow(ids[1]!);
    expect(first[1]).toEqual({
      companyId: ids[1],
      name: row.name,
      email: null,
      planId: row.planId,
      status: false,
      dueDate: '2094-02-05',
      recurrence: 'SEMESTRAL',
      at: row.updatedAt.toISOString(),
    });
    // by default from the first company, at most 500
    const all = await http.get('/internal/companies/billing', { token });
    expect(all.status).toBe(200);
    expect(all.body.companies.length).toBeGreaterThan(0);
    expect(all.body.companies.length).toBeLessThanOrEqual(500);
    const listed = all.body.companies.map((c: CompanyBillingCopy) => c.companyId);
    expect(listed).toEqual([...listed].sort((a: number, b: number) => a - b));

    for (const query of ['limit=1001', 'limit=0', 'afterId=-1', 'afterId=abc']) {
      const bad = await http.get(`/internal/companies/billing?${query}`, { token });
      expect({ query, status: bad.status, error: bad.body.error }).toEqual({ query, status: 400, error: 'ERR_VALIDATION' });
    }
    const admin = await login(auth.client(), made[0]!.admin.email, made[0]!.admin.password);
    const asUser = await http.get('/internal/companies/billing', { token: admin.token });
    expect({ status: asUser.status, error: asUser.body.error }).toEqual({ status: 401, error: 'ERR_UNAUTHENTICATED' });
    expect((await http.get('/internal/companies/billing')).status).toBe(401);
  });
});
