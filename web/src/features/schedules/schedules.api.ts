import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { CreateScheduleRequest, ScheduleDto, SchedulesPage } from '@wa/contracts';
import { api } from '../../app/api';
import { plain } from '../../app/cache';
import type { RootState } from '../../app/store';
import { removeSchedule, upsertSchedule, type ScheduleListArgs } from './schedule-list-rules';

/** A calendar range holds at most this many pages of 40 (the server's page size). */
const MAX_PAGES = 50;

type Dispatch = (action: unknown) => unknown;

/** Applies a schedule change to every cached calendar range and to the schedule's own entry (live events and this tab's saves). */
export function changeScheduleLists(state: RootState, dispatch: Dispatch, change: { schedule: ScheduleDto } | { removed: number }): void {
  for (const entry of api.util.selectInvalidatedBy(state, ['Schedules'])) {
    if (entry.endpointName !== 'listSchedules') continue;
    const args = entry.originalArgs as ScheduleListArgs;
    dispatch(
      schedulesApi.util.updateQueryData('listSchedules', args, (d) =>
        'removed' in change ? removeSchedule(plain(d), change.removed) : upsertSchedule(plain(d), change.schedule, args),
      ),
    );
  }
  if ('schedule' in change) dispatch(schedulesApi.util.updateQueryData('schedule', change.schedule.id, () => change.schedule));
}

/** A saved schedule (or its picture changed): every calendar range and its own entry show it. */
async function applySaved({
  dispatch,
  getState,
  queryFulfilled,
}: {
  dispatch: Dispatch;
  getState(): unknown;
  queryFulfilled: Promise<{ data: ScheduleDto }>;
}): Promise<void> {
  const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
  if (data) changeScheduleLists(getState() as RootState, dispatch, { schedule: data });
}

export const schedulesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Every schedule of a calendar range (`GET /schedules?from&to`, page after page until the last). */
    listSchedules: build.query<ScheduleDto[], ScheduleListArgs>({
      async queryFn(args, _api, _extra, baseQuery) {
        const all: ScheduleDto[] = [];
        for (let pageNumber = 1; pageNumber <= MAX_PAGES; pageNumber++) {
          const res = await baseQuery({
            url: '/schedules',
            params: { searchParam: args.searchParam || undefined, pageNumber, from: args.from, to: args.to },
          });
          if (res.error) return { error: res.error as FetchBaseQueryError };
          const page = res.data as SchedulesPage;
          all.push(...page.schedules);
          if (!page.hasMore) break;
        }
        return { data: all };
      },
      providesTags: ['Schedules'],
    }),
    schedule: build.query<ScheduleDto, number>({
      query: (id) => `/schedules/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'Schedules', id }],
    }),
    saveSchedule: build.mutation<ScheduleDto, { id?: number } & CreateScheduleRequest>({
      query: ({ id, ...body }) => (id ? { url: `/schedules/${id}`, method: 'PUT', body } : { url: '/schedules', method: 'POST', body }),
      onQueryStarted: (_arg, lifecycle) => applySaved(lifecycle),
    }),
    deleteSchedule: build.mutation<void, number>({
      query: (id) => ({ url: `/schedules/${id}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const ok = await queryFulfilled.then(() => true).catch(() => false);
        if (ok) changeScheduleLists(getState() as RootState, dispatch, { removed: id });
      },
    }),
    /** The picture sent with the message (multipart `file`: png, jpg or jpeg). */
    uploadScheduleMedia: build.mutation<ScheduleDto, { id: number; file: File }>({
      query: ({ id, file }) => {
        const form = new FormData();
        form.append('file', file, file.name);
        return { url: `/schedules/${id}/media-upload`, method: 'POST', body: form };
      },
      onQueryStarted: (_arg, lifecycle) => applySaved(lifecycle),
    }),
    deleteScheduleMedia: build.mutation<ScheduleDto, number>({
      query: (id) => ({ url: `/schedules/${id}/media-upload`, method: 'DELETE' }),
      onQueryStarted: (_arg, lifecycle) => applySaved(lifecycle),
    }),
  }),
});

export const {
  useListSchedulesQuery,
  useScheduleQuery,
  useSaveScheduleMutation,
  useDeleteScheduleMutation,
  useUploadScheduleMediaMutation,
  useDeleteScheduleMediaMutation,
} = schedulesApi;
