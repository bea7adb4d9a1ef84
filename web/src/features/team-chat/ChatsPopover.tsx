import { Badge, Box, Text } from '@chakra-ui/react';
import type { ChatDto } from '@wa/contracts';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { TopBarListPopover } from '../../components/TopBarListPopover';
import { chatPath, unreadLabel, unreadOf } from './chat-rules';

/** The chats with unread messages: title, last message and the unread count; a click opens the chat. */
export default function ChatsPopover({ trigger, chats, loading }: { trigger: ReactElement; chats: ChatDto[]; loading: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const userId = useAppSelector(selectUser)?.id ?? -1;
  const [open, setOpen] = useState(true);

  return (
    <TopBarListPopover
      trigger={trigger}
      title={t('chats.popover.title')}
      open={open}
      onOpenChange={setOpen}
      loading={loading}
      items={chats}
      itemKey={(chat) => chat.id}
      onPick={(chat) => {
        setOpen(false);
        navigate(chatPath(chat));
      }}
      empty={{ text: t('chats.popover.empty'), testId: 'chats-popover-empty' }}
      testId="chats-popover"
      itemTestId="chats-popover-item"
      itemData={(chat) => ({ 'data-chat-id': chat.id })}
      renderItem={(chat) => (
        <>
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
        </>
      )}
    />
  );
}
