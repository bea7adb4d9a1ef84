import { Badge, Box, Button, Center, chakra, Flex, Heading, HStack, IconButton, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ChatDto } from '@wa/contracts';
import { memo, useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd, MdDelete, MdEdit } from 'react-icons/md';
import { isChatOwner, shouldLoadMoreChats, unreadOf, unreadLabel } from './chat-rules';

export interface ChatListProps {
  chats: ChatDto[];
  selectedId: number | undefined;
  userId: number;
  loading: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onMore(): void;
  onOpen(chat: ChatDto): void;
  onNew(): void;
  onEdit(chat: ChatDto): void;
  onDelete(chat: ChatDto): void;
}

/**
 * The user's chats (spec 02 "Internal chat"): most recently updated first, each with its title, last message
 * and the user's unread count; the owner also gets edit and delete (spec 02 §6). 'Nova' starts a chat; the
 * next page loads within 100 px of the bottom (spec 02 §9).
 */
export function ChatList(props: ChatListProps) {
  const { t } = useTranslation();
  const { hasMore, loadingMore, onMore } = props;
  const scroller = useRef<HTMLDivElement>(null);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (el && shouldLoadMoreChats(el, hasMore, loadingMore)) onMore();
  }, [hasMore, loadingMore, onMore]);

  return (
    <Flex direction="column" h="full" minH="0" bg="bg" data-testid="chat-list">
      <Flex align="center" gap="2" px="3" py="2" borderBottomWidth="1px">
        <Heading size="md" flex="1" truncate data-testid="chats-title">
          {t('chats.title')}
        </Heading>
        <Button size="sm" colorPalette="teal" onClick={props.onNew} data-testid="chat-new">
          <MdAdd />
          {t('chats.new')}
        </Button>
      </Flex>
      <Box ref={scroller} flex="1" minH="0" overflowY="auto" onScroll={onScroll}>
        {props.loading && (
          <Center py="6">
            <Spinner color="teal.solid" />
          </Center>
        )}
        {!props.loading && props.chats.length === 0 && (
          <Center py="6" color="fg.muted" textStyle="sm" data-testid="chat-list-empty">
            {t('chats.empty')}
          </Center>
        )}
        <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
          {props.chats.map((chat) => (
            <ChatListItem
              key={chat.id}
              chat={chat}
              selected={chat.id === props.selectedId}
              userId={props.userId}
              onOpen={props.onOpen}
              onEdit={props.onEdit}
              onDelete={props.onDelete}
            />
          ))}
        </Stack>
        {loadingMore && (
          <Center py="2">
            <Spinner size="sm" />
          </Center>
        )}
      </Box>
    </Flex>
  );
}

const ChatListItem = memo(function ChatListItem(props: {
  chat: ChatDto;
  selected: boolean;
  userId: number;
  onOpen(chat: ChatDto): void;
  onEdit(chat: ChatDto): void;
  onDelete(chat: ChatDto): void;
}) {
  const { t } = useTranslation();
  const { chat, selected } = props;
  const unread = unreadOf(chat, props.userId);
  const owner = isChatOwner(chat, props.userId);
  const label = unreadLabel(unread);
  return (
    <Flex
      as="li"
      align="center"
      gap="1"
      pe="2"
      borderBottomWidth="1px"
      bg={selected ? 'teal.subtle' : undefined}
      _hover={{ bg: selected ? 'teal.subtle' : 'bg.muted' }}
      data-testid="chat-list-item"
      data-chat-id={chat.id}
      data-selected={selected ? 'true' : undefined}
      data-unread={unread}
    >
      <chakra.button
        type="button"
        flex="1"
        minW="0"
        display="flex"
        alignItems="center"
        gap="2"
        ps="3"
        py="2.5"
        textAlign="start"
        cursor="pointer"
        aria-current={selected ? 'true' : undefined}
        onClick={() => props.onOpen(chat)}
        data-testid="chat-open"
      >
        <Box flex="1" minW="0">
          <Text textStyle="sm" fontWeight={unread > 0 ? 'bold' : 'semibold'} truncate data-testid="chat-list-title">
            {chat.title}
          </Text>
          <Text textStyle="xs" color="fg.muted" truncate data-testid="chat-list-last-message">
            {chat.lastMessage}
          </Text>
        </Box>
        {label && (
          <Badge
            colorPalette="red"
            variant="solid"
            borderRadius="full"
            size="sm"
            aria-label={t('chats.unread', { count: unread })}
            data-testid="chat-unread-badge"
          >
            {label}
          </Badge>
        )}
      </chakra.button>
      {owner && (
        <HStack gap="0.5" flexShrink={0}>
          <IconButton
            size="xs"
            variant="ghost"
            aria-label={t('common.edit')}
            title={t('common.edit')}
            onClick={() => props.onEdit(chat)}
            data-testid="chat-edit"
          >
            <MdEdit />
          </IconButton>
          <IconButton
            size="xs"
            variant="ghost"
            colorPalette="red"
            aria-label={t('common.delete')}
            title={t('common.delete')}
            onClick={() => props.onDelete(chat)}
            data-testid="chat-delete"
          >
            <MdDelete />
          </IconButton>
        </HStack>
      )}
    </Flex>
  );
});
