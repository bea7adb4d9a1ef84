import type {
  AnnouncementDto,
  AnnouncementEvent,
  AnnouncementsPage,
  CreateAnnouncementRequest,
  UpdateAnnouncementRequest,
} from '@wa/contracts';
import { api } from '../../app/api';
import { plain } from '../../app/cache';
import type { RootState } from '../../app/store';
import { applyAnnouncementEvent } from './announcement-rules';

const LIST = { type: 'Announcement', id: 'LIST' } as const;

/** The multipart body of `…/media-upload` (as the queues' files are sent): one field, `file`. */
function imageForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}

const invalidatesListOnSuccess = (_r: unknown, error: unknown) => (error ? [] : [LIST]);

/**
 * The platform's announcements (spec 02 "Announcement"): everyone signed in reads them
 * (`GET /announcements?searchParam&pageNumber`, 20 a page, newest first; others than super users get the
 * active ones only); super users add (`POST`), edit (`PUT /announcements/{id}`, what changed) and delete them,
 * and attach an image (`POST|DELETE /announcements/{id}/media-upload`). Every change, and every live event
 * (`company-announcement`), refetches the lists (tag `Announcement`, id LIST).
 */
export const announcementsApi = api.enhanceEndpoints({ addTagTypes: ['Announcement'] }).injectEndpoints({
  endpoints: (build) => ({
    /** by search text (title), page after page */
    listAnnouncements: build.infiniteQuery<AnnouncementsPage, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/announcements',
        params: { searchParam: queryArg || undefined, pageNumber: pageParam },
      }),
      providesTags: [LIST],
    }),
    getAnnouncement: build.query<AnnouncementDto, number>({
      query: (id) => `/announcements/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'Announcement', id }],
    }),
    /** 400 ERR_VALIDATION {details:[{field, messages}]} */
    createAnnouncement: build.mutation<AnnouncementDto, CreateAnnouncementRequest>({
      query: (body) => ({ url: '/announcements', method: 'POST', body }),
      invalidatesTags: invalidatesListOnSuccess,
    }),
    /** only the fields that changed */
    updateAnnouncement: build.mutation<AnnouncementDto, { id: number } & UpdateAnnouncementRequest>({
      query: ({ id, ...body }) => ({ url: `/announcements/${id}`, method: 'PUT', body }),
      invalidatesTags: (_r, error, { id }) => (error ? [] : [LIST, { type: 'Announcement', id }]),
    }),
    deleteAnnouncement: build.mutation<{ message: string }, number>({
      query: (id) => ({ url: `/announcements/${id}`, method: 'DELETE' }),
      invalidatesTags: invalidatesListOnSuccess,
    }),
    /** one image (.png, .jpg, .jpeg) as multipart `file`: the announcement with its `mediaPath` and `mediaName` */
    uploadAnnouncementMedia: build.mutation<AnnouncementDto, { id: number; file: File }>({
      query: ({ id, file }) => ({ url: `/announcements/${id}/media-upload`, method: 'POST', body: imageForm(file) }),
      invalidatesTags: (_r, error, { id }) => (error ? [] : [LIST, { type: 'Announcement', id }]),
    }),
    removeAnnouncementMedia: build.mutation<AnnouncementDto, number>({
      query: (id) => ({ url: `/announcements/${id}/media-upload`, method: 'DELETE' }),
      invalidatesTags: (_r, error, id) => (error ? [] : [LIST, { type: 'Announcement', id }]),
    }),
  }),
});

export const {
  useListAnnouncementsInfiniteQuery,
  useGetAnnouncementQuery,
  useCreateAnnouncementMutation,
  useUpdateAnnouncementMutation,
  useDeleteAnnouncementMutation,
  useUploadAnnouncementMediaMutation,
  useRemoveAnnouncementMediaMutation,
} = announcementsApi;

type Dispatch = (action: unknown) => unknown;

/**
 * `company-announcement` (to every socket): every cached list follows at once (a deleted one leaves, an
 * inactive one leaves the lists of users other than super users, a new one goes on top), then the lists are
 * fetched again so the counts and the order are the server's.
 */
export function syncAnnouncementEvent(event: AnnouncementEvent, state: RootState, dispatch: Dispatch): void {
  const isSuper = state.session.user?.super === true;
  for (const search of announcementsApi.util.selectCachedArgsForQuery(state, 'listAnnouncements')) {
    dispatch(
      announcementsApi.util.updateQueryData('listAnnouncements', search, (draft) => {
        const data = plain(draft);
        return { ...data, pages: applyAnnouncementEvent(data.pages, event, { isSuper, search }) };
      }),
    );
  }
  if (event.action === 'update')
    dispatch(announcementsApi.util.updateQueryData('getAnnouncement', event.announcement.id, () => event.announcement));
  dispatch(announcementsApi.util.invalidateTags([LIST]));
}
