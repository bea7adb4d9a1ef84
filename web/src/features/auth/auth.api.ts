import type { LoginRequest, LoginResponse, SettingDto, UserDto } from '@wa/contracts';
import { api } from '../../app/api';

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
  }),
});

export const { useLoginMutation, useLogoutMutation, useMeQuery, useVersionQuery, useSettingsQuery } = authApi;
