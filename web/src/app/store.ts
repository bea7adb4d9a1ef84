import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { useDispatch, useSelector } from 'react-redux';
import { api } from './api';
import { loggedOut, sessionSlice } from './session';

const listeners = createListenerMiddleware();
// a logout forgets every cached answer of the previous user
listeners.startListening({
  actionCreator: loggedOut,
  effect: (_action, { dispatch }) => {
    dispatch(api.util.resetApiState());
  },
});

export function makeStore() {
  return configureStore({
    reducer: { [api.reducerPath]: api.reducer, session: sessionSlice.reducer },
    middleware: (getDefault) =>
      getDefault({ serializableCheck: false, immutableCheck: false }).prepend(listeners.middleware).concat(api.middleware),
  });
}

export const store = makeStore();
// back online: the queries on screen load again (refetchOnReconnect)
setupListeners(store.dispatch);
export type AppStore = ReturnType<typeof makeStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
