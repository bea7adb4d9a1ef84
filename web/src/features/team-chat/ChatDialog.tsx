import { Box, Button, Checkbox, Dialog, Field, Input, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ChatDto } from '@wa/contracts';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/notify';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { useEntityDialog } from '../../components/use-entity-dialog';
import { useListUserNamesQuery } from '../tickets/tickets.api';
import { chatFormOf, chatPayload, pickableUsers, validateChatForm, type ChatFormProblem } from './chat-rules';
import { logChatFailure, useCreateChatMutation, useUpdateChatMutation } from './chats.api';

/**
 * A new chat ('Nova', chat null) or the owner's edit of one (spec 02 "Internal chat", §5): its title and its
 * members, picked from the company's users (`GET /users/list`). Saving without a title alerts 'Por favor,
 * preencha o título da conversa.', without a member 'Por favor, selecione pelo menos um usuário.'. Other
 * failures are only logged (spec 02 §8).
 */
export function ChatDialog({ chat, onClose, onSaved }: { chat: ChatDto | null; onClose(): void; onSaved?(chat: ChatDto): void }) {
  const { t } = useTranslation();
  const formId = useId();
  const userId = useAppSelector(selectUser)?.id ?? -1;
  // the first problem (no title, else no member) alerts at the send and marks its field while it lasts
  const form = useEntityDialog({
    initial: () => chatFormOf(chat, userId),
    validate: (v): Partial<Record<ChatFormProblem, ChatFormProblem>> => {
      const found = validateChatForm(v, userId);
      return found ? { [found]: found } : {};
    },
    problemText: (key) => t(`chats.validation.${key}`),
  });
  const { values, setValues } = form;
  const problem = form.submitted ? (validateChatForm(values, userId) ?? null) : null;
  const [filter, setFilter] = useState('');
  const users = useListUserNamesQuery();
  const [create, creating] = useCreateChatMutation();
  const [update, updating] = useUpdateChatMutation();
  const offered = useMemo(() => pickableUsers(users.data ?? [], userId, filter), [users.data, userId, filter]);

  useEffect(() => {
    if (users.isError) logChatFailure('loading the users failed', users.error);
  }, [users.isError, users.error]);

  function toggle(id: number, on: boolean) {
    setValues((v) => ({ ...v, userIds: on ? [...v.userIds.filter((u) => u !== id), id] : v.userIds.filter((u) => u !== id) }));
  }

  const save = form.handleSubmit(
    async (v) => {
      const body = chatPayload(v, userId);
      const saved = chat ? await update({ id: chat.id, ...body }).unwrap() : await create(body).unwrap();
      onSaved?.(saved);
      onClose();
    },
    (err, fields) => {
      // the server's own check of the same rules answers with the same alerts
      const alert = fields.title || fields.users;
      if (alert) notify.errorText(alert);
      else logChatFailure(chat ? `saving chat ${chat.id} failed` : 'creating a chat failed', err);
    },
  );

  function submit(e: FormEvent) {
    const found = validateChatForm(values, userId);
    if (found) notify.errorText(t(`chats.validation.${found}`));
    return save(e);
  }

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="md" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="chat-dialog">
            <Dialog.Header>
              <Dialog.Title>{chat ? t('chats.dialog.editTitle') : t('chats.dialog.addTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <form id={formId} onSubmit={submit} noValidate>
                <Stack gap="4">
                  <Field.Root required invalid={problem === 'title'}>
                    <Field.Label>{t('chats.dialog.title')}</Field.Label>
                    <Input
                      value={values.title}
                      onChange={(e) => form.set('title', e.target.value)}
                      maxLength={100}
                      autoComplete="off"
                      autoFocus
                      data-testid="chat-dialog-title"
                    />
                  </Field.Root>
                  {/* not a Field: its checkboxes would all take the field's one control id (a click on one would toggle none) */}
                  <Stack
                    gap="1.5"
                    w="full"
                    role="group"
                    aria-invalid={problem === 'users' || undefined}
                    aria-labelledby={`${formId}-users`}
                  >
                    <Text id={`${formId}-users`} textStyle="sm" fontWeight="medium" color={problem === 'users' ? 'fg.error' : undefined}>
                      {t('chats.dialog.users')}{' '}
                      <Text as="span" color="fg.muted" fontWeight="normal" data-testid="chat-dialog-selected">
                        ({values.userIds.length})
                      </Text>
                    </Text>
                    <Input
                      size="sm"
                      value={filter}
                      onChange={(e) => setFilter(e.target.value)}
                      placeholder={t('chats.dialog.search')}
                      aria-label={t('chats.dialog.search')}
                      autoComplete="off"
                      data-testid="chat-dialog-user-search"
                    />
                    <Box
                      w="full"
                      maxH="60"
                      overflowY="auto"
                      borderWidth="1px"
                      borderColor={problem === 'users' ? 'border.error' : undefined}
                      borderRadius="md"
                      p="2"
                      data-testid="chat-dialog-users"
                    >
                      {users.isLoading && <Spinner size="sm" color="teal.solid" />}
                      {!users.isLoading && offered.length === 0 && (
                        <Text textStyle="sm" color="fg.muted">
                          {t('chats.dialog.noUsers')}
                        </Text>
                      )}
                      <Stack gap="1.5">
                        {offered.map((u) => (
                          <Checkbox.Root
                            key={u.id}
                            size="sm"
                            checked={values.userIds.includes(u.id)}
                            onCheckedChange={(e) => toggle(u.id, e.checked === true)}
                            data-testid="chat-dialog-user"
                            data-user-id={u.id}
                          >
                            <Checkbox.HiddenInput />
                            <Checkbox.Control />
                            <Checkbox.Label>{u.name}</Checkbox.Label>
                          </Checkbox.Root>
                        ))}
                      </Stack>
                    </Box>
                  </Stack>
                </Stack>
              </form>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} data-testid="chat-dialog-cancel">
                {t('common.cancel')}
              </Button>
              <Button
                type="submit"
                form={formId}
                colorPalette="teal"
                loading={creating.isLoading || updating.isLoading}
                data-testid="chat-dialog-save"
              >
                {t('common.save')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
