import { describe, expect, it } from '@jest/globals';
import type { ContactDto } from '@wa/contracts';
import { canChat, conflictHolder, validateContactEmail, validateContactName, validateContactNumber } from '../contact-rules';
import { removeContactPages, upsertContactPages, type ContactPages } from '../contacts.api';

const contact = (id: number, name: string, extra: Partial<ContactDto> = {}): ContactDto => ({
  id,
  companyId: 1,
  name,
  number: `55119000000${id}`,
  email: '',
  profilePicUrl: '',
  isGroup: false,
  extraInfo: [],
  isWhatsappValid: true,
  createdAt: '2026-11-24T12:00:00.000Z',
  updatedAt: '2026-11-24T12:00:00.000Z',
  ...extra,
});

describe('contact form rules (spec 01 §5)', () => {
  it('names 2–50, numbers 8–50, an email only when valid', () => {
    expect([validateContactName(''), validateContactName('A'), validateContactName('Ana'), validateContactName('A'.repeat(51))]).toEqual([
      'required',
      'tooShort',
      null,
      'tooLong',
    ]);
    expect([
      validateContactNumber(''),
      validateContactNumber('1234567'),
      validateContactNumber('12345678'),
      validateContactNumber('1'.repeat(51)),
    ]).toEqual(['required', 'tooShort', null, 'tooLong']);
    expect([validateContactEmail(''), validateContactEmail('ana@example.com'), validateContactEmail('ana@')]).toEqual([
      null,
      null,
      'invalidEmail',
    ]);
  });

  it('turns the chat button off for a missing number or one WhatsApp does not know; unchecked numbers may chat', () => {
    expect(canChat({ number: '5511987654321', isWhatsappValid: true })).toBe(true);
    expect(canChat({ number: '5511987654321', isWhatsappValid: null })).toBe(true);
    expect(canChat({ number: '5511987654321', isWhatsappValid: false })).toBe(false);
    expect(canChat({ number: '', isWhatsappValid: null })).toBe(false);
  });

  it('reads the holder out of ERR_OTHER_OPEN_TICKET and nothing out of other errors', () => {
    const err = {
      status: 409,
      data: { error: 'ERR_OTHER_OPEN_TICKET', message: 'x', userId: 7, userName: 'Bruno', queueName: null, ticketId: 42 },
    };
    expect(conflictHolder(err)).toEqual({ userId: 7, userName: 'Bruno', ticketId: 42 });
    expect(conflictHolder({ status: 400, data: { error: 'ERR_VALIDATION' } })).toBeNull();
    expect(conflictHolder(undefined)).toBeNull();
  });
});

describe('live contact lists', () => {
  const pages = (): ContactPages => ({
    pages: [{ contacts: [contact(1, 'Ana'), contact(3, 'Carla')], hasMore: false, count: 2 }],
    pageParams: [1],
  });

  it('replaces a changed contact where it is, and adds a new one in name order to the unfiltered list only', () => {
    expect(upsertContactPages(pages(), contact(3, 'Carla Dias'), true).pages[0].contacts.map((c) => c.name)).toEqual(['Ana', 'Carla Dias']);
    const added = upsertContactPages(pages(), contact(2, 'bruno'), true).pages[0];
    expect(added.contacts.map((c) => c.name)).toEqual(['Ana', 'bruno', 'Carla']);
    expect(added.count).toBe(3);
    expect(upsertContactPages(pages(), contact(2, 'Bruno'), false).pages[0].contacts).toHaveLength(2);
  });

  it('removes a deleted contact and lowers the count', () => {
    const after = removeContactPages(pages(), 1).pages[0];
    expect(after.contacts.map((c) => c.id)).toEqual([3]);
    expect(after.count).toBe(1);
  });
});
