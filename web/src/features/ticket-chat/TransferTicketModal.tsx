import { Box, Button, Dialog, Field, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { SelectField } from '../../app/SelectField';
import type { TicketDto, UserDto } from '@wa/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../app/notify';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { useListWhatsappsQuery } from '../connections/connections.api';
import { useListQueuesQuery, useSearchUsersQuery, useUpdateTicketMutation } from '../tickets/tickets.api';

/** spec 01 §5: the user search starts at 3 typed characters. */
export const USER_SEARCH_MIN = 3;

/**
 * spec 01 §2 "Transfer ticket": an agent (searched from 3 characters, optional: without one the ticket
 * waits in the queue), a queue (required) and a connection (required, the ticket's own at first). A
 * ticket the caller no longer holds leaves their screen.
 */
export function TransferTicketModal({ ticket, onClose }: { ticket: TicketDto; onClose(): void }) {
  const { t } = useTranslation();
  const me = useAppSelector(selectUser);
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const term = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  const searching = term.length >= USER_SEARCH_MIN;
  const found = useSearchUsersQuery(term, { skip: !searching });
  // fresh lists each time the dialog opens: a queue or connection made since is offered
  const { data: queues = [] } = useListQueuesQuery(undefined, { refetchOnMountOrArgChange: true });
  const { data: connections = [] } = useListWhatsappsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [user, setUser] = useState<UserDto | null>(null);
  const [queueId, setQueueId] = useState<number | ''>(ticket.queueId ?? '');
  const [whatsappId, setWhatsappId] = useState<number | ''>(ticket.whatsappId ?? '');
  const [touched, setTouched] = useState(false);
  const [update, { isLoading }] = useUpdateTicketMutation();
  // an agent picked: only the queues they serve
  const choices =
    user && user.profile !== 'admin' && user.queues?.length ? queues.filter((q) => user.queues?.some((uq) => uq.id === q.id)) : queues;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (queueId === '' || whatsappId === '') return;
    try {
      await update({ id: ticket.id, queueId, whatsappId, userId: user?.id ?? null, status: user ? 'open' : 'pending' }).unwrap();
      notify.success(t('transferTicket.done'));
      onClose();
      if (user?.id !== me?.id) navigate('/tickets');
    } catch (err) {
      notify.error(err);
    }
  }

  const matches = searching ? (found.data?.users ?? []) : [];
  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="sm">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="transfer-modal">
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{t('transferTicket.title')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Field.Root>
                    <Field.Label>{t('transferTicket.user')}</Field.Label>
                    <Input
                      value={user ? user.name : typed}
                      placeholder={t('transferTicket.noUser')}
                      onChange={(e) => {
                        setUser(null);
                        setTyped(e.target.value);
                      }}
                      autoFocus
                      data-testid="transfer-user"
                    />
                    {!user && typed.trim().length > 0 && typed.trim().length < USER_SEARCH_MIN && (
                      <Field.HelperText>{t('transferTicket.typeMore')}</Field.HelperText>
                    )}
                  </Field.Root>
                  {!user && searching && !found.isFetching && matches.length > 0 && (
                    <Box borderWidth="1px" borderRadius="md" maxH="48" overflowY="auto" data-testid="transfer-user-options">
                      {matches.map((u) => (
                        <Box
                          key={u.id}
                          px="3"
                          py="2"
                          cursor="pointer"
                          _hover={{ bg: 'bg.muted' }}
                          onClick={() => {
                            setUser(u);
                            if (queueId !== '' && u.profile !== 'admin' && u.queues?.length && !u.queues.some((q) => q.id === queueId))
                              setQueueId('');
                          }}
                          data-testid="transfer-user-option"
                        >
                          <Text textStyle="sm">{u.name}</Text>
                          <Text textStyle="xs" color="fg.muted">
                            {u.email}
                          </Text>
                        </Box>
                      ))}
                    </Box>
                  )}
                  <SelectField
                    label={t('transferTicket.queue')}
                    value={queueId}
                    onChange={setQueueId}
                    options={choices}
                    emptyLabel={t('transferTicket.selectQueue')}
                    required
                    error={touched && queueId === '' && t('transferTicket.selectQueue')}
                    testId="transfer-queue"
                  />
                  <SelectField
                    label={t('transferTicket.connection')}
                    value={whatsappId}
                    onChange={setWhatsappId}
                    options={connections}
                    emptyLabel={t('transferTicket.selectConnection')}
                    required
                    error={touched && whatsappId === '' && t('transferTicket.selectConnection')}
                    testId="transfer-connection"
                  />
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" colorPalette="teal" loading={isLoading} data-testid="transfer-save">
                  {t('transferTicket.ok')}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
