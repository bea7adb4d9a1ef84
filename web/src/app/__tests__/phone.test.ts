import { describe, expect, it } from '@jest/globals';
import { formatPhone } from '../phone';

describe('a contact number as people read it', () => {
  it('formats a Brazilian mobile and landline', () => {
    expect(formatPhone('5511987654321')).toBe('+55 11 98765-4321');
    expect(formatPhone('551134567890')).toBe('+55 11 3456-7890');
  });

  it('formats numbers of other countries in their international grouping', () => {
    expect(formatPhone('14155552671')).toBe('+1 415 555 2671');
    expect(formatPhone('351912345678')).toBe('+351 912 345 678');
  });

  it('shows what is not a phone number as it is (a group id, a LID, a short code, nothing)', () => {
    expect(formatPhone('120363025246125486')).toBe('120363025246125486');
    expect(formatPhone('201234567890123')).toBe('201234567890123');
    expect(formatPhone('12345')).toBe('12345');
    expect(formatPhone('5511987654321@g.us')).toBe('5511987654321@g.us');
    expect(formatPhone('')).toBe('');
    expect(formatPhone(undefined)).toBe('');
  });
});
