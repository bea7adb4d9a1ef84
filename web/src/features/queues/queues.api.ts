import type { CreateQueueOptionRequest, QueueDto, QueueOptionDto, UpdateQueueOptionRequest, UpdateQueueRequest } from '@wa/contracts';

export type { QueueOptionDto } from '@wa/contracts';
import { api } from '../../app/api';
import { plain } from '../../app/cache';
import { ticketsApi } from '../tickets/tickets.api';
import { removeQueue, upsertQueue, type QueueBody } from './queue-rules';

/**
 * `GET /queue` (every queue of the company, at most 500, not paged) is one cache entry for the whole app:
 * the tickets, users and connections screens read the same list (`ticketsApi.listQueues`, tag `Queue`).
 */
export { useListQueuesQuery } from '../tickets/tickets.api';

/** One level of a queue's tree: the first (parentId null) or the options under parentId. */
export interface QueueOptionListArgs {
  queueId: number;
  parentId: number | null;
}

type Dispatch = (action: unknown) => unknown;

/** Applies a queue change to the cached queues list (live events and this tab's own saves). */
export function changeQueueList(dispatch: Dispatch, change: { queue: QueueDto } | { removed: number }): void {
  dispatch(
    ticketsApi.util.updateQueryData('listQueues', undefined, (d) =>
      'removed' in change ? removeQueue(plain(d), change.removed) : upsertQueue(plain(d), change.queue),
    ),
  );
}

async function applySaved({
  dispatch,
  queryFulfilled,
}: {
  dispatch: Dispatch;
  queryFulfilled: Promise<{ data: QueueDto }>;
}): Promise<void> {
  const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
  if (data) changeQueueList(dispatch, { queue: data });
}

/** The multipart body of a `…/media-upload` call: one field, `file`. */
function mediaForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}

/** A queue's options, every level of them: a change anywhere also changes its parent's `children` count. */
const optionsTag = (queueId: number) => ({ type: 'QueueOptions' as const, id: queueId });

export const queuesApi = api.injectEndpoints({
  endpoints: (build) => ({
    createQueue: build.mutation<QueueDto, QueueBody>({
      query: (body) => ({ url: '/queue', method: 'POST', body }),
      onQueryStarted: (_arg, lifecycle) => applySaved(lifecycle),
      invalidatesTags: (_r, error) => (error ? [] : ['Queue']),
    }),
    updateQueue: build.mutation<QueueDto, { id: number } & UpdateQueueRequest>({
      query: ({ id, ...body }) => ({ url: `/queue/${id}`, method: 'PUT', body }),
      onQueryStarted: (_arg, lifecycle) => applySaved(lifecycle),
      invalidatesTags: (_r, error) => (error ? [] : ['Queue']),
    }),
    deleteQueue: build.mutation<{ message: string }, number>({
      query: (id) => ({ url: `/queue/${id}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const ok = await queryFulfilled.then(() => true).catch(() => false);
        if (ok) changeQueueList(dispatch, { removed: id });
      },
      // its prompts go with it (the server deletes them)
      invalidatesTags: (_r, error, id) => (error ? [] : ['Queue', 'Prompt', optionsTag(id)]),
    }),
    /** The file sent with the greeting (multipart `file`): the queue with its `mediaPath` and `mediaName`. */
    uploadQueueMedia: build.mutation<QueueDto, { id: number; file: File }>({
      query: ({ id, file }) => ({ url: `/queue/${id}/media-upload`, method: 'POST', body: mediaForm(file) }),
      onQueryStarted: (_arg, lifecycle) => applySaved(lifecycle),
      invalidatesTags: (_r, error) => (error ? [] : ['Queue']),
    }),
    removeQueueMedia: build.mutation<QueueDto, number>({
      query: (id) => ({ url: `/queue/${id}/media-upload`, method: 'DELETE' }),
      onQueryStarted: (_arg, lifecycle) => applySaved(lifecycle),
      invalidatesTags: (_r, error) => (error ? [] : ['Queue']),
    }),
    /** `GET /queue-options?queueId&parentId` (no parentId: the first level), by option number */
    listQueueOptions: build.query<QueueOptionDto[], QueueOptionListArgs>({
      query: ({ queueId, parentId }) => ({ url: '/queue-options', params: { queueId, parentId: parentId ?? undefined } }),
      providesTags: (_r, _e, { queueId }) => [optionsTag(queueId)],
    }),
    createQueueOption: build.mutation<QueueOptionDto, CreateQueueOptionRequest>({
      query: (body) => ({ url: '/queue-options', method: 'POST', body }),
      invalidatesTags: (_r, error, { queueId }) => (error ? [] : [optionsTag(queueId)]),
    }),
    updateQueueOption: build.mutation<QueueOptionDto, { id: number; queueId: number } & UpdateQueueOptionRequest>({
      query: ({ id, title, message, option }) => ({ url: `/queue-options/${id}`, method: 'PUT', body: { title, message, option } }),
      invalidatesTags: (_r, error, { queueId }) => (error ? [] : [optionsTag(queueId)]),
    }),
    /** the options under it go with it */
    deleteQueueOption: build.mutation<{ message: string }, { id: number; queueId: number }>({
      query: ({ id }) => ({ url: `/queue-options/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, error, { queueId }) => (error ? [] : [optionsTag(queueId)]),
    }),
    /** The file sent with the option's message (multipart `file`). */
    uploadQueueOptionMedia: build.mutation<QueueOptionDto, { id: number; queueId: number; file: File }>({
      query: ({ id, file }) => ({ url: `/queue-options/${id}/media-upload`, method: 'POST', body: mediaForm(file) }),
      invalidatesTags: (_r, error, { queueId }) => (error ? [] : [optionsTag(queueId)]),
    }),
    removeQueueOptionMedia: build.mutation<QueueOptionDto, { id: number; queueId: number }>({
      query: ({ id }) => ({ url: `/queue-options/${id}/media-upload`, method: 'DELETE' }),
      invalidatesTags: (_r, error, { queueId }) => (error ? [] : [optionsTag(queueId)]),
    }),
  }),
});

export const {
  useCreateQueueMutation,
  useUpdateQueueMutation,
  useDeleteQueueMutation,
  useListQueueOptionsQuery,
  useCreateQueueOptionMutation,
  useUpdateQueueOptionMutation,
  useDeleteQueueOptionMutation,
  useUploadQueueMediaMutation,
  useRemoveQueueMediaMutation,
  useUploadQueueOptionMediaMutation,
  useRemoveQueueOptionMediaMutation,
} = queuesApi;
