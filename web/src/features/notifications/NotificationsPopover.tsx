import { Box, Text } from '@chakra-ui/react';
import type { TicketDto } from '@wa/contracts';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { TopBarListPopover } from '../../components/TopBarListPopover';
import { ContactAvatar } from '../../components/ContactAvatar';
import { askNotificationPermissionOnce } from './desktop-notification';
import { ticketPath } from './notification-rules';
import { formatPhone } from '../../app/phone';

/** The pending tickets: contact and last message; a click opens the ticket. */
export default function NotificationsPopover({
  trigger,
  tickets,
  loading,
}: {
  trigger: ReactElement;
  tickets: TicketDto[];
  loading: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(true);

  return (
    <TopBarListPopover
      trigger={trigger}
      title={t('notifications.title')}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) askNotificationPermissionOnce();
      }}
      loading={loading}
      items={tickets}
      itemKey={(ticket) => ticket.id}
      onPick={(ticket) => {
        setOpen(false);
        navigate(ticketPath(ticket));
      }}
      empty={{ text: t('notifications.empty'), testId: 'notifications-empty' }}
      testId="notifications-popover"
      itemTestId="notification-item"
      itemData={(ticket) => ({ 'data-ticket-id': ticket.id })}
      renderItem={(ticket) => (
        <>
          <ContactAvatar name={ticket.contact?.name} src={ticket.contact?.profilePicUrl} size="sm" />
          <Box flex="1" minW="0">
            <Text textStyle="sm" fontWeight="semibold" truncate>
              {ticket.contact?.name || formatPhone(ticket.contact?.number)}
            </Text>
            <Text textStyle="xs" color="fg.muted" truncate data-testid="notification-last-message">
              {ticket.lastMessage}
            </Text>
          </Box>
        </>
      )}
    />
  );
}
