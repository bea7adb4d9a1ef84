import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PaymentCompany, UserDto } from '@wa/contracts';
import { getToken, readStoredUser } from './storage';

/** Why the session ended, when it did (drives the message on the way to /login). */
export type EndReason = 'logout' | 'expired' | 'replaced';

export interface SessionState {
  token: string | null;
  user: UserDto | null;
  /** the user came from the server in this page (not from storage) */
  userFresh: boolean;
  /** the account signed in elsewhere: the notice is up, the logout follows */
  replaced: boolean;
}

/** A stored session starts with the user as last seen; /auth/me renews it. */
const initialState = (): SessionState => ({ token: getToken(), user: readStoredUser(), userFresh: false, replaced: false });

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    sessionStarted(state, action: PayloadAction<{ token: string; user: UserDto }>) {
      state.token = action.payload.token;
      state.user = action.payload.user;
      state.userFresh = true;
      state.replaced = false;
    },
    userLoaded(state, action: PayloadAction<UserDto>) {
      state.user = action.payload;
      state.userFresh = true;
    },
    tokenRefreshed(state, action: PayloadAction<{ token: string; user?: UserDto }>) {
      state.token = action.payload.token;
      if (action.payload.user) {
        state.user = action.payload.user;
        state.userFresh = true;
      }
    },
    /** A company setting changed (the live `company-<id>-settings` event): the user's `company.settings` follow. */
    companySettingChanged(state, action: PayloadAction<{ key: string; value: string }>) {
      const setting = state.user?.company?.settings?.find((s) => s.key === action.payload.key);
      if (setting) setting.value = action.payload.value;
    },
    /** A payment renewed the company (the live `company-<id>-payment` CONCLUIDA): its due date, plan and status follow. */
    companyRenewed(state, action: PayloadAction<PaymentCompany>) {
      const company = state.user?.company;
      if (!company || company.id !== action.payload.id) return;
      company.dueDate = action.payload.dueDate;
      company.status = action.payload.status;
      company.planId = action.payload.planId;
      company.recurrence = action.payload.recurrence;
    },
    sessionReplaced(state) {
      state.replaced = true;
    },
    loggedOut(state, _action: PayloadAction<EndReason | undefined>) {
      state.token = null;
      state.user = null;
      state.userFresh = false;
      state.replaced = false;
    },
  },
});

export const { sessionStarted, userLoaded, tokenRefreshed, companySettingChanged, companyRenewed, sessionReplaced, loggedOut } =
  sessionSlice.actions;

export const selectUser = (s: { session: SessionState }) => s.session.user;
export const selectToken = (s: { session: SessionState }) => s.session.token;
export const selectIsAdmin = (s: { session: SessionState }) => s.session.user?.profile === 'admin' || s.session.user?.super === true;
/** Admins and supervisors (README "Profiles"): the dashboard. */
export const selectSupervises = (s: { session: SessionState }) => selectIsAdmin(s) || s.session.user?.profile === 'supervisor';
