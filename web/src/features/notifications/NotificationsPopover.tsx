import { Box, Popover, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import type { TicketDto } from '@wa/contracts';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ContactAvatar } from '../tickets/ContactAvatar';
import { askNotificationPermissionOnce } from './desktop-notification';
import { ticketPath } from './notification-rules';

/** The pending tickets: contact and last message; a click opens the ticket. */
export default function NotificationsPopover({ trigger, tickets, loading }: { trigger: ReactElement; tickets: TicketDto[]; loading: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(true);

  function openTicket(ticket: TicketDto) {
    setOpen(false);
    navigate(ticketPath(ticket));
  }

  return (
    <Popover.Root
      open={open}
      onOpenChange={(e) => {
        setOpen(e.open);
        if (e.open) askNotificationPermissionOnce();
      }}
      lazyMount
      unmountOnExit
      positioning={{ placement: 'bottom-end' }}
    >
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width="xs" maxW="calc(100vw - 16px)" data-testid="notifications-popover">
            <Popover.Header fontWeight="semibold" textStyle="sm" borderBottomWidth="1px" py="2" px="3">
              {t('notifications.title')}
            </Popover.Header>
            <Popover.Body p="0" maxH="96" overflowY="auto">
              {loading && tickets.length === 0 ? (
                <Box p="4" textAlign="center">
                  <Spinner size="sm" color="teal.solid" />
                </Box>
              ) : tickets.length === 0 ? (
                <Text p="4" textStyle="sm" color="fg.muted" textAlign="center" data-testid="notifications-empty">
                  {t('notifications.empty')}
                </Text>
              ) : (
                <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
                  {tickets.map((ticket) => (
                    <Box as="li" key={ticket.id} borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }}>
                      <Box
                        as="button"
                        display="flex"
                        w="full"
                        gap="3"
                        px="3"
                        py="2.5"
                        textAlign="start"
                        cursor="pointer"
                        _hover={{ bg: 'bg.muted' }}
                        _focusVisible={{ bg: 'bg.muted', outline: 'none' }}
                        onClick={() => openTicket(ticket)}
                        data-testid="notification-item"
                        data-ticket-id={ticket.id}
                      >
                        <ContactAvatar name={ticket.contact?.name} src={ticket.contact?.profilePicUrl} size="sm" />
                        <Box flex="1" minW="0">
                          <Text textStyle="sm" fontWeight="semibold" truncate>
                            {ticket.contact?.name || ticket.contact?.number}
                          </Text>
                          <Text textStyle="xs" color="fg.muted" truncate data-testid="notification-last-message">
                            {ticket.lastMessage}
                          </Text>
                        </Box>
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
