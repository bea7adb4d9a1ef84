import { Button, Dialog, Field, Input, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import type { ScheduleDto } from '@wa/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/notify';
import { useContactQuery } from '../contacts/contacts.api';
import { ContactPicker, type PickedContact } from './ContactPicker';
import { defaultSendAt, hasScheduleErrors, isReadOnly, scheduleTitle, sendAtInput, sendAtToIso, validateSchedule, type ScheduleErrors } from './schedule-rules';
import { languageTag } from '../../app/i18n';
import { serverFieldErrors } from '../../components/form-rules';
import { SchedulePicture } from './SchedulePicture';
import { useDeleteScheduleMediaMutation, useSaveScheduleMutation, useScheduleQuery, useUploadScheduleMediaMutation } from './schedules.api';

export interface ScheduleDialogProps {
  /** the schedule to show or change; null for a new one */
  schedule: ScheduleDto | null;
  /** a new schedule for this contact (from a ticket or a contact): the contact is fixed */
  forContact?: { id: number; name?: string; number?: string };
  onClose(): void;
  onSaved?(schedule: ScheduleDto): void;
}

/**
 * spec 01 §2 "Schedule dialog": contact, message, send time (default one hour from now) and an optional
 * picture uploaded after the save; the title shows the status (with the reason of a failed send). A sent
 * schedule is shown read-only. Saving a failed one again tries it again.
 */
export function ScheduleDialog({ schedule, forContact, onClose, onSaved }: ScheduleDialogProps) {
  const { t, i18n } = useTranslation();
  const live = useScheduleQuery(schedule?.id ?? 0, { skip: !schedule, refetchOnMountOrArgChange: true });
  const current = schedule ? (live.data ?? schedule) : null;
  const readOnly = isReadOnly(current);
  const fixedLookup = useContactQuery(forContact?.id ?? 0, { skip: !forContact || !!forContact.name });
  const fixed: PickedContact | null = forContact
    ? { id: forContact.id, name: fixedLookup.data?.name ?? forContact.name ?? `#${forContact.id}`, number: fixedLookup.data?.number ?? forContact.number ?? '' }
    : null;
  const [picked, setPicked] = useState<PickedContact | null>(schedule?.contact ?? null);
  const contact = fixed ?? picked;
  const [body, setBody] = useState(schedule?.body ?? '');
  const [sendAt, setSendAt] = useState(() => (schedule ? sendAtInput(schedule.sendAt) : defaultSendAt()));
  const [file, setFile] = useState<File | null>(null);
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  // once saved, a retry (the picture failed) changes that schedule instead of making another
  const [savedId, setSavedId] = useState<number | undefined>(schedule?.id);
  const [save, saving] = useSaveScheduleMutation();
  const [upload, uploading] = useUploadScheduleMediaMutation();
  const [unlink, unlinking] = useDeleteScheduleMediaMutation();
  const errors: ScheduleErrors = validateSchedule({ body, contactId: contact?.id ?? null, sendAt });
  const problem = (field: keyof ScheduleErrors) => (touched && errors[field] ? t(`schedules.validation.${errors[field]}`) : (serverErrors[field] ?? null));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    const iso = sendAtToIso(sendAt);
    if (readOnly || hasScheduleErrors(errors) || !contact || !iso) return;
    setServerErrors({});
    try {
      let saved = await save({ id: savedId, body: body.trim(), contactId: contact.id, sendAt: iso }).unwrap();
      setSavedId(saved.id);
      if (file) {
        saved = await upload({ id: saved.id, file }).unwrap();
        setFile(null);
      }
      notify.success(t('schedules.toasts.saved'));
      onSaved?.(saved);
      onClose();
    } catch (err) {
      setServerErrors(serverFieldErrors(err));
      notify.error(err);
    }
  }

  async function removeSavedPicture() {
    if (!current) return;
    try {
      await unlink(current.id).unwrap();
      notify.success(t('schedules.toasts.mediaDeleted'));
    } catch (err) {
      notify.error(err);
    }
  }

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="md">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="schedule-dialog" data-status={current?.status ?? 'NEW'}>
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title data-testid="schedule-dialog-title">{scheduleTitle(current, t)}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  {current?.sentAt && (
                    <Text textStyle="sm" color="fg.muted" data-testid="schedule-sent-at">
                      {t('schedules.dialog.sentAt', { date: new Date(current.sentAt).toLocaleString(languageTag(i18n.language)) })}
                    </Text>
                  )}
                  <ContactPicker value={contact} onChange={setPicked} disabled={!!fixed || readOnly} error={problem('contactId')} />
                  <Field.Root required invalid={!!problem('body')} disabled={readOnly}>
                    <Field.Label>{t('schedules.dialog.body')}</Field.Label>
                    <Textarea value={body} onChange={(e) => setBody(e.target.value)} rows={5} maxLength={10_000} data-testid="schedule-body" />
                    {problem('body') && <Field.ErrorText>{problem('body')}</Field.ErrorText>}
                  </Field.Root>
                  <Field.Root required invalid={!!problem('sendAt')} disabled={readOnly}>
                    <Field.Label>{t('schedules.dialog.sendAt')}</Field.Label>
                    <Input type="datetime-local" value={sendAt} onChange={(e) => setSendAt(e.target.value)} data-testid="schedule-send-at" />
                    {problem('sendAt') && <Field.ErrorText>{problem('sendAt')}</Field.ErrorText>}
                  </Field.Root>
                  <SchedulePicture
                    saved={current?.mediaPath ? { url: current.mediaPath, name: current.mediaName ?? '' } : null}
                    picked={file}
                    onPick={setFile}
                    onRemoveSaved={() => void removeSavedPicture()}
                    removing={unlinking.isLoading}
                    readOnly={readOnly}
                    error={serverErrors.file ?? null}
                  />
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose} data-testid="schedule-cancel">
                  {readOnly ? t('common.close') : t('common.cancel')}
                </Button>
                {!readOnly && (
                  <Button type="submit" colorPalette="teal" loading={saving.isLoading || uploading.isLoading} data-testid="schedule-save">
                    {t('common.save')}
                  </Button>
                )}
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
