import { describe, expect, it } from '@jest/globals';
import { mayPreview, showsPreview } from '../preview-access';

const agent = { id: 7, profile: 'user', queueIds: [10], allTicket: 'desabled' as const };
const seesQueueless = { ...agent, allTicket: 'enabled' as const };
const admin = { profile: 'admin', queueIds: [] };

describe('the ticket preview ("spy", spec 01 §2, §6)', () => {
  it('admins spy on any ticket; others look only at pending ones', () => {
    expect(showsPreview(admin, { status: 'open' })).toBe(true);
    expect(showsPreview(admin, { status: 'pending' })).toBe(true);
    expect(showsPreview(agent, { status: 'pending' })).toBe(true);
    expect(showsPreview(agent, { status: 'open' })).toBe(false);
    expect(showsPreview({ profile: 'user', super: true }, { status: 'closed' })).toBe(true);
  });

  it('is denied ("Acesso não permitido") when the queue is not among the user\'s and the user is not admin', () => {
    expect(mayPreview(agent, { queueId: 10, userId: null })).toBe(true);
    expect(mayPreview(agent, { queueId: 11, userId: null })).toBe(false);
    expect(mayPreview(admin, { queueId: 11, userId: null })).toBe(true);
    expect(mayPreview(null, { queueId: 11, userId: null })).toBe(false);
  });

  it('a ticket with no queue: only for users who see queueless tickets (allTicket enabled), as the server rules', () => {
    expect(mayPreview(agent, { queueId: null, userId: null })).toBe(false);
    expect(mayPreview(seesQueueless, { queueId: null, userId: null })).toBe(true);
    expect(mayPreview(admin, { queueId: null, userId: null })).toBe(true);
    // held by someone else: the server refuses it to an agent of no queue of it, whatever allTicket says
    expect(mayPreview(seesQueueless, { queueId: null, userId: 8 })).toBe(false);
    // a ticket the user holds is theirs, whatever its queue
    expect(mayPreview(agent, { queueId: null, userId: 7 })).toBe(true);
    expect(mayPreview(agent, { queueId: 11, userId: 7 })).toBe(true);
  });
});
