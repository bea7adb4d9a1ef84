import { Badge, Box, Popover, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ChatDto } from '@wa/contracts';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { chatPath, unreadLabel, unreadOf } from './chat-rules';

/** The chats with unread messages: title, last message and the unread count; a click opens the chat. */
export default function ChatsPopover({ trigger, chats, loading }: { trigger: ReactElement; chats: ChatDto[]; loading: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const userId = useAppSelector(selectUser)?.id ?? -1;
  const [open, setOpen] = useState(true);

  function openChat(chat: ChatDto) {
    setOpen(false);
    navigate(chatPath(chat));
  }

  return (
    <Popover.Root open={open} onOpenChange={(e) => setOpen(e.open)} lazyMount unmountOnExit positioning={{ placement: 'bottom-end' }}>
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width="xs" maxW="calc(100vw - 16px)" data-testid="chats-popover">
            <Popover.Header fontWeight="semibold" textStyle="sm" borderBottomWidth="1px" py="2" px="3">
              {t('chats.popover.title')}
            </Popover.Header>
            <Popover.Body p="0" maxH="96" overflowY="auto">
              {loading && chats.length === 0 ? (
                <Box p="4" textAlign="center">
                  <Spinner size="sm" color="teal.solid" />
                </Box>
              ) : chats.length === 0 ? (
                <Text p="4" textStyle="sm" color="fg.muted" textAlign="center" data-testid="chats-popover-empty">
                  {t('chats.popover.empty')}
                </Text>
              ) : (
                <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
                  {chats.map((chat) => (
                    <Box as="li" key={chat.id} borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }}>
                      <Box
                        as="button"
                        display="flex"
                        alignItems="center"
                        w="full"
                        gap="3"
                        px="3"
                        py="2.5"
                        textAlign="start"
                        cursor="pointer"
                        _hover={{ bg: 'bg.muted' }}
                        _focusVisible={{ bg: 'bg.muted', outline: 'none' }}
                        onClick={() => openChat(chat)}
                        data-testid="chats-popover-item"
                        data-chat-id={chat.id}
                      >
                        <Box flex="1" minW="0">
                          <Text textStyle="sm" fontWeight="semibold" truncate>
                            {chat.title}
                          </Text>
                          <Text textStyle="xs" color="fg.muted" truncate data-testid="chats-popover-last-message">
                            {chat.lastMessage}
                          </Text>
                        </Box>
                        <Badge colorPalette="red" variant="solid" borderRadius="full" size="sm" data-testid="chats-popover-unread">
                          {unreadLabel(unreadOf(chat, userId))}
                        </Badge>
                      </Box>
                    </Box>
                  ))}
                </Stack>
              )}
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
