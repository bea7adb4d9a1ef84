import { describe, expect, it } from '@jest/globals';
import { maySeeTicket, seesAllTickets, type TicketViewer } from './visibility.js';

const agent: TicketViewer = { profile: 'user', super: false, queueIds: [3] };

describe('ticket visibility', () => {
  it('lets admins and super users see every ticket, nobody else', () => {
    expect(seesAllTickets({ profile: 'admin', super: false })).toBe(true);
    expect(seesAllTickets({ profile: 'user', super: true })).toBe(true);
    expect(seesAllTickets({ profile: 'user', super: false })).toBe(false);
    expect(seesAllTickets({ profile: 'supervisor', super: false })).toBe(true);
    expect(maySeeTicket(9, { ...agent, profile: 'admin', queueIds: [] }, { queueId: 4, userId: 8 })).toBe(true);
    expect(maySeeTicket(9, { ...agent, super: true, queueIds: [] }, { queueId: null, userId: null })).toBe(true);
  });

  it('lets an agent see the tickets of their queues, held by anyone or nobody', () => {
    expect(maySeeTicket(9, agent, { queueId: 3, userId: null })).toBe(true);
    expect(maySeeTicket(9, agent, { queueId: 3, userId: 8 })).toBe(true);
  });

  it('lets an agent see a ticket they hold, whatever its queue', () => {
    expect(maySeeTicket(9, agent, { queueId: 4, userId: 9 })).toBe(true);
    expect(maySeeTicket(9, agent, { queueId: null, userId: 9 })).toBe(true);
  });

  it("hides another queue's tickets and tickets with neither queue nor holder from agents and supervisors", () => {
    expect(maySeeTicket(9, agent, { queueId: 4, userId: 8 })).toBe(false);
    expect(maySeeTicket(9, agent, { queueId: 4, userId: null })).toBe(false);
    expect(maySeeTicket(9, agent, { queueId: null, userId: null })).toBe(false);
    expect(maySeeTicket(9, { ...agent, profile: 'supervisor' }, { queueId: 4, userId: 8 })).toBe(true);
    expect(maySeeTicket(9, { ...agent, queueIds: [] }, { queueId: 3, userId: null })).toBe(false);
  });

  it('lets an agent whose allTicket is enabled also see the tickets no queue and no one holds, nothing more', () => {
    const all = { ...agent, allTicket: 'enabled' as const };
    expect(maySeeTicket(9, all, { queueId: null, userId: null })).toBe(true);
    expect(maySeeTicket(9, { ...agent, allTicket: 'desabled' }, { queueId: null, userId: null })).toBe(false);
    // held by someone else, or in another queue: still not theirs
    expect(maySeeTicket(9, all, { queueId: null, userId: 8 })).toBe(false);
    expect(maySeeTicket(9, all, { queueId: 4, userId: null })).toBe(false);
  });
});
