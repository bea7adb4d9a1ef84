import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { MdNotifications } from 'react-icons/md';
import { Deferred } from '../../app/Deferred';
import { CountIconButton } from '../../components/CountIconButton';
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
    <CountIconButton
      label={t('notifications.title')}
      icon={<MdNotifications />}
      count={tickets.length}
      badge={count}
      testId="notifications-button"
      badgeTestId="notifications-count"
      onClick={() => {
        askNotificationPermissionOnce();
        onClick?.();
      }}
    />
  );

  return (
    <Deferred placeholder={button}>
      <NotificationsPopover trigger={button()} tickets={tickets} loading={list.isLoading} />
    </Deferred>
  );
}
