import type { CompanyDto, SettingDto, UpdateSettingRequest } from '@wa/contracts';
import { api } from '../../app/api';
import { plain } from '../../app/cache';
import { authApi } from '../../app/auth.api';
import { isSecretSetting, withSetting } from './settings-rules';
import type { WorkingDay } from './working-hours';

/**
 * `GET /settings` (the company's key/value list) is one cache entry for the whole app, kept by the auth
 * feature (`authApi.settings`, tag `Settings`): the settings page and the queue dialog read the same list.
 */
export { useSettingsQuery } from '../../app/auth.api';

export const settingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * `PUT /settings/{key}` with `{ value }`: shown at once, put back if the server refuses it; then the value
     * the server answers. A secret is never put in the cache as typed: only its masked answer (`••••6789`).
     */
    updateSetting: build.mutation<SettingDto, { key: string } & UpdateSettingRequest>({
      query: ({ key, value }) => ({ url: `/settings/${encodeURIComponent(key)}`, method: 'PUT', body: { value } }),
      async onQueryStarted({ key, value }, { dispatch, queryFulfilled }) {
        const patch = isSecretSetting(key)
          ? null
          : dispatch(authApi.util.updateQueryData('settings', undefined, (d) => withSetting(plain(d), key, value)));
        const answer = await queryFulfilled.then(
          (r) => r.data,
          () => undefined,
        );
        if (!answer) patch?.undo();
        else if (typeof answer.value === 'string')
          dispatch(authApi.util.updateQueryData('settings', undefined, (d) => withSetting(plain(d), key, answer.value)));
      },
      invalidatesTags: (_r, error) => (error ? [] : ['Settings']),
    }),
    /** `GET /companies/{id}`: the company, with its working hours (`schedules`, [] when none were set). */
    getCompany: build.query<CompanyDto, number>({
      query: (id) => `/companies/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'Company', id }],
    }),
    /** `PUT /companies/{id}/schedules` with `{ schedules }`: the company with its new working hours. */
    updateCompanySchedules: build.mutation<CompanyDto, { companyId: number; schedules: WorkingDay[] }>({
      query: ({ companyId, schedules }) => ({ url: `/companies/${companyId}/schedules`, method: 'PUT', body: { schedules } }),
      async onQueryStarted({ companyId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data)
          dispatch(settingsApi.util.updateQueryData('getCompany', companyId, (d) => ({ ...plain(d), schedules: data.schedules ?? [] })));
      },
    }),
  }),
});

export const { useUpdateSettingMutation, useGetCompanyQuery, useUpdateCompanySchedulesMutation } = settingsApi;
