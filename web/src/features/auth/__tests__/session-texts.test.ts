import { afterEach, describe, expect, it } from '@jest/globals';
import { errorText } from '../../../app/errors';
import { changeLanguage } from '../../../app/i18n';
import { brDate, companyTimeZone, expiryWarningDays } from '../../../app/expiry';

const err = (status: number, data: unknown) => ({ status, data });

afterEach(async () => {
  await changeLanguage('pt');
});

describe('error texts (spec 01 §8)', () => {
  it('translates a known code, in the chosen language', async () => {
    expect(errorText(err(401, { error: 'ERR_INVALID_CREDENTIALS', message: 'Wrong email or password.' }))).toBe(
      'Falha na autenticação. Verifique seu e-mail e senha.',
    );
    await changeLanguage('en');
    expect(errorText(err(401, { error: 'ERR_INVALID_CREDENTIALS' }))).toBe('Authentication failed. Please check your email and password.');
    await changeLanguage('es');
    expect(errorText(err(401, { error: 'ERR_INVALID_CREDENTIALS' }))).toBe(
      'Error de autenticación. Verifique su correo electrónico y contraseña.',
    );
  });

  it('puts the due date into the expired-subscription text', () => {
    expect(errorText(err(401, { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2026-01-31', message: 'x' }))).toBe(
      'Opss! Sua assinatura venceu 31/01/2026. Entre em contato com o Suporte para mais informações!',
    );
  });

  it('shows the raw text of an unknown code, a plain string as is, otherwise the generic text', () => {
    expect(errorText(err(400, { error: 'ERR_SOMETHING_NEW', message: 'Algo novo' }))).toBe('Algo novo');
    expect(errorText(err(500, 'Bad gateway'))).toBe('Bad gateway');
    expect(errorText(undefined)).toBe('Ocorreu um erro!');
  });
});

describe('subscription expiry warning (spec 01 §4 "Session")', () => {
  const now = new Date(2026, 10, 22, 15, 0);
  it('warns when fewer than 5 days remain', () => {
    expect(expiryWarningDays('2026-11-22', now)).toBe(0);
    expect(expiryWarningDays('2026-11-26', now)).toBe(4);
    expect(expiryWarningDays('2026-11-27', now)).toBeNull();
    expect(expiryWarningDays('2026-11-21', now)).toBeNull();
    expect(expiryWarningDays(undefined, now)).toBeNull();
  });

  it("counts the days on the company's calendar (its timezone setting), not UTC's nor the browser's", () => {
    // 01:30 UTC on the 23rd is still 22:30 on the 22nd in São Paulo: the due date is today there, not yesterday
    const lateEvening = new Date('2026-11-23T01:30:00Z');
    expect(expiryWarningDays('2026-11-22', lateEvening, 'America/Sao_Paulo')).toBe(0);
    expect(expiryWarningDays('2026-11-22', lateEvening, 'UTC')).toBeNull();
    expect(expiryWarningDays('2026-11-24', lateEvening, companyTimeZone({ settings: [{ key: 'timezone', value: 'Asia/Tokyo' }] }))).toBe(1);
    expect(companyTimeZone({ settings: [{ key: 'timezone', value: 'Mars/Olympus' }] })).toBe('America/Sao_Paulo');
    expect(companyTimeZone(undefined)).toBe('America/Sao_Paulo');
  });

  it('writes dates as DD/MM/YYYY', () => {
    expect(brDate('2027-03-09')).toBe('09/03/2027');
  });
});
