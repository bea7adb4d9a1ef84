import { Box, Button, Center, Flex, HStack, IconButton, Spinner, Text } from '@chakra-ui/react';
import { SocketChannels, type MessageDto, type TicketChannelPayload, type TicketDto } from '@wa/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdArrowBack } from 'react-icons/md';
import { useNavigate } from 'react-router-dom';
import { errorCode } from '../../app/errors';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { notify } from '../../app/notify';
import { useSocketEvent, useSocketRoom } from '../../realtime/RealtimeProvider';
import { ContactAvatar } from '../../components/ContactAvatar';
import { useTicketByUuidQuery } from '../tickets/tickets.api';
import { useTicketActions } from '../tickets/use-ticket-actions';
import { useShortcuts } from '../tickets/shortcuts';
import { MessageInput } from './MessageInput';
import { MessagesList } from './MessagesList';
import { NewMessageAnnouncer } from './NewMessageAnnouncer';
import { useCustomerPresence } from './presence';
import { TicketOptionsMenu } from './TicketOptionsMenu';
import { ContactDrawer } from './ContactDrawer';
import { formatPhone } from '../../app/phone';

function ChatHeader({ ticket, onContact }: { ticket: TicketDto; onContact(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const actions = useTicketActions();
  const busy = actions.busyId === ticket.id;
  // the customer typing or recording, as WhatsApp tells it
  const presence = useCustomerPresence(ticket.id);
  // A accepts the open pending ticket, R resolves the open one: the buttons' own calls
  useShortcuts({
    accept: () => {
      if (ticket.status !== 'pending') return false;
      if (!busy) void actions.accept(ticket);
    },
    resolve: () => {
      if (ticket.status !== 'open') return false;
      if (!busy) void actions.resolve(ticket);
    },
  });
  return (
    <Flex align="center" gap="3" px="3" py="2" borderBottomWidth="1px" bg="bg" data-testid="chat-header" data-status={ticket.status}>
      <IconButton variant="ghost" size="sm" aria-label={t('chat.back')} onClick={() => navigate('/tickets')} hideFrom="lg">
        <MdArrowBack />
      </IconButton>
      <Box
        as="button"
        display="flex"
        alignItems="center"
        gap="3"
        flex="1"
        minW="0"
        textAlign="left"
        cursor="pointer"
        onClick={onContact}
        title={t('contactDrawer.open')}
        data-testid="chat-contact-button"
      >
        <ContactAvatar name={ticket.contact?.name} src={ticket.contact?.profilePicUrl} size="sm" />
        <Box flex="1" minW="0">
          <Text fontWeight="semibold" truncate data-testid="chat-contact">
            {ticket.contact?.name || formatPhone(ticket.contact?.number)}
          </Text>
          {presence ? (
            <Text textStyle="xs" color="teal.fg" truncate data-testid="chat-presence" data-presence={presence}>
              {t(presence === 'recording' ? 'chat.presenceRecording' : 'chat.presenceTyping')}
            </Text>
          ) : (
            <Text textStyle="xs" color="fg.muted" truncate>
              {t('chat.ticketNumber', { id: ticket.id })}
              {ticket.user ? ` · ${t('chat.assignedTo', { name: ticket.user.name })}` : ''}
            </Text>
          )}
        </Box>
      </Box>
      <HStack gap="2">
        {ticket.status === 'pending' && (
          <Button size="sm" colorPalette="teal" loading={busy} onClick={() => actions.accept(ticket)} data-testid="chat-accept">
            {t('chat.accept')}
          </Button>
        )}
        {ticket.status === 'open' && (
          <>
            <Button size="sm" variant="outline" disabled={busy} onClick={() => actions.giveBack(ticket)} data-testid="chat-return">
              {t('chat.return')}
            </Button>
            <Button size="sm" colorPalette="teal" loading={busy} onClick={() => actions.resolve(ticket)} data-testid="chat-resolve">
              {t('chat.resolve')}
            </Button>
          </>
        )}
        {ticket.status === 'closed' && (
          <Button size="sm" variant="outline" loading={busy} onClick={() => actions.reopen(ticket)} data-testid="chat-reopen">
            {t('chat.reopen')}
          </Button>
        )}
        <TicketOptionsMenu ticket={ticket} />
      </HStack>
    </Flex>
  );
}

/** /tickets/{uuid}: the chat of one ticket. Outside one's queues: "Acesso não permitido" and back to /tickets. */
export default function TicketChat({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAppSelector(selectUser);
  const { data: ticket, error, isError } = useTicketByUuidQuery(uuid);
  useSocketRoom('joinChatBox', ticket?.id);

  useEffect(() => {
    if (!isError) return;
    const code = errorCode(error);
    if (code === 'ERR_NO_PERMISSION') notify.errorText(t('tickets.accessDenied'));
    else notify.error(error);
    navigate('/tickets', { replace: true });
  }, [isError, error, navigate, t]);

  // the open ticket was deleted: back to the list
  useSocketEvent<TicketChannelPayload>(user ? SocketChannels.ticket(user.companyId) : null, (p) => {
    if (p.action === 'delete' && ticket && p.ticketId === ticket.id) navigate('/tickets', { replace: true });
  });

  const [replyTo, setReplyTo] = useState<MessageDto | null>(null);
  const [drawer, setDrawer] = useState(false);
  const ticketId = ticket?.id;
  useEffect(() => setReplyTo(null), [ticketId]);

  if (!ticket)
    return (
      <Center h="full">
        <Spinner color="teal.solid" />
      </Center>
    );
  return (
    <Flex h="full" minH="0">
      <Flex direction="column" flex="1" minW="0" h="full" minH="0" data-testid="ticket-chat" data-ticket-id={ticket.id}>
        <ChatHeader ticket={ticket} onContact={() => setDrawer((d) => !d)} />
        <NewMessageAnnouncer ticketId={ticket.id} contactName={ticket.contact?.name ?? ''} />
        <MessagesList
          ticketId={ticket.id}
          contactName={ticket.contact?.name ?? ''}
          onReply={ticket.status === 'open' ? setReplyTo : undefined}
        />
        <MessageInput
          ticketId={ticket.id}
          disabled={ticket.status !== 'open'}
          replyTo={replyTo}
          contactName={ticket.contact?.name ?? ''}
          onReplyDone={() => setReplyTo(null)}
        />
      </Flex>
      {drawer && <ContactDrawer ticket={ticket} onClose={() => setDrawer(false)} />}
    </Flex>
  );
}
