import { describe, expect, it } from '@jest/globals';
import { mayPreview, showsPreview } from '../preview-access';

const agent = { profile: 'user', queueIds: [10] };
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
    expect(mayPreview(agent, { queueId: 10 })).toBe(true);
    expect(mayPreview(agent, { queueId: 11 })).toBe(false);
    expect(mayPreview(agent, { queueId: null })).toBe(true);
    expect(mayPreview(admin, { queueId: 11 })).toBe(true);
    expect(mayPreview(null, { queueId: 11 })).toBe(false);
  });
});
