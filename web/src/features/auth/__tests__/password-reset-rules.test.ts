import { describe, expect, it } from '@jest/globals';
import { errorText } from '../../../app/errors';
import { i18n } from '../../../app/i18n';
import { resetPasswordPath } from '../../../app/auth.api';
import {
  hasResetErrors,
  isEmailNotFound,
  normalizeCode,
  resetProblemKey,
  validateReset,
  validateResetEmail,
} from '../password-reset-rules';

const t = i18n.t.bind(i18n) as (key: string) => string;
const text = (problem: Parameters<typeof resetProblemKey>[0] | undefined) => (problem ? t(resetProblemKey(problem)) : undefined);

describe('password reset, step one (spec 02 §5)', () => {
  it('needs a valid email', () => {
    expect(validateResetEmail('ana@loja.com')).toEqual({});
    expect(text(validateResetEmail('').email)).toBe('Required');
    expect(text(validateResetEmail('ana@loja').email)).toBe('Invalid email');
  });

  it('tells an unknown address by its code (or a 404)', () => {
    expect(isEmailNotFound({ status: 404, data: { error: 'ERR_EMAIL_NOT_FOUND', message: 'Email não encontrado' } })).toBe(true);
    expect(isEmailNotFound({ status: 404, data: 'Not found' })).toBe(true);
    expect(isEmailNotFound({ status: 429, data: { error: 'ERR_TOO_MANY_ATTEMPTS' } })).toBe(false);
    expect(t('passwordReset.emailNotFound')).toBe('Email não encontrado');
    expect(t('passwordReset.sent')).toBe('Email enviado com sucesso!');
  });
});

describe('password reset, step two (spec 02 §5)', () => {
  const ok = { email: 'ana@loja.com', code: '12345678', password: 'Segura123', confirm: 'Segura123' };

  it('asks 8+ characters with an uppercase letter, a lowercase letter and a digit', () => {
    const problem = (password: string) => validateReset({ ...ok, password, confirm: password }).password;
    expect(problem('Segura123')).toBeUndefined();
    expect(problem('Segur12')).toBe('weakPassword');
    expect(problem('segura123')).toBe('weakPassword');
    expect(problem('SEGURA123')).toBe('weakPassword');
    expect(problem('SeguraSim')).toBe('weakPassword');
    expect(text(validateReset({ ...ok, password: 'fraca', confirm: 'fraca' }).password)).toBe(
      'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
    );
  });

  it('needs the confirmation to match, both required, and the 8-digit code', () => {
    expect(validateReset(ok)).toEqual({});
    expect(hasResetErrors(validateReset(ok))).toBe(false);
    expect(text(validateReset({ ...ok, confirm: 'Segura124' }).confirm)).toBe('As senhas não correspondem');
    const empty = validateReset({ ...ok, password: '', confirm: '' });
    expect(text(empty.password)).toBe('Campo obrigatório');
    expect(text(empty.confirm)).toBe('Campo obrigatório');
    expect(text(validateReset({ ...ok, code: '' }).code)).toBe('Campo obrigatório');
    expect(validateReset({ ...ok, code: '12345' }).code).toBe('invalidCode');
    // the 6 digits of before are too few
    expect(validateReset({ ...ok, code: '123456' }).code).toBe('invalidCode');
    expect(validateReset({ ...ok, email: 'x' }).email).toBe('invalidEmail');
    expect(validateReset({ ...ok, password: `Aa1${'x'.repeat(48)}`, confirm: `Aa1${'x'.repeat(48)}` }).password).toBe('tooLong');
  });

  it('keeps only the digits of a typed or pasted code', () => {
    expect(normalizeCode('1234 5678')).toBe('12345678');
    expect(normalizeCode('12-34-56-78-90')).toBe('12345678');
    expect(normalizeCode('abc')).toBe('');
  });

  it('encodes each part of the reset path', () => {
    expect(resetPasswordPath('ana+1@loja.com', '012345', 'Sen/ha?1#A %')).toBe(
      '/resetpasswords/ana%2B1%40loja.com/012345/Sen%2Fha%3F1%23A%20%25',
    );
  });

  it('translates the reset codes', () => {
    expect(errorText({ status: 400, data: { error: 'ERR_INVALID_RESET_CODE', message: 'Código inválido ou expirado.' } })).toBe(
      'Código inválido ou expirado.',
    );
    expect(errorText({ status: 404, data: { error: 'ERR_EMAIL_NOT_FOUND' } })).toBe('Email não encontrado');
    expect(t('passwordReset.done')).toBe('Senha redefinida com sucesso.');
  });
});
