import { Button, Dialog, Field, Input, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import type { ScheduleDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/notify';
import { useContactQuery } from '../contacts/contacts.api';
import { ContactPicker, type PickedContact } from './ContactPicker';
import { defaultSendAt, isReadOnly, scheduleTitle, sendAtInput, sendAtToIso, validateSchedule } from './schedule-rules';
import { languageTag } from '../../app/i18n';
import { useEntityDialog } from '../../components/use-entity-dialog';
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
    ? {
        id: forContact.id,
        name: fixedLookup.data?.name ?? forContact.name ?? `#${forContact.id}`,
        number: fixedLookup.data?.number ?? forContact.number ?? '',
      }
    : null;
  // the rules' texts show once the form is sent; the server's field errors until the field changes
  const form = useEntityDialog({
    initial: () => ({
      picked: (schedule?.contact ?? null) as PickedContact | null,
      body: schedule?.body ?? '',
      sendAt: schedule ? sendAtInput(schedule.sendAt) : defaultSendAt(),
    }),
    validate: (v) => validateSchedule({ body: v.body, contactId: (fixed ?? v.picked)?.id ?? null, sendAt: v.sendAt }),
    problemText: (_key, problem) => t(`schedules.validation.${problem}`),
  });
  const { values, set, errorOf } = form;
  const contact = fixed ?? values.picked;
  const [file, setFile] = useState<File | null>(null);
  // once saved, a retry (the picture failed) changes that schedule instead of making another
  const [savedId, setSavedId] = useState<number | undefined>(schedule?.id);
  const [save, saving] = useSaveScheduleMutation();
  const [upload, uploading] = useUploadScheduleMediaMutation();
  const [unlink, unlinking] = useDeleteScheduleMediaMutation();
  const problem = (field: 'contactId' | 'body' | 'sendAt') => errorOf(field) ?? null;

  const submit = form.handleSubmit(async (v) => {
    const iso = sendAtToIso(v.sendAt);
    if (readOnly || !contact || !iso) return;
    form.setServerErrors({});
    let saved = await save({ id: savedId, body: v.body.trim(), contactId: contact.id, sendAt: iso }).unwrap();
    setSavedId(saved.id);
    if (file) {
      saved = await upload({ id: saved.id, file }).unwrap();
      setFile(null);
    }
    notify.success(t('schedules.toasts.saved'));
    onSaved?.(saved);
    onClose();
  });

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
                  <ContactPicker
                    value={contact}
                    onChange={(c) => set('picked', c)}
                    disabled={!!fixed || readOnly}
                    error={problem('contactId')}
                  />
                  <Field.Root required invalid={!!problem('body')} disabled={readOnly}>
                    <Field.Label>{t('schedules.dialog.body')}</Field.Label>
                    <Textarea
                      value={values.body}
                      onChange={(e) => set('body', e.target.value)}
                      rows={5}
                      maxLength={10_000}
                      data-testid="schedule-body"
                    />
                    {problem('body') && <Field.ErrorText>{problem('body')}</Field.ErrorText>}
                  </Field.Root>
                  <Field.Root required invalid={!!problem('sendAt')} disabled={readOnly}>
                    <Field.Label>{t('schedules.dialog.sendAt')}</Field.Label>
                    <Input
                      type="datetime-local"
                      value={values.sendAt}
                      onChange={(e) => set('sendAt', e.target.value)}
                      data-testid="schedule-send-at"
                    />
                    {problem('sendAt') && <Field.ErrorText>{problem('sendAt')}</Field.ErrorText>}
                  </Field.Root>
                  <SchedulePicture
                    saved={current?.mediaPath ? { url: current.mediaPath, name: current.mediaName ?? '' } : null}
                    picked={file}
                    onPick={setFile}
                    onRemoveSaved={() => void removeSavedPicture()}
                    removing={unlinking.isLoading}
                    readOnly={readOnly}
                    error={form.serverErrors.file || null}
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
