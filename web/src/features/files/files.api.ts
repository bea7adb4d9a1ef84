import type { CreateFileListRequest, FileListDto, FileListsPage, FilesChannelPayload, UpdateFileListRequest } from '@wa/contracts';
import { api } from '../../app/api';
import { plain } from '../../app/cache';
import type { RootState } from '../../app/store';
import {
  fileListEventChange,
  fileListUploadForm,
  removeFileListPages,
  upsertFileListPages,
  type FileListPages,
  type FileUpload,
} from './file-list-rules';

const withFileListType = api.enhanceEndpoints({ addTagTypes: ['FileList'] });

type Dispatch = (action: unknown) => unknown;
type FileListChange = { fileList: FileListDto } | { removed: number };

/**
 * Applies a change to every cached page list (each search) and to the cached list itself: live events
 * (`company-<id>-files`) and this tab's own saves, without loading the lists again.
 */
export function changeFileLists(state: RootState, dispatch: Dispatch, change: FileListChange): void {
  for (const entry of filesApi.util.selectInvalidatedBy(state, ['FileList'])) {
    if (entry.endpointName === 'listFileLists') {
      const search = entry.originalArgs as string;
      dispatch(
        filesApi.util.updateQueryData('listFileLists', search, (d) =>
          'removed' in change
            ? removeFileListPages(plain(d) as FileListPages, change.removed)
            : upsertFileListPages(plain(d) as FileListPages, change.fileList, search),
        ),
      );
    } else if (entry.endpointName === 'getFileList' && 'fileList' in change && entry.originalArgs === change.fileList.id) {
      dispatch(filesApi.util.updateQueryData('getFileList', change.fileList.id, () => change.fileList));
    }
  }
}

/** `company-<id>-files` (to everyone of the company): the lists follow. */
export function syncFilesEvent(p: FilesChannelPayload, state: RootState, dispatch: Dispatch): void {
  changeFileLists(state, dispatch, fileListEventChange(p));
}

async function applySaved({
  dispatch,
  getState,
  queryFulfilled,
}: {
  dispatch: Dispatch;
  getState(): unknown;
  queryFulfilled: Promise<{ data: FileListDto }>;
}): Promise<void> {
  const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
  if (data) changeFileLists(getState() as RootState, dispatch, { fileList: data });
}

/**
 * The company's file lists (spec 02 "Files", §7): `GET /files?searchParam&pageNumber` page after page (by name,
 * 20 a page), `GET /files/{id}`, `POST /files`, `PUT /files/{id}` (the options listed replace the saved ones),
 * `POST /files/uploadList/{id}` (the options' files, multipart) and `DELETE /files/{id}`. A change updates the
 * cached pages in place (tag `FileList`), as the live events do.
 */
export const filesApi = withFileListType.injectEndpoints({
  endpoints: (build) => ({
    listFileLists: build.infiniteQuery<FileListsPage, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({ url: '/files', params: { searchParam: queryArg || undefined, pageNumber: pageParam } }),
      providesTags: ['FileList'],
    }),
    getFileList: build.query<FileListDto, number>({
      query: (id) => `/files/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'FileList', id }],
    }),
    /** the options are created without files; their ids come back in the order sent */
    createFileList: build.mutation<FileListDto, CreateFileListRequest>({
      query: (body) => ({ url: '/files', method: 'POST', body }),
      onQueryStarted: (_arg, lifecycle) => applySaved(lifecycle),
    }),
    /** options with an id are kept (with their files), without one are new, the missing ones are deleted */
    updateFileList: build.mutation<FileListDto, { id: number } & UpdateFileListRequest>({
      query: ({ id, ...body }) => ({ url: `/files/${id}`, method: 'PUT', body }),
      onQueryStarted: (_arg, lifecycle) => applySaved(lifecycle),
    }),
    /** 400 ERR_VALIDATION (field `files`): a file of a type or size the server does not take */
    uploadFileListFiles: build.mutation<FileListDto, { id: number; uploads: FileUpload[] }>({
      query: ({ id, uploads }) => ({ url: `/files/uploadList/${id}`, method: 'POST', body: fileListUploadForm(id, uploads) }),
      onQueryStarted: (_arg, lifecycle) => applySaved(lifecycle),
    }),
    deleteFileList: build.mutation<{ message: string }, number>({
      query: (id) => ({ url: `/files/${id}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const ok = await queryFulfilled.then(
          () => true,
          () => false,
        );
        if (ok) changeFileLists(getState() as RootState, dispatch, { removed: id });
      },
    }),
  }),
});

export const {
  useListFileListsInfiniteQuery,
  useGetFileListQuery,
  useCreateFileListMutation,
  useUpdateFileListMutation,
  useUploadFileListFilesMutation,
  useDeleteFileListMutation,
} = filesApi;
