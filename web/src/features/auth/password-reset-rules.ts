import { PASSWORD_MAX_LENGTH, PASSWORD_RULE } from '@wa/contracts';
import { errorCode } from '../../app/errors';
import { validateEmail } from './signup-rules';

/** The code sent by email: 8 digits. */
export const RESET_CODE_LENGTH = 8;
/**
 * What is wrong with a field of the reset form. The texts: 'Required' and 'Invalid email' (under
 * `validation`) for the email; 'Campo obrigatório', the password rule, 'As senhas não correspondem' and the
 * code's text under `passwordReset.validation`.
 */
export type ResetProblem = 'required' | 'invalidEmail' | 'fieldRequired' | 'weakPassword' | 'tooLong' | 'mismatch' | 'invalidCode';

export interface ResetValues {
  email: string;
  code: string;
  password: string;
  confirm: string;
}

export type ResetErrors = Partial<Record<keyof ResetValues, ResetProblem>>;

/** Step one: a valid email ('Invalid email', 'Required'). */
export function validateResetEmail(email: string): ResetErrors {
  const problem = validateEmail(email);
  return problem ? { email: problem } : {};
}

/** The code as typed: digits only, at most RESET_CODE_LENGTH (spaces and dashes of a pasted code go). */
export function normalizeCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, RESET_CODE_LENGTH);
}

/**
 * Step two (spec 02 §5): the email again, the 8-digit code, the new password (`PASSWORD_RULE`: 8+ characters
 * with upper, lower and digit, at most 50) and its confirmation, which must match; password and confirmation required ('Campo obrigatório').
 */
export function validateReset(v: ResetValues): ResetErrors {
  const errors: ResetErrors = validateResetEmail(v.email);
  const code = v.code.trim();
  if (!code) errors.code = 'fieldRequired';
  else if (!new RegExp(`^\\d{${RESET_CODE_LENGTH}}$`).test(code)) errors.code = 'invalidCode';
  if (!v.password) errors.password = 'fieldRequired';
  else if (v.password.length > PASSWORD_MAX_LENGTH) errors.password = 'tooLong';
  else if (!PASSWORD_RULE.test(v.password)) errors.password = 'weakPassword';
  if (!v.confirm) errors.confirm = 'fieldRequired';
  else if (v.confirm !== v.password) errors.confirm = 'mismatch';
  return errors;
}

export const hasResetErrors = (e: ResetErrors): boolean => Object.values(e).some(Boolean);

/** The translation key of a problem. */
export function resetProblemKey(problem: ResetProblem): string {
  switch (problem) {
    case 'required':
    case 'invalidEmail':
    case 'tooLong':
      return `validation.${problem}`;
    default:
      return `passwordReset.validation.${problem}`;
  }
}

/** Step one's answer: an unknown address is told on the form ('Email não encontrado'), anything else by a toast. */
export const isEmailNotFound = (err: unknown): boolean =>
  errorCode(err) === 'ERR_EMAIL_NOT_FOUND' || (!!err && typeof err === 'object' && (err as { status?: unknown }).status === 404);
