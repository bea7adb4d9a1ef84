import { Box, Button, Checkbox, Dialog, Field, Input, NativeSelect, Portal, Stack, Switch, Text, Textarea } from '@chakra-ui/react';
import type { ConnectionProviderKind, WhatsappDto } from '@wa/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/notify';
import { useListQueuesQuery } from '../tickets/tickets.api';
import { validateConnectionName } from './connection-rules';
import { useCreateWhatsappMutation, useUpdateWhatsappMutation } from './connections.api';

/** A random API token (32 hex characters). */
function newApiToken(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Add (whatsapp undefined) or edit a connection: name, default flag, greeting, API token, queues, and the kind when adding. */
export function ConnectionDialog({ whatsapp, onClose }: { whatsapp: WhatsappDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const editing = !!whatsapp;
  const { data: queues = [] } = useListQueuesQuery();
  const [create, creating] = useCreateWhatsappMutation();
  const [update, updating] = useUpdateWhatsappMutation();
  const [name, setName] = useState(whatsapp?.name ?? '');
  const [isDefault, setIsDefault] = useState(whatsapp?.isDefault ?? false);
  const [greetingMessage, setGreeting] = useState(whatsapp?.greetingMessage ?? '');
  const [token, setToken] = useState(whatsapp?.token ?? '');
  const [queueIds, setQueueIds] = useState<number[]>(whatsapp?.queueIds ?? whatsapp?.queues?.map((q) => q.id) ?? []);
  const [channel, setChannel] = useState<ConnectionProviderKind>(whatsapp?.channel ?? 'baileys');
  const [touched, setTouched] = useState(false);
  const nameError = validateConnectionName(name);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (nameError) return;
    const form = { name: name.trim(), isDefault, greetingMessage, queueIds, token: token.trim() || null };
    try {
      if (whatsapp) await update({ id: whatsapp.id, ...form }).unwrap();
      else await create({ ...form, channel }).unwrap();
      notify.success(t('connections.toasts.saved'));
      onClose();
    } catch (err) {
      notify.error(err);
    }
  }

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="md">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="connection-dialog">
            <form onSubmit={submit} noValidate>
            <Dialog.Header>
              <Dialog.Title>{editing ? t('connections.dialog.editTitle') : t('connections.dialog.addTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Field.Root required invalid={touched && !!nameError}>
                  <Field.Label>{t('connections.dialog.name')}</Field.Label>
                  <Input value={name} onChange={(e) => setName(e.target.value)} onBlur={() => setTouched(true)} autoFocus data-testid="connection-name" />
                  {nameError && <Field.ErrorText>{t(`validation.${nameError}`)}</Field.ErrorText>}
                </Field.Root>
                {!editing && (
                  <Field.Root>
                    <Field.Label>{t('connections.dialog.channel')}</Field.Label>
                    <NativeSelect.Root>
                      <NativeSelect.Field value={channel} onChange={(e) => setChannel(e.target.value as ConnectionProviderKind)} data-testid="connection-channel">
                        <option value="baileys">{t('connections.dialog.channels.baileys')}</option>
                        <option value="sandbox">{t('connections.dialog.channels.sandbox')}</option>
                      </NativeSelect.Field>
                      <NativeSelect.Indicator />
                    </NativeSelect.Root>
                  </Field.Root>
                )}
                <Switch.Root checked={isDefault} onCheckedChange={(e) => setIsDefault(e.checked)} data-testid="connection-default">
                  <Switch.HiddenInput />
                  <Switch.Control>
                    <Switch.Thumb />
                  </Switch.Control>
                  <Switch.Label>{t('connections.dialog.default')}</Switch.Label>
                </Switch.Root>
                <Field.Root>
                  <Field.Label>{t('connections.dialog.greetingMessage')}</Field.Label>
                  <Textarea rows={3} value={greetingMessage} onChange={(e) => setGreeting(e.target.value)} />
                </Field.Root>
                <Field.Root>
                  <Field.Label>{t('connections.dialog.token')}</Field.Label>
                  <Stack direction="row" gap="2">
                    <Input value={token} onChange={(e) => setToken(e.target.value)} maxLength={200} autoComplete="off" data-testid="connection-token" />
                    <Button variant="outline" onClick={() => setToken(newApiToken())} data-testid="connection-token-generate">
                      {t('connections.dialog.generateToken')}
                    </Button>
                  </Stack>
                  <Field.HelperText>{t('connections.dialog.tokenHelp')}</Field.HelperText>
                </Field.Root>
                {queues.length > 0 && (
                  <Box>
                    <Text textStyle="sm" fontWeight="medium" mb="2">
                      {t('connections.dialog.queues')}
                    </Text>
                    <Stack gap="1.5">
                      {queues.map((q) => (
                        <Checkbox.Root
                          key={q.id}
                          size="sm"
                          checked={queueIds.includes(q.id)}
                          onCheckedChange={(e) => setQueueIds((ids) => (e.checked ? [...ids, q.id] : ids.filter((id) => id !== q.id)))}
                        >
                          <Checkbox.HiddenInput />
                          <Checkbox.Control />
                          <Checkbox.Label>
                            <Box as="span" display="inline-block" w="2.5" h="2.5" borderRadius="full" mr="2" style={{ background: q.color }} />
                            {q.name}
                          </Checkbox.Label>
                        </Checkbox.Root>
                      ))}
                    </Stack>
                  </Box>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" colorPalette="teal" loading={creating.isLoading || updating.isLoading} data-testid="connection-save">
                {editing ? t('common.save') : t('common.add')}
              </Button>
            </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
