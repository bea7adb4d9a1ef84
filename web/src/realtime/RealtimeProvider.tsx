import { createContext, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { api, session } from '../app/api';
import { apiUrl } from '../app/config';
import { dropEarlyResponses } from '../app/early-requests';
import { loggedOut, selectUser, tokenRefreshed } from '../app/session';
import { clearSession, getToken, storeSession } from '../app/storage';
import { useAppDispatch, useAppSelector } from '../app/store';
import type { RealtimeClient } from './realtime-client';

/** The live socket of the signed-in user (exported for tests, which hand in a stand-in). */
export const RealtimeContext = createContext<RealtimeClient | null>(null);

/** One live socket per signed-in user, closed on logout. */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const userId = user?.id;
  const [client, setClient] = useState<RealtimeClient | null>(null);

  useEffect(() => {
    if (userId === undefined) return;
    let c: RealtimeClient | null = null;
    let cancelled = false;
    // the socket's code arrives after the first paint of the page
    void import('./realtime-client').then(({ RealtimeClient }) => {
      if (cancelled) return;
      c = new RealtimeClient({
        url: apiUrl(),
        getToken,
        refresh: async () => {
          const r = await session.refresh();
          if (r.ok) {
            storeSession(r.session.token, r.session.user);
            dispatch(tokenRefreshed({ token: r.session.token, user: r.session.user }));
            return r.session.token;
          }
          // a network problem is not the end of the session: try again with the token we have
          return r.loggedOut ? null : getToken();
        },
        onSessionOver: () => {
          clearSession();
          dispatch(loggedOut('expired'));
        },
        // events may have been missed while away: lists and chats load again
        onReconnected: () => dispatch(api.util.invalidateTags(['TicketList', 'Messages', 'Ticket', 'Whatsapp', 'Settings'])),
        // lists loaded before the socket joined its rooms load again; one asked for from now on asks the server
        onConnected: () => {
          dropEarlyResponses();
          dispatch(api.util.invalidateTags(['TicketList']));
        },
      });
      c.connect();
      setClient(c);
    });
    return () => {
      cancelled = true;
      c?.close();
      setClient(null);
    };
  }, [userId, dispatch]);

  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}

export function useRealtime(): RealtimeClient | null {
  return useContext(RealtimeContext);
}

const never = () => () => undefined;

/** Whether the live socket dropped and is not back yet (false before the first connection and after sign-out). */
export function useConnectionLost(): boolean {
  const client = useRealtime();
  const subscribe = useCallback((listener: () => void) => client?.watchLost(listener) ?? never(), [client]);
  return useSyncExternalStore(subscribe, () => client?.lost ?? false);
}

/** Calls the handler for each payload of a channel while mounted (the newest handler, without resubscribing). */
export function useSocketEvent<T>(channel: string | null, handler: (payload: T) => void): void {
  const client = useRealtime();
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!client || !channel) return;
    return client.on<T>(channel, (p) => ref.current(p));
  }, [client, channel]);
}

/** Joins a room (joinTickets with a status, joinChatBox with a ticket id) while mounted. */
export function useSocketRoom(event: 'joinTickets' | 'joinChatBox', arg: string | number | undefined | null): void {
  const client = useRealtime();
  useEffect(() => {
    if (!client || arg === undefined || arg === null) return;
    return client.join(event, arg);
  }, [client, event, arg]);
}
