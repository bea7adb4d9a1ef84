import { SocketChannels, type PlatformListEvent } from '@wa/contracts';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { helpsApi } from './helps.api';

/** `platform-help` (to every socket, spec 02 §3): the helps lists (/helps, the Ajuda tab) reload. */
export function syncHelpListEvent(_p: PlatformListEvent, dispatch: Dispatch): void {
  dispatch(helpsApi.util.invalidateTags([{ type: 'Help', id: 'LIST' }]));
}

export const helpsSocket: SocketHandler[] = [
  onChannel<PlatformListEvent>(
    () => SocketChannels.helps(),
    (p, { dispatch }) => syncHelpListEvent(p, dispatch),
  ),
];
