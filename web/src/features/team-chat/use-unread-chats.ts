import type { ChatDto } from '@wa/contracts';
import { useMemo } from 'react';
import { hasPlanFlag } from '../../app/plan-flags';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { flattenChats, totalUnreads, unreadChats, type ChatPages } from './chat-rules';
import { useChatsInfiniteQuery } from './chats.api';

const NONE: ChatDto[] = [];

/**
 * The user's chats with unread messages (the top bar's popover, the side menu's dot): the chats list as the
 * /chats page reads it (one request for all of them), kept live by the socket; nothing without the plan's
 * useInternalChat.
 */
export function useUnreadChats(): { enabled: boolean; chats: ChatDto[]; total: number; loading: boolean } {
  const user = useAppSelector(selectUser);
  const enabled = hasPlanFlag(user, 'useInternalChat');
  const userId = user?.id ?? -1;
  const list = useChatsInfiniteQuery(undefined, { skip: !enabled });
  const data = list.data as ChatPages | undefined;
  return useMemo(() => {
    if (!enabled || !data) return { enabled, chats: NONE, total: 0, loading: enabled && list.isLoading };
    const chats = unreadChats(flattenChats(data), userId);
    return { enabled, chats, total: totalUnreads(chats, userId), loading: false };
  }, [enabled, data, userId, list.isLoading]);
}
