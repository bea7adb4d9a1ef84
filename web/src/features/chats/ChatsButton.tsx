import { Box, IconButton } from '@chakra-ui/react';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { MdForum } from 'react-icons/md';
import { Deferred } from '../../app/Deferred';
import { unreadLabel } from './chat-rules';
import { useUnreadChats } from './use-unread-chats';

// the popover loads when first opened
const ChatsPopover = lazy(() => import('./ChatsPopover'));

/**
 * The top bar's internal chat (spec 01 §2 "Top bar"), for plans with useInternalChat: a button with the
 * user's unread chat messages, kept live by the socket; the chats holding them open in a popover.
 */
export function ChatsButton() {
  const { t } = useTranslation();
  const { enabled, chats, total, loading } = useUnreadChats();
  if (!enabled) return null;
  const count = unreadLabel(total);

  const button = (onClick?: () => void) => (
    <IconButton
      variant="ghost"
      size="sm"
      position="relative"
      aria-label={t('chats.popover.title')}
      title={t('chats.popover.title')}
      onClick={onClick}
      data-testid="chats-popover-button"
      data-count={total}
    >
      <MdForum />
      {count && (
        <Box
          as="span"
          position="absolute"
          top="0"
          insetEnd="0"
          minW="4"
          h="4"
          px="1"
          borderRadius="full"
          bg="red.solid"
          color="red.contrast"
          fontSize="2xs"
          fontWeight="bold"
          lineHeight="1rem"
          textAlign="center"
          pointerEvents="none"
          data-testid="chats-unread-count"
        >
          {count}
        </Box>
      )}
    </IconButton>
  );

  return (
    <Deferred placeholder={button}>
      <ChatsPopover trigger={button()} chats={chats} loading={loading} />
    </Deferred>
  );
}
