import type { UserDto } from '@wa/contracts';

/**
 * What the app keeps in local storage. The session keys are cleared on logout; the preferences
 * (theme, language, volume) stay with the browser, until the account is used elsewhere (then all goes).
 */
export const StorageKeys = {
  token: 'token',
  companyId: 'companyId',
  userId: 'userId',
  /** the signed-in user as last seen (the app starts with it, /auth/me renews it) */
  user: 'user',
  preferredTheme: 'preferredTheme',
  language: 'i18nextLng',
  volume: 'volume',
} as const;

const SESSION_KEYS = [StorageKeys.token, StorageKeys.companyId, StorageKeys.userId, StorageKeys.user];

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readItem(key: string): string | null {
  return store()?.getItem(key) ?? null;
}

export function writeItem(key: string, value: string): void {
  store()?.setItem(key, value);
}

export function getToken(): string | null {
  return readItem(StorageKeys.token);
}

/**
 * Whether there is a session, for the route guards: they work without the Redux store, which the
 * login page does not load up front.
 */
const tokenListeners = new Set<() => void>();

function tokenChanged(): void {
  for (const l of tokenListeners) l();
}

export function subscribeToken(listener: () => void): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

export function storeSession(token: string, user?: UserDto): void {
  const had = getToken();
  writeItem(StorageKeys.token, token);
  if (user) storeUser(user);
  if (had !== token) tokenChanged();
}

export function storeUser(user: UserDto): void {
  writeItem(StorageKeys.companyId, String(user.companyId));
  writeItem(StorageKeys.userId, String(user.id));
  writeItem(StorageKeys.user, JSON.stringify(user));
}

/** The user of the stored session, as last seen; null when there is none or it does not fit the session. */
export function readStoredUser(): UserDto | null {
  if (!getToken()) return null;
  try {
    const user = JSON.parse(readItem(StorageKeys.user) ?? 'null') as UserDto | null;
    const ok =
      user &&
      typeof user.id === 'number' &&
      typeof user.companyId === 'number' &&
      typeof user.name === 'string' &&
      String(user.id) === readItem(StorageKeys.userId);
    return ok ? user : null;
  } catch {
    return null;
  }
}

/** Logout: the token and the company go. */
export function clearSession(): void {
  const s = store();
  if (!s) return;
  for (const key of SESSION_KEYS) s.removeItem(key);
  tokenChanged();
}

/** The account was used elsewhere: the local storage is cleared, preferences too (spec 01 §4). */
export function clearLocalStorage(): void {
  const s = store();
  if (!s) return;
  s.clear();
  tokenChanged();
}
