import { describe, expect, it } from '@jest/globals';
import { chatAddress } from './chat-address.js';

describe('chatAddress', () => {
  it("reads a send's `to` as a phone number, a group or a LID", () => {
    expect(chatAddress('5511999990001')).toEqual({ kind: 'phone', id: '5511999990001' });
    expect(chatAddress(' +55 11 99999 0001 ')).toEqual({ kind: 'phone', id: '5511999990001' });
    expect(chatAddress('120363025246125486')).toEqual({ kind: 'group', id: '120363025246125486' });
    expect(chatAddress('5511999990001-1612345678')).toEqual({ kind: 'group', id: '5511999990001-1612345678' });
    expect(chatAddress('123@lid')).toEqual({ kind: 'lid', id: '123' });
    expect(chatAddress('120363025246125486@g.us')).toEqual({ kind: 'group', id: '120363025246125486' });
    expect(chatAddress('5511999990001@s.whatsapp.net')).toEqual({ kind: 'phone', id: '5511999990001' });
  });
});
