import type { LoginRequest, LoginResponse, SettingDto, SignupRequest, UserDto } from '@wa/contracts';
import { api } from './api';

export interface SignupResponse {
  companyId: number;
  userId: number;
  dueDate: string;
}

/** `/resetpasswords/{email}/{token}/{newPassword}`, every part URL-encoded. */
export function resetPasswordPath(email: string, code: string, password: string): string {
  return `/resetpasswords/${[email, code, password].map(encodeURIComponent).join('/')}`;
}

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    logout: build.mutation<void, void>({
      query: () => ({ url: '/auth/logout', method: 'DELETE' }),
    }),
    me: build.query<UserDto, void>({
      query: () => '/auth/me',
      providesTags: ['Me'],
    }),
    version: build.query<{ version: string }, void>({
      query: () => '/version',
      providesTags: ['Version'],
    }),
    settings: build.query<SettingDto[], void>({
      query: () => '/settings/',
      providesTags: ['Settings'],
    }),
    signup: build.mutation<SignupResponse, SignupRequest>({
      query: (body) => ({ url: '/auth/signup', method: 'POST', body }),
    }),
    /** spec 02 §7 "Password reset", step one: a code by email (404 ERR_EMAIL_NOT_FOUND for an unknown address). */
    forgetPassword: build.mutation<{ message: string }, string>({
      query: (email) => ({ url: `/forgetpassword/${encodeURIComponent(email)}`, method: 'POST' }),
    }),
    /** Step two: the code and the new password, each part of the path encoded. */
    resetPassword: build.mutation<{ message: string }, { email: string; code: string; password: string }>({
      query: ({ email, code, password }) => ({ url: resetPasswordPath(email, code, password), method: 'POST' }),
    }),
  }),
});

export const { useLoginMutation, useLogoutMutation, useMeQuery, useVersionQuery, useSettingsQuery } = authApi;
