import { SocketChannels, type AnnouncementEvent } from '@wa/contracts';
import { onChannel, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { syncAnnouncementEvent } from './announcements.api';

/** Platform-wide, to every socket: the announcements lists (the top bar's popover, /announcements). */
export const announcementsSocket: SocketHandler[] = [
  onChannel<AnnouncementEvent>(
    () => SocketChannels.announcement(),
    (p, { state, dispatch }) => syncAnnouncementEvent(p, state(), dispatch),
  ),
];
