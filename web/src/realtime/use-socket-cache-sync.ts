import { useEffect } from 'react';
import { useStore } from 'react-redux';
import { selectIsAdmin, selectUser } from '../app/session';
import { useAppDispatch, useAppSelector, type RootState } from '../app/store';
import { useRealtime } from './RealtimeProvider';

export type Dispatch = (action: unknown) => unknown;

/** What a socket handler is handed: the store as it is when the event comes, and its dispatch. */
export interface SocketSyncContext {
  state(): RootState;
  dispatch: Dispatch;
}

/** One channel a feature listens to (`<feature>.socket.ts`) and what its events do to the cache. */
export interface SocketHandler {
  channel(companyId: number): string;
  handle(payload: never, ctx: SocketSyncContext): void;
}

/** A feature's handler of one channel, typed by the channel's payload. */
export function onChannel<T>(channel: (companyId: number) => string, handle: (payload: T, ctx: SocketSyncContext) => void): SocketHandler {
  return { channel, handle: handle as SocketHandler['handle'] };
}

/**
 * Turns the company's live events into cache updates (STYLE "Web"): each feature hands its handlers
 * (`<feature>.socket.ts`); the layout mounts it once with all of them (features/layout/socket-handlers.ts).
 */
export function useSocketCacheSync(handlers: ReadonlyArray<SocketHandler>): void {
  const client = useRealtime();
  const store = useStore<RootState>();
  const dispatch = useAppDispatch();
  const companyId = useAppSelector(selectUser)?.companyId;
  const isAdmin = useAppSelector(selectIsAdmin);

  useEffect(() => {
    if (!client || !companyId) return;
    const ctx: SocketSyncContext = { state: () => store.getState(), dispatch: dispatch as Dispatch };
    const offs = handlers.map((h) => client.on<never>(h.channel(companyId), (p) => h.handle(p, ctx)));
    const leave = client.join('joinNotification');
    return () => {
      for (const off of offs) off();
      leave();
    };
  }, [client, companyId, isAdmin, store, dispatch, handlers]);
}
