import { describe, expect, it } from '@jest/globals';
import { parseStatus, parseTicketId } from './client-events.js';

describe('client event arguments', () => {
  it('reads a ticket id as Whaticket clients send it', () => {
    expect(parseTicketId(12)).toBe(12);
    expect(parseTicketId('12')).toBe(12);
    expect(parseTicketId({ ticketId: '12' })).toBe(12);
    for (const bad of [undefined, null, 0, -1, 1.5, '', 'abc', '12a', {}, [12], { ticketId: 'c:1:all' }, '9'.repeat(20)]) {
      expect(parseTicketId(bad)).toBeNull();
    }
  });

  it('reads a ticket status', () => {
    expect(parseStatus('open')).toBe('open');
    expect(parseStatus({ status: 'pending' })).toBe('pending');
    expect(parseStatus('c:1:all')).toBeNull();
    expect(parseStatus(undefined)).toBeNull();
  });
});
