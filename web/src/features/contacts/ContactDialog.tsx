import { Button, Dialog, Field, HStack, IconButton, Input, Portal, Stack, Text } from '@chakra-ui/react';
import type { ContactDto } from '@wa/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd, MdDelete } from 'react-icons/md';
import { notify } from '../../app/notify';
import { validateContactEmail, validateContactName, validateContactNumber } from './contact-rules';
import { useCreateContactMutation, useUpdateContactMutation } from './contacts.api';

/**
 * Add (contact null) or edit a contact (spec 01 §2 contact modal): name, number, email and extra info
 * rows. `onSaved` gets the saved contact (or the one that already had the number).
 */
export function ContactDialog({ contact, initialName = '', onClose, onSaved }: { contact: ContactDto | null; initialName?: string; onClose(): void; onSaved?(c: ContactDto): void }) {
  const { t } = useTranslation();
  const [create, creating] = useCreateContactMutation();
  const [update, updating] = useUpdateContactMutation();
  const [name, setName] = useState(contact?.name ?? initialName);
  const [number, setNumber] = useState(contact?.number ?? '');
  const [email, setEmail] = useState(contact?.email ?? '');
  const [extraInfo, setExtraInfo] = useState(contact?.extraInfo ?? []);
  const [touched, setTouched] = useState(false);
  const errors = { name: validateContactName(name), number: validateContactNumber(number), email: validateContactEmail(email) };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (errors.name || errors.number || errors.email) return;
    const form = { name: name.trim(), number: number.trim(), email: email.trim(), extraInfo: extraInfo.filter((r) => r.name.trim()) };
    try {
      if (contact) {
        onSaved?.(await update({ id: contact.id, ...form }).unwrap());
      } else {
        const saved = await create(form).unwrap();
        if (saved.alreadyExists) notify.info(t('contacts.alreadyExists', { name: saved.name }));
        if (saved.invalido) notify.warning(t('contacts.notOnWhatsapp'));
        onSaved?.(saved);
      }
      notify.success(t('contacts.toasts.saved'));
      onClose();
    } catch (err) {
      notify.error(err);
    }
  }

  const field = (key: keyof typeof errors, label: string, value: string, set: (v: string) => void, testId: string, required = true) => (
    <Field.Root required={required} invalid={touched && !!errors[key]}>
      <Field.Label>{label}</Field.Label>
      <Input value={value} onChange={(e) => set(e.target.value)} onBlur={() => setTouched(true)} data-testid={testId} />
      {errors[key] && <Field.ErrorText>{t(`validation.${errors[key]}`)}</Field.ErrorText>}
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
                  {field('name', t('contacts.dialog.name'), name, setName, 'contact-name')}
                  {field('number', t('contacts.dialog.number'), number, setNumber, 'contact-number')}
                  {field('email', t('contacts.dialog.email'), email, setEmail, 'contact-email', false)}
                  <Text textStyle="sm" fontWeight="medium">
                    {t('contacts.dialog.extraInfo')}
                  </Text>
                  {extraInfo.map((row, i) => (
                    <HStack key={i} data-testid="contact-extra-row">
                      <Input size="sm" placeholder={t('contacts.dialog.extraName')} value={row.name} onChange={(e) => setExtraInfo((rows) => rows.map((r, j) => (j === i ? { ...r, name: e.target.value } : r)))} />
                      <Input size="sm" placeholder={t('contacts.dialog.extraValue')} value={row.value} onChange={(e) => setExtraInfo((rows) => rows.map((r, j) => (j === i ? { ...r, value: e.target.value } : r)))} />
                      <IconButton size="sm" variant="ghost" aria-label={t('common.delete')} onClick={() => setExtraInfo((rows) => rows.filter((_r, j) => j !== i))}>
                        <MdDelete />
                      </IconButton>
                    </HStack>
                  ))}
                  <Button size="xs" variant="outline" alignSelf="start" onClick={() => setExtraInfo((rows) => [...rows, { name: '', value: '' }])} data-testid="contact-extra-add">
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
