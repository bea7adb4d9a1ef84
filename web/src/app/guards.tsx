import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { getToken, subscribeToken } from './storage';

/** Whether a token is stored (a session exists); follows logins and logouts. */
export function useHasSession(): boolean {
  return useSyncExternalStore(subscribeToken, () => getToken() !== null);
}

/** spec 01 §2: logged-out visitors go to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const signedIn = useHasSession();
  const location = useLocation();
  if (!signedIn) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}

/**
 * spec 01 §2: logged-in users on public pages go to / (the dashboard for admins); a sign-in made on the
 * page itself opens the ticket manager, as the product's login does.
 */
export function PublicOnly({ children }: { children: ReactNode }) {
  const signedIn = useHasSession();
  const [signedInOnArrival] = useState(signedIn);
  if (signedIn) return <Navigate to={signedInOnArrival ? '/' : '/tickets'} replace />;
  return <>{children}</>;
}
