import { describe, expect, it } from '@jest/globals';
import { brazilianWhatsappForm, numberForms } from './number-forms.js';

describe('numberForms', () => {
  it('gives a Brazilian mobile in both forms, the one given first', () => {
    expect(numberForms('5531987654321')).toEqual(['5531987654321', '553187654321']);
    expect(numberForms('553187654321')).toEqual(['553187654321', '5531987654321']);
    expect(numberForms('5511998765432')).toEqual(['5511998765432', '551198765432']);
  });

  it('gives anything else as it is: landlines, other countries, short numbers', () => {
    expect(numberForms('551133334444')).toEqual(['551133334444']);
    expect(numberForms('14155550123')).toEqual(['14155550123']);
    expect(numberForms('447911123456')).toEqual(['447911123456']);
    expect(numberForms('5531950000000')).toEqual(['5531950000000']);
  });
});

describe('brazilianWhatsappForm', () => {
  it('names a mobile of area code 31 and up without its 9th digit, below 31 with it, in whichever form it is given', () => {
    expect(brazilianWhatsappForm('5531987654321')).toBe('553187654321');
    expect(brazilianWhatsappForm('553187654321')).toBe('553187654321');
    expect(brazilianWhatsappForm('5585987654321')).toBe('558587654321');
    expect(brazilianWhatsappForm('5511987654321')).toBe('5511987654321');
    expect(brazilianWhatsappForm('551187654321')).toBe('5511987654321');
    expect(brazilianWhatsappForm('5528987654321')).toBe('5528987654321');
  });

  it('leaves what is not a Brazilian mobile as given', () => {
    expect(brazilianWhatsappForm('551133334444')).toBe('551133334444');
    expect(brazilianWhatsappForm('447911123456')).toBe('447911123456');
    expect(brazilianWhatsappForm('14155550123')).toBe('14155550123');
  });
});
