import type { UserDto } from '@wa/contracts';
import { sessionStarted } from '../../app/session';
import { storeSession } from '../../app/storage';
import { store } from '../../app/store';
import { authApi } from '../../app/auth.api';
import { companyTimeZone, expiryWarningDays } from '../../app/expiry';

/**
 * POST /auth/login through the API slice; on success the session is in the store and in local
 * storage (which sends the guards to the app). Loaded by the login page on the first interaction,
 * so that the page itself does not carry the store. Rejects with the call's error.
 */
export async function signIn(email: string, password: string, newPassword?: string): Promise<UserDto> {
  const request = store.dispatch(authApi.endpoints.login.initiate(newPassword ? { email, password, newPassword } : { email, password }));
  try {
    const { token, user } = await request.unwrap();
    store.dispatch(sessionStarted({ token, user }));
    storeSession(token, user);
    return user;
  } finally {
    request.reset();
  }
}

/**
 * The days of the admin's "subscription ends in N days" warning after a sign-in, or null when none is due.
 * Here rather than on the login page: the dates' code (date-fns) comes with the session code, not with the page.
 */
export function expiryDaysAfterSignIn(user: UserDto, now: Date = new Date()): number | null {
  return user.profile === 'admin' ? expiryWarningDays(user.company?.dueDate, now, companyTimeZone(user.company)) : null;
}
