import { SocketChannels, type ChatChannelPayload } from '@wa/contracts';
import { onChannel, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { syncChatEvent } from './chats.api';

/** `company-<id>-chat`, to the chat's members only: the chat list, the open chat and the unread counts. */
export const teamChatSocket: SocketHandler[] = [
  onChannel<ChatChannelPayload>(SocketChannels.chat, (p, { state, dispatch }) => syncChatEvent(p, state(), dispatch)),
];
