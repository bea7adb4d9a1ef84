import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PlanSubjects, Subjects, type CompanyCreatedEvent, type PlanChangedEvent, type PublicPlanDto } from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import { daysFromToday } from '@wa/domain';
import { uniqueEmail, uniqueSuffix, waitFor } from '@wa/testing';
import { randomInt } from 'node:crypto';
import { createCompanyWithAdmin, ensureFullPlan, isoDateFromNow } from '../../src/database/companies.js';
import { login, newCompany, startAuth, type AuthUnderTest } from './harness.js';

let auth: AuthUnderTest;

beforeAll(async () => {
  auth = await startAuth({ SIGNUP_MAX_PER_IP: '12' });
});

afterAll(async () => {
  await auth?.close();
});

/** A plan as billing announces it; waits until auth's copy has it. */
async function billingPlan(fields: Partial<PublicPlanDto> = {}): Promise<PublicPlanDto> {
  const plan: PublicPlanDto = {
    id: randomInt(1_000_000, 2_000_000_000),
    name: `Plano ${uniqueSuffix()}`,
    users: 3,
    connections: 3,
    queues: 3,
    value: 49,
    useCampaigns: true,
    useKanban: true,
    useOpenAi: false,
    useIntegrations: false,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: false,
    isPublic: true,
    trialDays: 14,
    ...fields,
  };
  const event: PlanChangedEvent = { plan, at: new Date().toISOString() };
  await auth.app.get(EventBus).publish(PlanSubjects.updated(plan.id), event, { msgId: `test-plan:${plan.id}:${event.at}` });
  await waitFor(
    async () => (await auth.db.query(`SELECT 1 FROM auth.plans WHERE id = $1 AND name = $2`, [plan.id, plan.name])).length === 1,
  );
  return plan;
}

