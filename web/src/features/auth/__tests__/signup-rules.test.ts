import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { PublicPlanDto } from '@wa/contracts';
import { errorText } from '../../../app/errors';
import { changeLanguage, i18n } from '../../../app/i18n';
import { fetchPublicPlans } from '../public-plans';
import { formatBrl, hasSignupErrors, planLabel, signupFailure, signupRequest, validateEmail, validateSignup } from '../signup-rules';

const t = i18n.t.bind(i18n) as (key: string, options?: Record<string, unknown>) => string;
const err = (status: number, data: unknown) => ({ status, data });

afterEach(async () => {
  await changeLanguage('pt');
});

function aPlan(overrides: Partial<PublicPlanDto> = {}): PublicPlanDto {
  return {
    id: 1,
    name: 'Plano 1',
    users: 10,
    connections: 3,
    queues: 5,
    value: 29.9,
    useCampaigns: true,
    useKanban: true,
    useOpenAi: true,
    useIntegrations: true,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: true,
    isPublic: true,
    trialDays: 7,
    ...overrides,
  };
}

describe('sign-up form (spec 01 §2 /signup, §5)', () => {
  const ok = { name: 'Loja da Ana', email: 'ana@loja.com', phone: '', password: '12345', planId: 1 as number | '' };

  it('needs a company name of 2 to 50, a valid email, a password of 5 to 50 and a plan; the phone is optional', () => {
    expect(validateSignup(ok)).toEqual({});
    expect(hasSignupErrors(validateSignup(ok))).toBe(false);
    expect(validateSignup({ ...ok, name: ' ' }).name).toBe('required');
    expect(validateSignup({ ...ok, name: ' A ' }).name).toBe('tooShort');
    expect(validateSignup({ ...ok, name: 'x'.repeat(51) }).name).toBe('tooLong');
    expect(validateSignup({ ...ok, email: '' }).email).toBe('required');
    expect(validateSignup({ ...ok, email: 'ana@' }).email).toBe('invalidEmail');
    expect(validateSignup({ ...ok, password: '' }).password).toBe('required');
    expect(validateSignup({ ...ok, password: '1234' }).password).toBe('tooShort');
    expect(validateSignup({ ...ok, password: 'x'.repeat(51) }).password).toBe('tooLong');
    expect(validateSignup({ ...ok, planId: '' }).planId).toBe('required');
    expect(validateSignup({ ...ok, phone: '5'.repeat(31) }).phone).toBe('tooLong');
    expect(validateSignup({ ...ok, phone: '+55 11 98888-7777' }).phone).toBeUndefined();
  });

  it("shows the spec's texts", () => {
    expect(t(`validation.${validateSignup({ ...ok, name: 'A' }).name}`)).toBe('Too Short!');
    expect(t(`validation.${validateSignup({ ...ok, name: 'x'.repeat(60) }).name}`)).toBe('Too Long!');
    expect(t(`validation.${validateSignup({ ...ok, planId: '' }).planId}`)).toBe('Required');
    expect(t(`validation.${validateEmail('nope')}`)).toBe('Invalid email');
    expect(t('signup.success')).toBe('Usuário criado com sucesso! Faça seu login');
    expect(t('signup.failure')).toBe('Erro ao criar usuário. Verifique os dados informados.');
  });

  it('sends trimmed texts and no empty phone', () => {
    expect(signupRequest({ ...ok, name: ' Loja ', email: ' ana@loja.com ', phone: '  ' })).toEqual({
      name: 'Loja',
      email: 'ana@loja.com',
      password: '12345',
      planId: 1,
    });
    expect(signupRequest({ ...ok, phone: ' 5511988887777 ' }).phone).toBe('5511988887777');
  });
});

describe('plans in the select', () => {
  it('writes the price in reais with 2 decimals, the language’s way', () => {
    expect(formatBrl(29.9, 'pt')).toBe('R$ 29,90');
    expect(formatBrl('1234.5', 'pt')).toBe('R$ 1.234,50');
    expect(formatBrl(0, 'en')).toBe('R$ 0.00');
    expect(formatBrl(Number.NaN)).toBe('R$ 0,00');
  });

  it('shows name — price, users / connections and the trial days when there are some', () => {
    expect(planLabel(aPlan(), t, 'pt')).toBe('Plano 1 — R$ 29,90 · 10 usuários / 3 conexões · 7 dias de teste');
    expect(planLabel(aPlan({ trialDays: 0 }), t, 'pt')).toBe('Plano 1 — R$ 29,90 · 10 usuários / 3 conexões');
  });
});

describe('a refused sign-up (spec 01 §8)', () => {
  it('puts the server’s field messages under the fields', () => {
    const failure = signupFailure(
      err(400, {
        error: 'ERR_VALIDATION',
        details: [
          { field: 'name', messages: ['Too Short!'] },
          { field: 'planId', messages: ['plan not found'] },
        ],
      }),
    );
    expect(failure).toEqual({ fields: { name: 'Too Short!', planId: 'plan not found' }, notice: null });
  });

  it('tells an email in use under the email, and sign-up disabled on the form', () => {
    expect(signupFailure(err(409, { error: 'ERR_EMAIL_ALREADY_EXISTS' })).fields.email).toBe('Já existe um usuário com este email.');
    expect(signupFailure(err(403, { error: 'ERR_USER_CREATION_DISABLED' }))).toEqual({
      fields: {},
      notice: 'A criação de usuários foi desabilitada pelo administrador.',
    });
    expect(signupFailure({ status: 'FETCH_ERROR', error: 'x' })).toEqual({ fields: {}, notice: null });
  });
});

describe('the public plans list (spec 01 §7: the client without cookies)', () => {
  it('calls GET /plans/list without cookies and without the token, and keeps the public plans', async () => {
    const fetchFn = jest.fn(
      async (_url: RequestInfo | URL, _init?: RequestInit) =>
        new Response(JSON.stringify([aPlan(), aPlan({ id: 2, isPublic: false }), { nope: true }]), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    const plans = await fetchPublicPlans(fetchFn as unknown as typeof fetch, 'http://api.test');
    expect(plans.map((p) => p.id)).toEqual([1]);
    const [url, init] = fetchFn.mock.calls[0];
    expect(url).toBe('http://api.test/plans/list');
    expect(init?.credentials).toBe('omit');
    expect(new Headers(init?.headers).has('authorization')).toBe(false);
  });

  it('rejects like the API slice, so the error text reads it', async () => {
    const fetchFn = async () =>
      new Response(JSON.stringify({ error: 'ERR_SERVICE_UNAVAILABLE' }), { status: 503, headers: { 'content-type': 'application/json' } });
    await expect(fetchPublicPlans(fetchFn as unknown as typeof fetch, 'http://api.test').catch((e: unknown) => errorText(e))).resolves.toBe(
      'O serviço está indisponível no momento.',
    );
    const down = async () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(fetchPublicPlans(down as unknown as typeof fetch, 'http://api.test').catch((e: unknown) => errorText(e))).resolves.toBe(
      'Não foi possível falar com o servidor. Verifique sua conexão.',
    );
  });
});
