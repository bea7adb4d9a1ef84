import { Box, IconButton } from '@chakra-ui/react';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { MdNotifications } from 'react-icons/md';
import { Deferred } from '../../app/Deferred';
import { flattenTickets, type TicketPages } from '../tickets/ticket-list-rules';
import { useListTicketsInfiniteQuery } from '../tickets/tickets.api';
import { askNotificationPermissionOnce } from './desktop-notification';
import { countLabel, PENDING_NOTIFICATIONS_ARGS } from './notification-rules';
import { useMessageNotifications } from './use-message-notifications';

// the popover loads when first opened
const NotificationsPopover = lazy(() => import('./NotificationsPopover'));

/**
 * The top bar's notifications (spec 01 §2 "Top bar"): a bell with the count of pending tickets the user
 * can see, kept live by the socket like every ticket list; the list opens in a popover. Also rings and
 * notifies on new customer messages (useMessageNotifications).
 */
export function NotificationsButton() {
  const { t } = useTranslation();
  useMessageNotifications();
  const list = useListTicketsInfiniteQuery(PENDING_NOTIFICATIONS_ARGS);
  const data = list.data as TicketPages | undefined;
  const tickets = flattenTickets(data);
  const count = countLabel(tickets.length, data?.pages.at(-1)?.hasMore ?? false);

  const button = (onClick?: () => void) => (
    <IconButton
      variant="ghost"
      size="sm"
      position="relative"
      aria-label={t('notifications.title')}
      title={t('notifications.title')}
      onClick={() => {
        askNotificationPermissionOnce();
        onClick?.();
      }}
      data-testid="notifications-button"
      data-count={tickets.length}
    >
      <MdNotifications />
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
          data-testid="notifications-count"
        >
          {count}
        </Box>
      )}
    </IconButton>
  );

  return (
    <Deferred placeholder={button}>
      <NotificationsPopover trigger={button()} tickets={tickets} loading={list.isLoading} />
    </Deferred>
  );
}
