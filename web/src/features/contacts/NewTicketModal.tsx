import { Box, Button, Dialog, Field, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { SelectField } from '../../app/SelectField';
import type { ContactDto } from '@wa/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { selectIsAdmin, selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { useListWhatsappsQuery } from '../connections/connections.api';
import { useListQueuesQuery } from '../tickets/tickets.api';
import { CONTACT_SEARCH_MIN } from './contact-rules';
import { ContactDialog } from './ContactDialog';
import { useSearchContactsQuery } from './contacts.api';
import { useOpenTicket } from './use-open-ticket';
import { formatPhone } from '../../app/phone';

/**
 * spec 01 §2 "New ticket": search a contact (from 3 characters, after 500 ms), pick a queue (required
 * unless admin: "Selecione uma fila") and a connection; a name that matches nothing offers to add the
 * contact. Saving opens the conversation, or names who holds it (spec 01 §4).
 */
export function NewTicketModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const isAdmin = useAppSelector(selectIsAdmin);
  const me = useAppSelector(selectUser);
  const [typed, setTyped] = useState('');
  const term = useDebounced(typed.trim(), SEARCH_DEBOUNCE_MS);
  const searching = term.length >= CONTACT_SEARCH_MIN;
  const found = useSearchContactsQuery(term, { skip: !searching });
  const { data: queues = [] } = useListQueuesQuery();
  const { data: connections = [] } = useListWhatsappsQuery();
  const [contact, setContact] = useState<ContactDto | null>(null);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [adding, setAdding] = useState(false);
  const [touched, setTouched] = useState(false);
  const { open, opening } = useOpenTicket();
  const myQueues = isAdmin ? queues : queues.filter((q) => me?.queueIds?.includes(q.id));
  const queueMissing = !isAdmin && queueId === '';

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (!contact || queueMissing) return;
    if (await open(contact.id, { queueId: queueId === '' ? null : queueId, whatsappId: whatsappId === '' ? null : whatsappId })) onClose();
  }

  const matches = searching ? (found.data ?? []) : [];
  return (
    <>
      <Dialog.Root open onOpenChange={(e) => !e.open && !adding && onClose()} size="sm">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content data-testid="new-ticket-modal">
              <form onSubmit={submit} noValidate>
                <Dialog.Header>
                  <Dialog.Title>{t('newTicket.title')}</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Stack gap="4">
                    <Field.Root required invalid={touched && !contact}>
                      <Field.Label>{t('newTicket.contact')}</Field.Label>
                      <Input
                        value={contact ? `${contact.name} (${formatPhone(contact.number)})` : typed}
                        onChange={(e) => {
                          setContact(null);
                          setTyped(e.target.value);
                        }}
                        autoFocus
                        data-testid="new-ticket-contact"
                      />
                      {!contact && typed.trim().length > 0 && typed.trim().length < CONTACT_SEARCH_MIN && (
                        <Field.HelperText>{t('newTicket.typeMore')}</Field.HelperText>
                      )}
                    </Field.Root>
                    {!contact && searching && !found.isFetching && (
                      <Box borderWidth="1px" borderRadius="md" maxH="48" overflowY="auto" data-testid="new-ticket-options">
                        {matches.map((c) => (
                          <Box
                            key={c.id}
                            px="3"
                            py="2"
                            cursor="pointer"
                            _hover={{ bg: 'bg.muted' }}
                            onClick={() => setContact(c)}
                            data-testid="new-ticket-option"
                          >
                            <Text textStyle="sm">{c.name}</Text>
                            <Text textStyle="xs" color="fg.muted">
                              {formatPhone(c.number)}
                            </Text>
                          </Box>
                        ))}
                        {matches.length === 0 && (
                          <Box
                            px="3"
                            py="2"
                            cursor="pointer"
                            color="teal.fg"
                            _hover={{ bg: 'bg.muted' }}
                            onClick={() => setAdding(true)}
                            data-testid="new-ticket-add-contact"
                          >
                            {t('newTicket.addContact', { name: term })}
                          </Box>
                        )}
                      </Box>
                    )}
                    <SelectField
                      label={t('newTicket.queue')}
                      value={queueId}
                      onChange={setQueueId}
                      options={myQueues}
                      emptyLabel={t('newTicket.selectQueue')}
                      required={!isAdmin}
                      error={touched && queueMissing && t('newTicket.selectQueue')}
                      testId="new-ticket-queue"
                    />
                    <SelectField
                      label={t('newTicket.connection')}
                      value={whatsappId}
                      onChange={setWhatsappId}
                      options={connections}
                      emptyLabel={t('newTicket.defaultConnection')}
                      testId="new-ticket-connection"
                    />
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Button variant="outline" onClick={onClose}>
                    {t('common.cancel')}
                  </Button>
                  <Button type="submit" colorPalette="teal" loading={opening} disabled={!contact} data-testid="new-ticket-save">
                    {t('newTicket.ok')}
                  </Button>
                </Dialog.Footer>
              </form>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
      {adding && (
        <ContactDialog
          contact={null}
          initialName={term}
          onClose={() => setAdding(false)}
          onSaved={(c) => {
            setContact(c);
            setAdding(false);
          }}
        />
      )}
    </>
  );
}
