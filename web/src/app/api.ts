import { createApi } from '@reduxjs/toolkit/query/react';
import { createSessionBaseQuery } from './base-query';
import { apiUrl } from './config';
import { fetchTakingEarly } from './early-requests';
import { loggedOut, tokenRefreshed } from './session';
import { clearSession, getToken, storeSession } from './storage';

export const session = createSessionBaseQuery({
  baseUrl: apiUrl(),
  // the first ticket list of a cold load of /tickets: the answer to the request the page started (app/early-requests.ts)
  fetchFn: fetchTakingEarly,
  port: {
    getToken,
    setToken: (token) => storeSession(token),
    onRefreshed: (s, dispatch) => {
      storeSession(s.token, s.user);
      dispatch(tokenRefreshed({ token: s.token, user: s.user }));
    },
    onLoggedOut: (dispatch) => {
      clearSession();
      dispatch(loggedOut('expired'));
    },
  },
});

/**
 * The one RTK Query slice. Features add their endpoints with `api.injectEndpoints` in `<feature>.api.ts`;
 * live events change its cache (src/realtime/use-socket-cache-sync.ts) instead of refetching lists.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: session.baseQuery,
  tagTypes: [
    'Me',
    'Ticket',
    'TicketList',
    'Messages',
    'Queue',
    'Whatsapp',
    'Version',
    'Settings',
    'ContactList',
    'QuickMessages',
    'Notes',
    'Schedules',
    'Users',
    'QueueOptions',
    'Company',
    'Prompt',
    'QueueIntegration',
  ],
  refetchOnReconnect: true,
  endpoints: () => ({}),
});
