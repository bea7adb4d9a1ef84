import { SocketChannels, type UserChannelPayload } from '@wa/contracts';
import type { RootState } from '../../app/store';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { changeUserLists } from './users.api';
import { userEventChange } from './users-list-rules';

/** `company-<id>-user`: the users page's lists follow (a new user joins in name order, a deleted one leaves). */
export function syncUserEvent(p: UserChannelPayload, state: RootState, dispatch: Dispatch): void {
  changeUserLists(state, dispatch, userEventChange(p));
}

export const usersSocket: SocketHandler[] = [
  onChannel<UserChannelPayload>(SocketChannels.user, (p, { state, dispatch }) => syncUserEvent(p, state(), dispatch)),
];
