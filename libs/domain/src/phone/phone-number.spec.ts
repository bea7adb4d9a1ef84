import { describe, expect, it } from '@jest/globals';
import { canonicalPhoneNumber, inboundContactNumber, phoneNumberVariants } from './phone-number.js';

describe('canonicalPhoneNumber', () => {
  it('keeps one form for a number however it is written', () => {
    for (const written of ['+55 (11) 98765-4321', '5511987654321', '(11) 98765-4321', '11987654321', '55 11 98765 4321']) {
      expect(canonicalPhoneNumber(written)).toBe('5511987654321');
    }
  });

  it('gives a Brazilian mobile written without its 9th digit the 9', () => {
    expect(canonicalPhoneNumber('551187654321')).toBe('5511987654321');
    expect(canonicalPhoneNumber('(21) 8765-4321')).toBe('5521987654321');
  });

  it('leaves Brazilian landlines and other countries as they are', () => {
    expect(canonicalPhoneNumber('551133334444')).toBe('551133334444');
    expect(canonicalPhoneNumber('+1 415 555 2671')).toBe('14155552671');
    expect(canonicalPhoneNumber('+351 912 345 678')).toBe('351912345678');
  });

  it('refuses what is not a phone number', () => {
    for (const junk of ['', 'abc', '1234', '+55 11 1234', '99999999999999999999', '0000000000']) {
      expect(canonicalPhoneNumber(junk)).toBeNull();
    }
  });
});

describe('inboundContactNumber', () => {
  it('stores the old and the new form of a Brazilian mobile as one contact; groups and unknown ids stay', () => {
    expect(inboundContactNumber('551187654321', false)).toBe(inboundContactNumber('5511987654321', false));
    expect(inboundContactNumber('120363041234567890', true)).toBe('120363041234567890');
    expect(inboundContactNumber('99999999999999999999', false)).toBe('99999999999999999999');
    // what WhatsApp sends is what a typed number becomes
    for (const from of ['5511987654321', '551187654321', '551133334444', '14155552671', '351912345678']) {
      expect(inboundContactNumber(from, false)).toBe(canonicalPhoneNumber(from));
    }
  });
});

describe('phoneNumberVariants', () => {
  it('names both forms of a Brazilian mobile, one form otherwise', () => {
    expect(phoneNumberVariants('5511987654321')).toEqual(['5511987654321', '551187654321']);
    expect(phoneNumberVariants('14155552671')).toEqual(['14155552671']);
  });
});
