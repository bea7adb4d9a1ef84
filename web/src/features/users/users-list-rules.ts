import type { UserChannelPayload, UserDto, UsersPage } from '@wa/contracts';

/** A cached users list: the pages loaded so far of one search. */
export type UserPages = { pages: UsersPage[]; pageParams: number[] };

/** The user a `company-<id>-user` event carries, as the list shows it. */
export type UserEventUser = Extract<UserChannelPayload, { user: unknown }>['user'];

/** A change of a user, from a live event (partial: no default connection) or from this tab's own save (whole). */
export type UserChange = UserDto | UserEventUser;

/** Whether the server's search (name or email containing the text, any case) would list this user. */
export function matchesUserSearch(user: Pick<UserDto, 'name' | 'email'>, search: string): boolean {
  const term = search.trim().toLowerCase();
  return !term || user.name.toLowerCase().includes(term) || user.email.toLowerCase().includes(term);
}

/** The change laid over what the list knew of the user: what the event leaves out (default connection, online) is kept. */
export function mergeUser(existing: UserDto | undefined, change: UserChange): UserDto {
  const queueIds = change.queueIds ?? existing?.queueIds ?? [];
  const now = new Date().toISOString();
  return {
    whatsappId: null,
    online: false,
    createdAt: now,
    updatedAt: now,
    ...existing,
    ...change,
    queueIds,
    queues: queueIds.map((id) => existing?.queues.find((q) => q.id === id) ?? { id }),
  } as UserDto;
}

/** The list's order (the server's): by name, then id. */
function before(a: Pick<UserDto, 'name' | 'id'>, b: Pick<UserDto, 'name' | 'id'>): boolean {
  const byName = a.name.toLowerCase().localeCompare(b.name.toLowerCase());
  return byName < 0 || (byName === 0 && a.id < b.id);
}

/**
 * A user changed: replaced where a loaded page holds them (gone when they no longer match the search);
 * a user not listed yet joins, in name order, the loaded pages of every list whose search they match
 * (after the last loaded page: left for the page that will bring them).
 */
export function upsertUserPages(data: UserPages, change: UserChange, search: string): UserPages {
  const existing = data.pages.flatMap((p) => p.users).find((u) => u.id === change.id);
  const user = mergeUser(existing, change);
  const matches = matchesUserSearch(user, search);
  if (existing) {
    if (!matches) return removeUserPages(data, user.id);
    return {
      ...data,
      pages: data.pages.map((p) =>
        p.users.some((u) => u.id === user.id) ? { ...p, users: p.users.map((u) => (u.id === user.id ? user : u)) } : p,
      ),
    };
  }
  if (!matches || data.pages.length === 0) return data;
  const count = data.pages[0].count + 1;
  const at = data.pages.findIndex((p) => p.users.some((u) => before(user, u)));
  const last = data.pages.length - 1;
  const into = at >= 0 ? at : data.pages[last].hasMore ? -1 : last;
  const pages = data.pages.map((p, i) => {
    if (i !== into) return { ...p, count };
    const users = [...p.users];
    const pos = users.findIndex((u) => before(user, u));
    users.splice(pos < 0 ? users.length : pos, 0, user);
    return { ...p, users, count };
  });
  return { ...data, pages };
}

export function removeUserPages(data: UserPages, userId: number): UserPages {
  if (!data.pages.some((p) => p.users.some((u) => u.id === userId))) return data;
  return {
    ...data,
    pages: data.pages.map((p) => ({ ...p, users: p.users.filter((u) => u.id !== userId), count: Math.max(0, p.count - 1) })),
  };
}

/** What a `company-<id>-user` event does to the lists. */
export function userEventChange(p: UserChannelPayload): { user: UserChange } | { removed: number } {
  return p.action === 'delete' ? { removed: p.userId } : { user: p.user };
}
