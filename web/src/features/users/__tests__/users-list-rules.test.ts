import { describe, expect, it } from '@jest/globals';
import type { UserDto } from '@wa/contracts';
import { matchesUserSearch, mergeUser, removeUserPages, upsertUserPages, userEventChange, type UserPages } from '../users-list-rules';

function aUser(id: number, name: string, extra: Partial<UserDto> = {}): UserDto {
  return {
    id,
    name,
    email: `${name.toLowerCase()}@x.com`,
    profile: 'user',
    companyId: 1,
    whatsappId: null,
    allTicket: 'desabled',
    super: false,
    online: false,
    queues: [],
    queueIds: [],
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}

const pages = (...ps: Array<{ users: UserDto[]; hasMore: boolean }>): UserPages => ({
  pages: ps.map((p) => ({ ...p, count: 5 })),
  pageParams: ps.map((_p, i) => i + 1),
});
const names = (d: UserPages) => d.pages.map((p) => p.users.map((u) => u.name));

const event = (id: number, name: string, queueIds: number[] = []) => ({
  id,
  name,
  email: `${name.toLowerCase()}@x.com`,
  profile: 'user' as const,
  queueIds,
  allTicket: 'enabled' as const,
  super: false,
  companyId: 1,
});

describe("users list cache (company-<id>-user events and this tab's saves)", () => {
  it('an update replaces the user where listed, keeping what the event leaves out', () => {
    const data = pages({
      users: [aUser(1, 'Ana', { whatsappId: 4, online: true, queues: [{ id: 10 }], queueIds: [10] }), aUser(2, 'Bia')],
      hasMore: false,
    });
    const next = upsertUserPages(data, event(1, 'Ana Souza', [10, 11]), '');
    const ana = next.pages[0].users[0];
    expect(ana).toMatchObject({ name: 'Ana Souza', whatsappId: 4, online: true, queueIds: [10, 11], allTicket: 'enabled' });
    expect(ana.queues).toEqual([{ id: 10 }, { id: 11 }]);
    expect(next.pages[0].count).toBe(5);
  });

  it('a new user joins in name order, on the page where they belong', () => {
    const data = pages(
      { users: [aUser(1, 'Ana'), aUser(2, 'Carla')], hasMore: true },
      { users: [aUser(3, 'Eva'), aUser(4, 'Gil')], hasMore: false },
    );
    expect(names(upsertUserPages(data, event(9, 'Bia'), ''))).toEqual([
      ['Ana', 'Bia', 'Carla'],
      ['Eva', 'Gil'],
    ]);
    expect(names(upsertUserPages(data, event(9, 'Dani'), ''))).toEqual([
      ['Ana', 'Carla'],
      ['Dani', 'Eva', 'Gil'],
    ]);
    expect(names(upsertUserPages(data, event(9, 'Zeca'), ''))).toEqual([
      ['Ana', 'Carla'],
      ['Eva', 'Gil', 'Zeca'],
    ]);
    expect(upsertUserPages(data, event(9, 'Bia'), '').pages.every((p) => p.count === 6)).toBe(true);
  });

  it('past the last loaded page, a new user is left for the page that brings them', () => {
    const data = pages({ users: [aUser(1, 'Ana'), aUser(2, 'Carla')], hasMore: true });
    const next = upsertUserPages(data, event(9, 'Zeca'), '');
    expect(names(next)).toEqual([['Ana', 'Carla']]);
    expect(next.pages[0].count).toBe(6);
  });

  it('a search list takes only users it would find (name or email), and drops one who no longer matches', () => {
    const data = pages({ users: [aUser(1, 'Ana')], hasMore: false });
    expect(names(upsertUserPages(data, event(9, 'Bia'), 'an'))).toEqual([['Ana']]);
    expect(names(upsertUserPages(data, event(9, 'Anabel'), 'an'))).toEqual([['Ana', 'Anabel']]);
    expect(names(upsertUserPages(data, event(1, 'Bia'), 'an'))).toEqual([[]]);
    expect(matchesUserSearch({ name: 'Bia', email: 'bia@vendas.com' }, 'VENDAS')).toBe(true);
  });

  it('a delete removes the user and lowers the count', () => {
    const data = pages({ users: [aUser(1, 'Ana'), aUser(2, 'Bia')], hasMore: false });
    const next = removeUserPages(data, 1);
    expect(names(next)).toEqual([['Bia']]);
    expect(next.pages[0].count).toBe(4);
    expect(removeUserPages(data, 99)).toBe(data);
  });

  it('reads the event', () => {
    expect(userEventChange({ action: 'delete', userId: 3 })).toEqual({ removed: 3 });
    expect(userEventChange({ action: 'create', user: event(3, 'Ana') })).toEqual({ user: event(3, 'Ana') });
    expect(mergeUser(undefined, event(3, 'Ana'))).toMatchObject({ id: 3, whatsappId: null, online: false, queues: [] });
  });
});
