import { Button, Dialog, Field, HStack, IconButton, Input, Portal, Stack, Text } from '@chakra-ui/react';
import type { ContactDto } from '@wa/contracts';
import { useTranslation } from 'react-i18next';
import { MdAdd, MdDelete } from 'react-icons/md';
import { notify } from '../../app/notify';
import { useEntityDialog } from '../../components/use-entity-dialog';
import { validateContactEmail, validateContactName, validateContactNumber } from './contact-rules';
import { useCreateContactMutation, useUpdateContactMutation } from './contacts.api';

/**
 * Add (contact null) or edit a contact (spec 01 §2 contact modal): name, number, email and extra info
 * rows. `onSaved` gets the saved contact (or the one that already had the number).
 */
export function ContactDialog({
  contact,
  initialName = '',
  onClose,
  onSaved,
}: {
  contact: ContactDto | null;
  initialName?: string;
  onClose(): void;
  onSaved?(c: ContactDto): void;
}) {
  const { t } = useTranslation();
  const [create, creating] = useCreateContactMutation();
  const [update, updating] = useUpdateContactMutation();
  const form = useEntityDialog({
    initial: () => ({
      name: contact?.name ?? initialName,
      number: contact?.number ?? '',
      email: contact?.email ?? '',
      extraInfo: contact?.extraInfo ?? [],
    }),
    validate: (v: { name: string; number: string; email: string }) => ({
      name: validateContactName(v.name),
      number: validateContactNumber(v.number),
      email: validateContactEmail(v.email),
    }),
    problemText: (_key, problem) => t(`validation.${problem}`),
  });
  const { values, errorOf } = form;
  const setExtraInfo = (change: (rows: ContactDto['extraInfo']) => ContactDto['extraInfo']) =>
    form.setValues((v) => ({ ...v, extraInfo: change(v.extraInfo) }));

  const submit = form.handleSubmit(async () => {
    const body = {
      name: values.name.trim(),
      number: values.number.trim(),
      email: values.email.trim(),
      extraInfo: values.extraInfo.filter((r) => r.name.trim()),
    };
    if (contact) {
      onSaved?.(await update({ id: contact.id, ...body }).unwrap());
    } else {
      const saved = await create(body).unwrap();
      if (saved.alreadyExists) notify.info(t('contacts.alreadyExists', { name: saved.name }));
      if (saved.invalido) notify.warning(t('contacts.notOnWhatsapp'));
      onSaved?.(saved);
    }
    notify.success(t('contacts.toasts.saved'));
    onClose();
  });

  const field = (key: 'name' | 'number' | 'email', label: string, testId: string, required = true) => (
    <Field.Root required={required} invalid={!!errorOf(key)}>
      <Field.Label>{label}</Field.Label>
      <Input value={values[key]} onChange={(e) => form.set(key, e.target.value)} onBlur={form.showProblems} data-testid={testId} />
      {errorOf(key) && <Field.ErrorText>{errorOf(key)}</Field.ErrorText>}
    </Field.Root>
  );

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="md">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="contact-dialog">
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{contact ? t('contacts.dialog.editTitle') : t('contacts.dialog.addTitle')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  {field('name', t('contacts.dialog.name'), 'contact-name')}
                  {field('number', t('contacts.dialog.number'), 'contact-number')}
                  {field('email', t('contacts.dialog.email'), 'contact-email', false)}
                  <Text textStyle="sm" fontWeight="medium">
                    {t('contacts.dialog.extraInfo')}
                  </Text>
                  {values.extraInfo.map((row, i) => (
                    <HStack key={i} data-testid="contact-extra-row">
                      <Input
                        size="sm"
                        placeholder={t('contacts.dialog.extraName')}
                        aria-label={t('contacts.dialog.extraName')}
                        value={row.name}
                        onChange={(e) => setExtraInfo((rows) => rows.map((r, j) => (j === i ? { ...r, name: e.target.value } : r)))}
                      />
                      <Input
                        size="sm"
                        placeholder={t('contacts.dialog.extraValue')}
                        aria-label={t('contacts.dialog.extraValue')}
                        value={row.value}
                        onChange={(e) => setExtraInfo((rows) => rows.map((r, j) => (j === i ? { ...r, value: e.target.value } : r)))}
                      />
                      <IconButton
                        size="sm"
                        variant="ghost"
                        aria-label={t('common.delete')}
                        onClick={() => setExtraInfo((rows) => rows.filter((_r, j) => j !== i))}
                      >
                        <MdDelete />
                      </IconButton>
                    </HStack>
                  ))}
                  <Button
                    size="xs"
                    variant="outline"
                    alignSelf="start"
                    onClick={() => setExtraInfo((rows) => [...rows, { name: '', value: '' }])}
                    data-testid="contact-extra-add"
                  >
                    <MdAdd />
                    {t('contacts.dialog.addExtra')}
                  </Button>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" colorPalette="teal" loading={creating.isLoading || updating.isLoading} data-testid="contact-save">
                  {contact ? t('common.save') : t('common.add')}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
