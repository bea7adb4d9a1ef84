import { SocketChannels, type FilesChannelPayload } from '@wa/contracts';
import { onChannel, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { syncFilesEvent } from './files.api';

/** `company-<id>-files`: the file lists follow. */
export const filesSocket: SocketHandler[] = [
  onChannel<FilesChannelPayload>(SocketChannels.files, (p, { state, dispatch }) => syncFilesEvent(p, state(), dispatch)),
];