describe('sign-up (spec 01 §2 /signup, POST /auth/signup)', () => {
  it('creates a company on the chosen public plan with its trial and its admin, who signs in to an empty company; announces it', async () => {
    const plan = await billingPlan({ trialDays: 14, useOpenAi: false });
    const email = uniqueEmail('nova');
    const http = auth.client();
    const seen: CompanyCreatedEvent[] = [];
    const sub = auth.app.get(EventBus).connection.subscribe(Subjects.companyCreated(0).replace(/0$/, '*'));
    const reading = (async () => {
      for await (const m of sub) {
        seen.push(m.json());
        break;
      }
    })();
    const res = await http.post('/auth/signup', {
      body: { name: 'Padaria Pão Quente', email, password: 'segredo1', phone: '11 99999-0000', planId: plan.id },
    });
    expect(res.status).toBe(201);
    expect(res.body.dueDate).toBe(daysFromToday(14));
    await reading;
    expect(seen[0]).toMatchObject({ companyId: res.body.companyId, name: 'Padaria Pão Quente' });

    const session = await login(auth.client(), email.toUpperCase(), 'segredo1');
    expect(session.user).toMatchObject({ name: 'Padaria Pão Quente', profile: 'admin', super: false, companyId: res.body.companyId });
    expect(session.user.company).toMatchObject({
      id: res.body.companyId,
      name: 'Padaria Pão Quente',
      dueDate: daysFromToday(14),
      planId: plan.id,
    });
    expect(session.user.company.plan).toMatchObject({ id: plan.id, useOpenAi: false, useSchedules: true });
    // empty and its own: one user, default settings
    expect((await http.get('/users', { token: session.token })).body.users.map((u: { email: string }) => u.email)).toEqual([email]);
    expect((await http.get('/settings', { token: session.token })).body.map((s: { key: string }) => s.key)).toContain('timezone');
  });

  it('refuses bad input, a used email and a plan that is not offered, writing nothing', async () => {
    const plan = await billingPlan();
    const hidden = await billingPlan({ isPublic: false });
    const http = auth.client();
    const ok = { name: 'Loja Boa', email: uniqueEmail('loja'), password: 'segredo1', planId: plan.id };
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ ...ok, name: 'L' }, 'Too Short!'],
      [{ ...ok, email: 'nao-e-email' }, 'Invalid email'],
      [{ ...ok, password: '123' }, 'Too Short!'],
      [{ ...ok, planId: undefined }, 'Required'],
      [{ ...ok, planId: hidden.id }, 'plan not found'],
      [{ ...ok, planId: 999_999_999 }, 'plan not found'],
    ];
    for (const [body, text] of bad) {
      const res = await http.post('/auth/signup', { body });
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error: 'ERR_VALIDATION' });
      expect(JSON.stringify(res.body)).toContain(text);
    }
    expect((await auth.db.query(`SELECT 1 FROM auth.users WHERE email = $1`, [ok.email])).length).toBe(0);
    expect((await http.post('/auth/signup', { body: ok })).status).toBe(201);
    const again = await http.post('/auth/signup', { body: { ...ok, name: 'Outra Loja', email: ok.email.toUpperCase() } });
    expect({ status: again.status, error: again.body.error }).toEqual({ status: 409, error: 'ERR_EMAIL_ALREADY_EXISTS' });
    expect((await auth.db.query(`SELECT 1 FROM auth.companies WHERE name = 'Outra Loja'`)).length).toBe(0);
  });

  it('limits sign-ups per address (429 with Retry-After): it cannot be used to list accounts or make companies in bulk', async () => {
    const http = auth.client();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await http.post('/auth/signup', { body: { name: 'Lote', email: uniqueEmail('lote'), password: 'segredo1', planId: 999_999_999 } }))
          .status,
      );
    expect(statuses.slice(0, 12).every((s) => s === 400)).toBe(true);
    const limited = await http.post('/auth/signup', {
      body: { name: 'Lote', email: uniqueEmail('lote'), password: 'segredo1', planId: 999_999_999 },
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // another address is not held back
    expect(
      (
        await auth
          .client()
          .post('/auth/signup', { body: { name: 'Lote', email: uniqueEmail('lote'), password: 'segredo1', planId: 999_999_999 } })
      ).status,
    ).toBe(400);
  });

  it("answers ERR_USER_CREATION_DISABLED while the provider's userCreation setting is disabled", async () => {
    const plan = await billingPlan();
    // the provider's company: the first super user's
    let [row] = await auth.db.query(`SELECT "companyId" FROM auth.users WHERE super ORDER BY id LIMIT 1`);
    if (!row) {
      await auth.db.transaction(async (tx) => {
        const full = await ensureFullPlan(tx);
        await createCompanyWithAdmin(tx, {
          name: 'Provedor',
          dueDate: isoDateFromNow(365),
          planId: full.id,
          admin: { name: 'Super', email: uniqueEmail('super'), password: 'segredo1', super: true },
        });
      });
      [row] = await auth.db.query(`SELECT "companyId" FROM auth.users WHERE super ORDER BY id LIMIT 1`);
    }
    const companyId = row.companyId as number;
    const set = (value: string) =>
      auth.db.query(
        `INSERT INTO auth.settings ("companyId", key, value) VALUES ($1, 'userCreation', $2) ON CONFLICT ("companyId", key) DO UPDATE SET value = EXCLUDED.value`,
        [companyId, value],
      );
    await set('disabled');
    try {
      const res = await auth
        .client()
        .post('/auth/signup', { body: { name: 'Fechada', email: uniqueEmail('fechada'), password: 'segredo1', planId: plan.id } });
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 403, error: 'ERR_USER_CREATION_DISABLED' });
    } finally {
      await set('enabled');
    }
    expect(
      (
        await auth
          .client()
          .post('/auth/signup', { body: { name: 'Aberta', email: uniqueEmail('aberta'), password: 'segredo1', planId: plan.id } })
      ).status,
    ).toBe(201);
  });

  it('a super user closes sign-up and opens it again through PUT /settings/userCreation; an ordinary admin cannot, nor see it', async () => {
    const plan = await billingPlan();
    // a super user of the platform (the provider's company is the first super user's: this one, or an older one)
    const superEmail = uniqueEmail('super');
    await auth.db.transaction(async (tx) => {
      const full = await ensureFullPlan(tx);
      await createCompanyWithAdmin(tx, {
        name: 'Provedor',
        dueDate: isoDateFromNow(365),
        planId: full.id,
        admin: { name: 'Super', email: superEmail, password: 'segredo1', super: true },
      });
    });
    const http = auth.client();
    const root = await login(http, superEmail, 'segredo1');
    const other = await newCompany(auth.db);
    const admin = await login(http, other.admin.email, other.admin.password);
    const signup = (name: string) =>
      auth.client().post('/auth/signup', { body: { name, email: uniqueEmail('porta'), password: 'segredo1', planId: plan.id } });

    // an ordinary admin neither changes it nor sees it
    const refused = await http.put('/settings/userCreation', { token: admin.token, body: { value: 'disabled' } });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 403, error: 'ERR_NO_PERMISSION' });
    expect((await http.get('/settings', { token: admin.token })).body.map((s: { key: string }) => s.key)).not.toContain('userCreation');
    expect((await signup('Ainda Aberta')).status).toBe(201);
    // the super user sees the switch (open by default) and refuses a value it does not take
    expect((await http.get('/settings', { token: root.token })).body).toEqual(
      expect.arrayContaining([{ key: 'userCreation', value: 'enabled' }]),
    );
    const odd = await http.put('/settings/userCreation', { token: root.token, body: { value: 'talvez' } });
    expect({ status: odd.status, error: odd.body.error }).toEqual({ status: 400, error: 'ERR_VALIDATION' });

    const closed = await http.put('/settings/userCreation', { token: root.token, body: { value: 'disabled' } });
    try {
      expect({ status: closed.status, body: closed.body }).toEqual({ status: 200, body: { key: 'userCreation', value: 'disabled' } });
      expect((await http.get('/settings', { token: root.token })).body).toEqual(
        expect.arrayContaining([{ key: 'userCreation', value: 'disabled' }]),
      );
      const res = await signup('Fechada');
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 403, error: 'ERR_USER_CREATION_DISABLED' });
    } finally {
      const opened = await http.put('/settings/userCreation', { token: root.token, body: { value: 'enabled' } });
      expect({ status: opened.status, body: opened.body }).toEqual({ status: 200, body: { key: 'userCreation', value: 'enabled' } });
    }
    expect((await signup('Aberta de Novo')).status).toBe(201);
  });
});
