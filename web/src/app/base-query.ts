import { fetchBaseQuery, type BaseQueryApi, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { LoginResponse } from '@wa/contracts';

/** Where the base query keeps the token and how it tells the app the session changed. */
export interface SessionPort {
  getToken(): string | null;
  /** a refresh gave a new token (already stored when this runs) */
  onRefreshed(session: LoginResponse, dispatch: BaseQueryApi['dispatch']): void;
  /** 401, or a refresh refused: the user is logged out */
  onLoggedOut(dispatch: BaseQueryApi['dispatch']): void;
  setToken(token: string): void;
}

export type RefreshResult = { ok: true; session: LoginResponse } | { ok: false; loggedOut: boolean };

/** Calls that are part of signing in: their errors are answers for the user, never a reason to refresh or log out. */
const SESSION_PATHS = ['/auth/login', '/auth/refresh_token', '/auth/logout', '/auth/signup'];

function pathOf(args: string | FetchArgs): string {
  const url = typeof args === 'string' ? args : args.url;
  return url.split('?')[0];
}

/**
 * The one base query of the app (spec 01 §4 "Session", §7): cookies included, the bearer token from
 * local storage; a 403 refreshes the token once (`POST /auth/refresh_token`, one refresh shared by every
 * request waiting on it) and retries the request once; a 401 logs the user out.
 */
export function createSessionBaseQuery(opts: { baseUrl: string; port: SessionPort; fetchFn?: typeof fetch }) {
  const { baseUrl, port } = opts;
  const fetchFn = opts.fetchFn ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const raw = fetchBaseQuery({
    baseUrl,
    credentials: 'include',
    fetchFn,
    prepareHeaders: (headers) => {
      const token = port.getToken();
      if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      return headers;
    },
  });

  let inflight: Promise<RefreshResult> | null = null;

  /** One refresh at a time: a refresh token is good for one rotation only. */
  function refresh(): Promise<RefreshResult> {
    inflight ??= (async (): Promise<RefreshResult> => {
      try {
        const res = await fetchFn(`${baseUrl}/auth/refresh_token`, {
          method: 'POST',
          credentials: 'include',
          headers: { accept: 'application/json' },
        });
        if (res.ok) {
          const session = (await res.json()) as LoginResponse;
          port.setToken(session.token);
          return { ok: true, session };
        }
        return { ok: false, loggedOut: res.status === 401 || res.status === 403 };
      } catch {
        return { ok: false, loggedOut: false };
      }
    })().finally(() => {
      inflight = null;
    });
    return inflight;
  }

  const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
    let result = await raw(args, api, extra);
    if (SESSION_PATHS.includes(pathOf(args))) return result;
    if (result.error?.status === 403) {
      const refreshed = await refresh();
      if (refreshed.ok) {
        port.onRefreshed(refreshed.session, api.dispatch);
        result = await raw(args, api, extra);
      } else if (refreshed.loggedOut) {
        port.onLoggedOut(api.dispatch);
        return result;
      }
    }
    if (result.error?.status === 401) port.onLoggedOut(api.dispatch);
    return result;
  };

  return { baseQuery, refresh };
}
