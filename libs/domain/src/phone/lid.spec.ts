import { lidAddress, lidOfAddress, shownNumber } from './lid.js';

describe('LID addresses', () => {
  it("names a bare LID by its address and reads the LID back, never a phone number's digits", () => {
    expect(lidAddress('123456789012345')).toBe('123456789012345@lid');
    expect(lidOfAddress('123456789012345@lid')).toBe('123456789012345');
    expect(lidOfAddress('5511999990001')).toBeNull();
    expect(lidOfAddress('5511999990001@s.whatsapp.net')).toBeNull();
    expect(lidOfAddress('120363041234567890@g.us')).toBeNull();
  });

  it('shows no number for a LID and the number otherwise', () => {
    expect(shownNumber('123456789012345@lid')).toBe('');
    expect(shownNumber('5511999990001')).toBe('5511999990001');
  });
});
