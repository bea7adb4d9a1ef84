import type { CreateUserRequest, UpdateUserRequest, UserDto, UsersPage } from '@wa/contracts';
import { api } from '../../app/api';
import { plain } from '../../app/cache';
import type { RootState } from '../../app/store';
import { removeUserPages, upsertUserPages, type UserChange, type UserPages } from './users-list-rules';

type Dispatch = (action: unknown) => unknown;

/** Applies a user change to every cached users list (live events and this tab's own saves). */
export function changeUserLists(state: RootState, dispatch: Dispatch, change: { user: UserChange } | { removed: number }): void {
  for (const entry of api.util.selectInvalidatedBy(state, ['Users'])) {
    if (entry.endpointName !== 'listUsers') continue;
    const search = entry.originalArgs as string;
    dispatch(
      usersApi.util.updateQueryData('listUsers', search, (d) =>
        'removed' in change
          ? removeUserPages(plain(d) as UserPages, change.removed)
          : upsertUserPages(plain(d) as UserPages, change.user, search),
      ),
    );
  }
}

async function applySaved({
  dispatch,
  getState,
  queryFulfilled,
}: {
  dispatch: Dispatch;
  getState(): unknown;
  queryFulfilled: Promise<{ data: UserDto }>;
}): Promise<void> {
  const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
  if (data) changeUserLists(getState() as RootState, dispatch, { user: data });
}

export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /users` by search text (name or email), page after page */
    listUsers: build.infiniteQuery<UsersPage, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({ url: '/users', params: { searchParam: queryArg || undefined, pageNumber: pageParam } }),
      providesTags: ['Users'],
    }),
    createUser: build.mutation<UserDto, CreateUserRequest>({
      query: (body) => ({ url: '/users', method: 'POST', body }),
      onQueryStarted: (_arg, lifecycle) => applySaved(lifecycle),
    }),
    /** an empty password keeps the current one (it is left out) */
    updateUser: build.mutation<UserDto, { id: number } & UpdateUserRequest>({
      query: ({ id, ...body }) => ({ url: `/users/${id}`, method: 'PUT', body }),
      onQueryStarted: (_arg, lifecycle) => applySaved(lifecycle),
    }),
    deleteUser: build.mutation<void, number>({
      query: (id) => ({ url: `/users/${id}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const ok = await queryFulfilled.then(() => true).catch(() => false);
        if (ok) changeUserLists(getState() as RootState, dispatch, { removed: id });
      },
    }),
  }),
});

export const { useListUsersInfiniteQuery, useCreateUserMutation, useUpdateUserMutation, useDeleteUserMutation } = usersApi;
