import { describe, expect, it } from '@jest/globals';
import { maySeeTicket } from '@wa/auth';
import { permissionRooms, Rooms, ticketRooms } from './rooms.js';

describe('rooms', () => {
  it('gives admins, supervisors and super users the company-wide ticket room, agents one room per queue', () => {
    expect(permissionRooms(7, { profile: 'admin', super: false, queueIds: [1] })).toEqual(['c:7:all']);
    expect(permissionRooms(7, { profile: 'user', super: true, queueIds: [1] })).toEqual(['c:7:all']);
    expect(permissionRooms(7, { profile: 'user', super: false, queueIds: [1, 2, 2] })).toEqual(['c:7:queue:1', 'c:7:queue:2']);
    expect(permissionRooms(7, { profile: 'supervisor', super: false, queueIds: [] })).toEqual(['c:7:all']);
  });

  it('sends a ticket to admins, its queue and its owner', () => {
    expect(ticketRooms(7, { queueId: 3, userId: 9 })).toEqual(['c:7:all', 'c:7:queue:3', 'c:7:user:9']);
    expect(ticketRooms(7, { queueId: null, userId: null })).toEqual(['c:7:all', 'c:7:queueless']);
    expect(permissionRooms(7, { profile: 'user', super: false, queueIds: [1], allTicket: 'enabled' })).toEqual([
      'c:7:queue:1',
      'c:7:queueless',
    ]);
  });

  it("reaches a user's sockets with a ticket's events exactly when the shared rule lets the user see it", () => {
    const viewers = [
      { profile: 'user' as const, super: false, queueIds: [3] },
      { profile: 'supervisor' as const, super: false, queueIds: [] },
      { profile: 'admin' as const, super: false, queueIds: [] },
      { profile: 'user' as const, super: true, queueIds: [4] },
      { profile: 'user' as const, super: false, queueIds: [3], allTicket: 'enabled' as const },
      { profile: 'user' as const, super: false, queueIds: [], allTicket: 'desabled' as const },
    ];
    const places = [null, 3, 4].flatMap((queueId) => [null, 8, 9].map((userId) => ({ queueId, userId })));
    for (const v of viewers) {
      const joined = new Set([...permissionRooms(7, v), Rooms.user(7, 9)]);
      for (const place of places) {
        expect([v, place, ticketRooms(7, place).some((r) => joined.has(r))]).toEqual([v, place, maySeeTicket(9, v, place)]);
      }
    }
  });
});
