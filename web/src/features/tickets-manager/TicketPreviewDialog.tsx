import { Button, Dialog, Flex, Portal } from '@chakra-ui/react';
import type { TicketDto } from '@wa/contracts';
import { useTranslation } from 'react-i18next';
import { MessagesList } from '../ticket-chat/MessagesList';
import { formatPhone } from '../../app/phone';

/** spec 01: the ticket preview, a read-only look at a conversation that leaves it unread; a pending one can be accepted from it. */
export function TicketPreviewDialog({
  ticket,
  onClose,
  onAccept,
}: {
  ticket: TicketDto;
  onClose(): void;
  onAccept?: (t: TicketDto) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="ticket-preview-dialog" h="80vh">
            <Dialog.Header>
              <Dialog.Title>{ticket.contact?.name || formatPhone(ticket.contact?.number)}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body p="0" display="flex">
              <Flex direction="column" flex="1" minH="0">
                <MessagesList ticketId={ticket.id} contactName={ticket.contact?.name ?? ''} preview />
              </Flex>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('common.close')}
              </Button>
              {onAccept && (
                <Button
                  colorPalette="teal"
                  onClick={() => {
                    onClose();
                    onAccept(ticket);
                  }}
                  data-testid="ticket-preview-accept"
                >
                  {t('chat.accept')}
                </Button>
              )}
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
