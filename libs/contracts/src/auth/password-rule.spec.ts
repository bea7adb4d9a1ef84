import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_RULE } from './password-rule.js';

describe('PASSWORD_RULE (spec 02 §5)', () => {
  it('takes 8 to 50 characters with an upper case letter, a lower case letter and a digit', () => {
    expect(PASSWORD_RULE.test('Segura123')).toBe(true);
    expect(PASSWORD_RULE.test('Aa345678')).toBe(true);
    expect(PASSWORD_RULE.test(`Aa1${'x'.repeat(47)}`)).toBe(true);
    // any characters count, spaces and newlines included
    expect(PASSWORD_RULE.test('Aa1 \n çé!')).toBe(true);
  });

  it('refuses one too short or too long, or without one of the three kinds', () => {
    expect(PASSWORD_RULE.test('Segur12')).toBe(false);
    expect(PASSWORD_RULE.test(`Aa1${'x'.repeat(48)}`)).toBe(false);
    expect(PASSWORD_RULE.test('segura123')).toBe(false);
    expect(PASSWORD_RULE.test('SEGURA123')).toBe(false);
    expect(PASSWORD_RULE.test('SeguraSenha')).toBe(false);
    expect(PASSWORD_RULE.test('')).toBe(false);
  });

  it('says the lengths it checks', () => {
    const ok = `Aa1${'x'.repeat(PASSWORD_MIN_LENGTH - 3)}`;
    expect(PASSWORD_RULE.test(ok)).toBe(true);
    expect(PASSWORD_RULE.test(ok.slice(1))).toBe(false);
    expect(PASSWORD_RULE.test(`Aa1${'x'.repeat(PASSWORD_MAX_LENGTH - 3)}`)).toBe(true);
    expect(PASSWORD_RULE.test(`Aa1${'x'.repeat(PASSWORD_MAX_LENGTH - 2)}`)).toBe(false);
  });

  it('gives the same answer however often it is asked (no global flag, no state)', () => {
    expect([1, 2, 3].map(() => PASSWORD_RULE.test('Segura123'))).toEqual([true, true, true]);
  });
});
