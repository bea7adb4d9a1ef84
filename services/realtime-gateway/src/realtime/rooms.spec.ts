import { describe, expect, it } from '@jest/globals';
import { maySeeTicket, permissionRooms, ticketRooms } from './rooms.js';

describe('rooms', () => {
  it('gives admins and super users the company-wide ticket room, agents one room per queue', () => {
    expect(permissionRooms(7, { profile: 'admin', super: false, queueIds: [1] })).toEqual(['c:7:all']);
    expect(permissionRooms(7, { profile: 'user', super: true, queueIds: [1] })).toEqual(['c:7:all']);
    expect(permissionRooms(7, { profile: 'user', super: false, queueIds: [1, 2, 2] })).toEqual(['c:7:queue:1', 'c:7:queue:2']);
    expect(permissionRooms(7, { profile: 'supervisor', super: false, queueIds: [] })).toEqual([]);
  });

  it('sends a ticket to admins, its queue and its owner', () => {
    expect(ticketRooms(7, { queueId: 3, userId: 9 })).toEqual(['c:7:all', 'c:7:queue:3', 'c:7:user:9']);
    expect(ticketRooms(7, { queueId: null, userId: null })).toEqual(['c:7:all']);
  });

  it('lets a user see a ticket by the same rule', () => {
    const agent = { profile: 'user' as const, super: false, queueIds: [3] };
    expect(maySeeTicket(9, agent, { queueId: 3, userId: null })).toBe(true);
    expect(maySeeTicket(9, agent, { queueId: 4, userId: 9 })).toBe(true);
    expect(maySeeTicket(9, agent, { queueId: 4, userId: 8 })).toBe(false);
    expect(maySeeTicket(9, agent, { queueId: null, userId: null })).toBe(false);
    expect(maySeeTicket(9, { ...agent, profile: 'admin' }, { queueId: 4, userId: 8 })).toBe(true);
  });
});
