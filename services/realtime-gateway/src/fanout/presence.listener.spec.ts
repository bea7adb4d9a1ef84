import { describe, expect, it } from '@jest/globals';
import { presenceEmission } from './presence.listener.js';

describe('presenceEmission', () => {
  it("sends a customer's presence to the ticket's chat box room only, on the company's presence channel", () => {
    expect(presenceEmission('presence.ticket.7', { companyId: 7, ticketId: 42, state: 'composing', at: 1 })).toEqual({
      rooms: ['c:7:ticket:42'],
      channel: 'company-7-presence',
      payload: { ticketId: 42, state: 'composing' },
    });
  });

  it('drops what does not hold together: another company than the subject names, no ticket, an unknown state', () => {
    expect(presenceEmission('presence.ticket.8', { companyId: 7, ticketId: 42, state: 'composing' })).toBeNull();
    expect(presenceEmission('presence.ticket.7', { companyId: 7, ticketId: 0, state: 'composing' })).toBeNull();
    expect(presenceEmission('presence.ticket.7', { companyId: 7, ticketId: 42, state: 'dancing' })).toBeNull();
    expect(presenceEmission('presence.ticket.7', null)).toBeNull();
  });
});
