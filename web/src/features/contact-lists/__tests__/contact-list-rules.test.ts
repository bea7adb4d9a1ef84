import { describe, expect, it } from '@jest/globals';
import { importPercent, validateContactList, validateContactListItem, whatsappState } from '../contact-list-rules';

describe('contact list rules (spec 02 §5)', () => {
  it('a list name is required, 2 to 50', () => {
    expect(validateContactList({ name: '' }).name).toBe('required');
    expect(validateContactList({ name: 'a' }).name).toBe('tooShort');
    expect(validateContactList({ name: 'x'.repeat(51) }).name).toBe('tooLong');
    expect(validateContactList({ name: 'Clientes' }).name).toBeNull();
  });

  it('an item: name 2 to 50, number 8 to 50, email valid when given', () => {
    expect(validateContactListItem({ name: 'Ana', number: '5511999990000', email: '' })).toEqual({ name: null, number: null, email: null });
    expect(validateContactListItem({ name: 'A', number: '1234567', email: 'ana@' })).toEqual({
      name: 'tooShort',
      number: 'tooShort',
      email: 'invalidEmail',
    });
    expect(validateContactListItem({ name: 'Ana', number: '1'.repeat(51), email: 'ana@loja.com' }).number).toBe('tooLong');
    expect(validateContactListItem({ name: '', number: ' ', email: '' })).toMatchObject({ name: 'required', number: 'required' });
  });

  it('the import bar: processed of total, 100 when done', () => {
    expect(importPercent(null)).toBe(0);
    expect(importPercent({ processed: 0, total: 0, done: false })).toBe(0);
    expect(importPercent({ processed: 250, total: 1000, done: false })).toBe(25);
    expect(importPercent({ processed: 999, total: 1000, done: false })).toBe(99);
    expect(importPercent({ processed: 0, total: 0, done: true })).toBe(100);
  });

  it('the WhatsApp icon: valid, invalid, not checked yet', () => {
    expect(whatsappState(true)).toBe('valid');
    expect(whatsappState(false)).toBe('invalid');
    expect(whatsappState(null)).toBe('unchecked');
  });
});
