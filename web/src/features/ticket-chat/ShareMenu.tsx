import { Button, Dialog, Field, IconButton, Input, Menu, Portal, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdContactPhone, MdPlace, MdShare } from 'react-icons/md';
import { notify } from '../../app/notify';
import { useSendSharedMutation } from './chat.api';

type Sharing = 'location' | 'contact';

/** A number typed with or without its mask (`+55 (11) 4000-1234`), as the server takes it: 8 to 20 digits. */
export const contactNumberOk = (typed: string): boolean => /^\d{8,20}$/.test(typed.replace(/\D/g, ''));

/** A coordinate typed with a comma or a dot as its decimal mark, within its range; null when it is not one. */
export function coordinate(typed: string, limit: 90 | 180): number | null {
  const value = Number(typed.trim().replace(',', '.'));
  return typed.trim() !== '' && Number.isFinite(value) && Math.abs(value) <= limit ? value : null;
}

/**
 * The composer's share menu: a place ("Localização": latitude, longitude, an optional name) or a contact card
 * ("Contato": name and number) sent into the ticket instead of a text; the customer's WhatsApp shows them as such.
 */
export function ShareMenu({ ticketId, disabled }: { ticketId: number; disabled: boolean }) {
  const { t } = useTranslation();
  const [sharing, setSharing] = useState<Sharing | null>(null);
  return (
    <>
      <Menu.Root lazyMount unmountOnExit>
        <Menu.Trigger asChild>
          <IconButton
            variant="ghost"
            aria-label={t('chat.share.open')}
            title={t('chat.share.open')}
            disabled={disabled}
            data-testid="share"
          >
            <MdShare />
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content>
              <Menu.Item value="location" onClick={() => setSharing('location')} data-testid="share-location">
                <MdPlace /> {t('chat.share.location')}
              </Menu.Item>
              <Menu.Item value="contact" onClick={() => setSharing('contact')} data-testid="share-contact">
                <MdContactPhone /> {t('chat.share.contact')}
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      {sharing && <ShareDialog ticketId={ticketId} sharing={sharing} onClose={() => setSharing(null)} />}
    </>
  );
}

function ShareDialog({ ticketId, sharing, onClose }: { ticketId: number; sharing: Sharing; onClose(): void }) {
  const { t } = useTranslation();
  const [send, { isLoading }] = useSendSharedMutation();
  const [fields, setFields] = useState({ latitude: '', longitude: '', name: '', number: '' });
  const [tried, setTried] = useState(false);
  const set = (key: keyof typeof fields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: e.target.value }));
  const latitude = coordinate(fields.latitude, 90);
  const longitude = coordinate(fields.longitude, 180);
  const errors =
    sharing === 'location'
      ? { latitude: latitude === null, longitude: longitude === null, name: false, number: false }
      : { latitude: false, longitude: false, name: fields.name.trim() === '', number: !contactNumberOk(fields.number) };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (Object.values(errors).some(Boolean)) return;
    try {
      if (sharing === 'location' && latitude !== null && longitude !== null)
        await send({ ticketId, location: { latitude, longitude, ...(fields.name.trim() ? { name: fields.name.trim() } : {}) } }).unwrap();
      else await send({ ticketId, contact: { name: fields.name.trim(), number: fields.number.replace(/\D/g, '') } }).unwrap();
      onClose();
    } catch (err) {
      notify.error(err);
    }
  }

  const field = (key: keyof typeof fields, label: string, invalid: string, inputMode?: 'decimal' | 'tel', required = true) => (
    <Field.Root invalid={tried && errors[key]} required={required}>
      <Field.Label>{label}</Field.Label>
      <Input value={fields[key]} onChange={set(key)} inputMode={inputMode} data-testid={`share-${key}`} />
      <Field.ErrorText>{invalid}</Field.ErrorText>
    </Field.Root>
  );
  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="sm">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="share-dialog">
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{t(sharing === 'location' ? 'chat.share.locationTitle' : 'chat.share.contactTitle')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  {sharing === 'location' ? (
                    <>
                      {field('latitude', t('chat.share.latitude'), t('chat.share.latitudeInvalid'), 'decimal')}
                      {field('longitude', t('chat.share.longitude'), t('chat.share.longitudeInvalid'), 'decimal')}
                      {field('name', t('chat.share.placeName'), '', undefined, false)}
                    </>
                  ) : (
                    <>
                      {field('name', t('chat.share.contactName'), t('chat.share.contactNameInvalid'))}
                      {field('number', t('chat.share.contactNumber'), t('chat.share.contactNumberInvalid'), 'tel')}
                    </>
                  )}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose}>
                  {t('chat.share.cancel')}
                </Button>
                <Button type="submit" colorPalette="teal" loading={isLoading} data-testid="share-send">
                  {t('chat.share.send')}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
