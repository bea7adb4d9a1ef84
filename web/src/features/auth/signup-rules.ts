import { PASSWORD_MAX_LENGTH, type PublicPlanDto, type SignupRequest } from '@wa/contracts';
import { errorCode, errorText } from '../../app/errors';
import { ACCOUNT_PASSWORD_MIN, serverFieldErrors } from '../../components/form-rules';

/** What is wrong with a field; the texts are under `validation` (Too Short!, Too Long!, Required, Invalid email). */
export type FieldProblem = 'required' | 'tooShort' | 'tooLong' | 'invalidEmail';

export interface SignupValues {
  name: string;
  email: string;
  phone: string;
  password: string;
  planId: number | '';
}

export type SignupErrors = Partial<Record<keyof SignupValues, FieldProblem>>;

/** spec 01 §5 and §9: names 2 to 50 characters, passwords 5 to 50; the phone is optional (at most 30). */
export const NAME_MIN = 2;
export const NAME_MAX = 50;
export const PHONE_MAX = 30;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email: required and valid ('Required', 'Invalid email'). */
export function validateEmail(email: string): 'required' | 'invalidEmail' | null {
  const e = email.trim();
  if (!e) return 'required';
  return EMAIL.test(e) ? null : 'invalidEmail';
}

function lengthProblem(value: string, min: number, max: number): FieldProblem | null {
  if (!value) return 'required';
  if (value.length < min) return 'tooShort';
  if (value.length > max) return 'tooLong';
  return null;
}

/** The sign-up form as the server checks it: company name 2–50, a valid email, password 5–50, a plan. */
export function validateSignup(v: SignupValues): SignupErrors {
  const errors: SignupErrors = {};
  const name = lengthProblem(v.name.trim(), NAME_MIN, NAME_MAX);
  if (name) errors.name = name;
  const email = validateEmail(v.email);
  if (email) errors.email = email;
  const password = lengthProblem(v.password, ACCOUNT_PASSWORD_MIN, PASSWORD_MAX_LENGTH);
  if (password) errors.password = password;
  if (v.phone.trim().length > PHONE_MAX) errors.phone = 'tooLong';
  if (v.planId === '' || !Number.isInteger(v.planId) || v.planId < 1) errors.planId = 'required';
  return errors;
}

export const hasSignupErrors = (e: SignupErrors): boolean => Object.values(e).some(Boolean);

/** The call's body: trimmed texts, no empty phone. */
export function signupRequest(v: SignupValues): SignupRequest {
  const phone = v.phone.trim();
  return { name: v.name.trim(), email: v.email.trim(), password: v.password, ...(phone ? { phone } : {}), planId: Number(v.planId) };
}

/** The BCP 47 tag of an app language, for numbers written out. */
function numberTag(language: string | undefined): string {
  const lng = (language ?? 'pt').slice(0, 2);
  return lng === 'en' ? 'en-US' : lng === 'es' ? 'es' : 'pt-BR';
}

/** A plan's price (BRL), with 2 decimals, written the language's way ("R$ 29,90"). */
export function formatBrl(value: number | string, language?: string): string {
  const n = Number(value);
  const amount = Number.isFinite(n) ? n : 0;
  return `R$ ${amount.toLocaleString(numberTag(language), { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A plan in the select: name — R$ value, users / connections, trial days (when it has some). */
export function planLabel(
  plan: Pick<PublicPlanDto, 'name' | 'value' | 'users' | 'connections' | 'trialDays'>,
  t: Translate,
  language?: string,
): string {
  const base = t('signup.planOption', {
    name: plan.name,
    value: formatBrl(plan.value, language),
    users: plan.users,
    connections: plan.connections,
  });
  return plan.trialDays > 0 ? `${base} · ${t('signup.trial', { count: plan.trialDays })}` : base;
}

export interface SignupFailure {
  /** the server's messages under the fields it refused */
  fields: Record<string, string>;
  /** what to show on the form besides the toast: the translated code (sign-up disabled, too many attempts...) */
  notice: string | null;
}

/**
 * spec 01 §8: a failed sign-up shows "Erro ao criar usuário. Verifique os dados informados."; with it the
 * field errors under their fields (ERR_VALIDATION), an email in use under the email, and any other code's
 * translated text (ERR_USER_CREATION_DISABLED) on the form.
 */
export function signupFailure(err: unknown): SignupFailure {
  const code = errorCode(err);
  if (code === 'ERR_VALIDATION') return { fields: serverFieldErrors(err), notice: null };
  const text = errorText(err);
  if (code === 'ERR_EMAIL_ALREADY_EXISTS') return { fields: { email: text }, notice: null };
  return { fields: {}, notice: code ? text : null };
}
