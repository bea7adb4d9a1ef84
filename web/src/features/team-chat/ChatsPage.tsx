import { Box, Center, Flex, Icon, Tabs, Text } from '@chakra-ui/react';
import { SocketChannels, type ChatChannelPayload, type ChatDto } from '@wa/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdForum } from 'react-icons/md';
import { useNavigate, useParams } from 'react-router-dom';
import { PlanGate } from '../../app/PermissionGate';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { useSocketEvent } from '../../realtime/RealtimeProvider';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useWindowWidth } from '../../components/use-window-width';
import { ChatDialog } from './ChatDialog';
import { ChatList } from './ChatList';
import { ChatPane } from './ChatPane';
import { CHATS_SPLIT_MIN_PX, chatPath, flattenChats, isChatParam, unreadOf, type ChatPages } from './chat-rules';
import { logChatFailure, useChatQuery, useChatsInfiniteQuery, useDeleteChatMutation, useReadChatMutation } from './chats.api';

type NarrowTab = 'chats' | 'messages';

/**
 * /chats/:id? (spec 02 "Internal chat"), for companies whose plan has useInternalChat (others get the
 * permission notice and go to / after 1 s): the user's chats on the left and the open chat (the route's
 * uuid) on the right; on narrow screens two tabs, 'Chats' and 'Mensagens'. Opening a chat with unread
 * messages, or a message from someone else arriving in the open chat, marks it read. Failed requests are only
 * logged (spec 02 §8).
 */
export default function ChatsPage() {
  return (
    <PlanGate flag="useInternalChat">
      <Chats />
    </PlanGate>
  );
}

function NoChat() {
  const { t } = useTranslation();
  return (
    <Center h="full" flexDirection="column" gap="3" color="fg.muted" bg="bg.subtle" data-testid="chat-pane-empty">
      <Icon as={MdForum} boxSize="14" color="teal.fg" opacity={0.6} />
      <Text>{t('chats.select')}</Text>
    </Center>
  );
}

function Chats() {
  const { t } = useTranslation();
  const { id: param } = useParams();
  const navigate = useNavigate();
  const user = useAppSelector(selectUser);
  const userId = user?.id ?? -1;
  const companyId = user?.companyId;
  const wide = useWindowWidth() >= CHATS_SPLIT_MIN_PX;
  const [tab, setTab] = useState<NarrowTab>(param ? 'messages' : 'chats');
  useEffect(() => setTab(param ? 'messages' : 'chats'), [param]);

  const list = useChatsInfiniteQuery();
  const chats = useMemo(() => flattenChats(list.data as ChatPages | undefined), [list.data]);
  const listed = param ? chats.find((c) => isChatParam(c, param)) : undefined;
  /** chats deleted (or left) while open: not asked for by themselves on the way back to /chats */
  const gone = useRef(new Set<string>());
  // a chat not among the loaded pages (a link, the top bar's popover) is asked for by itself
  const single = useChatQuery(param ?? '', { skip: !param || !!listed || list.isLoading || gone.current.has(param) });
  const selected = listed ?? (param && single.data && isChatParam(single.data, param) ? single.data : undefined);

  const [editing, setEditing] = useState<ChatDto | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<ChatDto | null>(null);
  const [remove, removing] = useDeleteChatMutation();
  const [read] = useReadChatMutation();

  useEffect(() => {
    if (list.isError) logChatFailure('loading the chats failed', list.error);
  }, [list.isError, list.error]);
  useEffect(() => {
    if (single.isError) logChatFailure(`loading chat ${param} failed`, single.error);
  }, [single.isError, single.error, param]);

  // the open chat is read: when opened with unread messages, and when someone else's message arrives in it
  // (the live event raises the user's count in the cached chat)
  const selectedId = selected?.id;
  const unread = selected ? unreadOf(selected, userId) : 0;
  const reading = useRef<number | null>(null);
  useEffect(() => {
    if (selectedId === undefined || unread === 0 || reading.current === selectedId) return;
    reading.current = selectedId;
    read({ id: selectedId, userId })
      .unwrap()
      .catch((err: unknown) => logChatFailure(`marking chat ${selectedId} read failed`, err))
      .finally(() => {
        if (reading.current === selectedId) reading.current = null;
      });
  }, [selectedId, unread, userId, read]);

  /** the open chat is gone: back to the list */
  const leave = useCallback(
    (chat: ChatDto) => {
      gone.current.add(chat.uuid).add(String(chat.id));
      navigate('/chats', { replace: true });
    },
    [navigate],
  );

  // the open chat deleted, or the user taken out of it
  useSocketEvent<ChatChannelPayload>(companyId ? SocketChannels.chat(companyId) : null, (p) => {
    if (p.action === 'delete' && selected && p.chatId === selected.id) leave(selected);
  });

  const open = useCallback(
    (chat: ChatDto) => {
      navigate(chatPath(chat));
      setTab('messages');
    },
    [navigate],
  );
  const { fetchNextPage } = list;
  const onMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const onNew = useCallback(() => setEditing(null), []);

  async function confirmDelete() {
    const chat = deleting;
    if (!chat) return;
    try {
      if (chat.id === selectedId) gone.current.add(chat.uuid).add(String(chat.id));
      await remove(chat.id).unwrap();
      if (chat.id === selectedId) leave(chat);
    } catch (err) {
      logChatFailure(`deleting chat ${chat.id} failed`, err);
    }
    setDeleting(null);
  }

  const listPane = (
    <ChatList
      chats={chats}
      selectedId={selectedId}
      userId={userId}
      loading={list.isLoading}
      hasMore={!!list.hasNextPage}
      loadingMore={list.isFetchingNextPage}
      onMore={onMore}
      onOpen={open}
      onNew={onNew}
      onEdit={setEditing}
      onDelete={setDeleting}
    />
  );
  const chatPane = selected ? <ChatPane key={selected.id} chat={selected} userId={userId} /> : <NoChat />;

  return (
    <>
      {wide ? (
        <Flex h="full" minH="0" data-testid="chats-page" data-layout="split">
          <Box w={{ base: '320px', xl: '360px' }} flexShrink={0} borderRightWidth="1px" minH="0">
            {listPane}
          </Box>
          <Box flex="1" minW="0" minH="0">
            {chatPane}
          </Box>
        </Flex>
      ) : (
        <Flex direction="column" h="full" minH="0" data-testid="chats-page" data-layout="tabs">
          <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value as NarrowTab)} size="sm" fitted variant="enclosed">
            <Tabs.List>
              <Tabs.Trigger value="chats" data-testid="chats-tab-chats">
                {t('chats.tabs.chats')}
              </Tabs.Trigger>
              <Tabs.Trigger value="messages" data-testid="chats-tab-messages">
                {t('chats.tabs.messages')}
              </Tabs.Trigger>
            </Tabs.List>
          </Tabs.Root>
          <Box flex="1" minH="0">
            {tab === 'chats' ? listPane : chatPane}
          </Box>
        </Flex>
      )}
      {editing !== undefined && (
        <ChatDialog key={editing?.id ?? 'new'} chat={editing} onClose={() => setEditing(undefined)} onSaved={editing ? undefined : open} />
      )}
      <ConfirmDialog
        open={!!deleting}
        title={t('chats.confirm.deleteTitle', { title: deleting?.title ?? '' })}
        message={t('chats.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
