import type { PlatformSessionsPage, ReplicaDrainDto } from '@wa/contracts';
import { api } from '../../app/api';
import type { SessionsViewArg } from './sessions-rules';

const VIEW = { type: 'PlatformSessions', id: 'VIEW' } as const;

/**
 * The operators' view of the WhatsApp sessions (issue 43 §5, super users only): `GET /platform/sessions` (every live
 * replica, and a page of connections filtered by company, replica and status), and a replica's drain:
 * `POST /platform/sessions/replicas/{name}/drain` to start it, `DELETE` to undo it. A drain refetches the view
 * (tag `PlatformSessions`): the replica's badge and button follow at once, without waiting for the next poll.
 */
export const sessionsApi = api.enhanceEndpoints({ addTagTypes: ['PlatformSessions'] }).injectEndpoints({
  endpoints: (build) => ({
    /** the filters not set are left out of the query string */
    platformSessions: build.query<PlatformSessionsPage, SessionsViewArg>({
      query: ({ companyId, replica, status, pageNumber }) => ({
        url: '/platform/sessions',
        params: { companyId, replica, status, pageNumber },
      }),
      providesTags: [VIEW],
    }),
    /** 404 ERR_NO_REPLICA_FOUND: no live replica has that name */
    drainReplica: build.mutation<ReplicaDrainDto, string>({
      query: (name) => ({ url: `/platform/sessions/replicas/${encodeURIComponent(name)}/drain`, method: 'POST' }),
      invalidatesTags: (_r, error) => (error ? [] : [VIEW]),
    }),
    /** allowed for a replica that has since stopped: it would come back drained otherwise */
    undrainReplica: build.mutation<ReplicaDrainDto, string>({
      query: (name) => ({ url: `/platform/sessions/replicas/${encodeURIComponent(name)}/drain`, method: 'DELETE' }),
      invalidatesTags: (_r, error) => (error ? [] : [VIEW]),
    }),
  }),
});

export const { usePlatformSessionsQuery, useDrainReplicaMutation, useUndrainReplicaMutation } = sessionsApi;
