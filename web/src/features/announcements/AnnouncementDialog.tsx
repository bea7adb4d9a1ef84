import {
  Box,
  Button,
  Dialog,
  Field,
  HStack,
  IconButton,
  Input,
  NativeSelect,
  Portal,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@chakra-ui/react';
import type { AnnouncementDto } from '@wa/contracts';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAttachFile, MdDelete } from 'react-icons/md';
import { notify } from '../../app/notify';
import { useEntityDialog } from '../../components/use-entity-dialog';
import {
  ANNOUNCEMENT_PRIORITIES,
  announcementFormOf,
  announcementPayload,
  changedAnnouncementFields,
  IMAGE_ACCEPT,
  isAcceptedImage,
  priorityName,
  validateAnnouncementForm,
  type AnnouncementPriority,
} from './announcement-rules';
import { AnnouncementImage } from './AnnouncementImage';
import {
  useCreateAnnouncementMutation,
  useRemoveAnnouncementMediaMutation,
  useUpdateAnnouncementMutation,
  useUploadAnnouncementMediaMutation,
} from './announcements.api';

/**
 * Add (announcement null) or edit an announcement (spec 02 "Announcement"): title and text (required:
 * 'Obrigatório'), priority (1 high, 2 medium, 3 low; 3 by default), status (active by default) and an image
 * (.png, .jpg, .jpeg). The announcement is saved first, then the chosen image is uploaded (or the removed one
 * unlinked); once saved, a retry (the image failed) changes that announcement instead of making another.
 */
export function AnnouncementDialog({ announcement, onClose }: { announcement: AnnouncementDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const formId = useId();
  const form = useEntityDialog({
    initial: () => announcementFormOf(announcement),
    validate: validateAnnouncementForm,
    problemText: (_key, problem) => t(`announcements.validation.${problem}`),
  });
  const { values, set, touch, errorOf, serverErrors, setServerErrors } = form;
  /** the announcement as the server last gave it (null: not created yet) */
  const [saved, setSaved] = useState<AnnouncementDto | null>(announcement);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const [create, creating] = useCreateAnnouncementMutation();
  const [update, updating] = useUpdateAnnouncementMutation();
  const [upload, uploading] = useUploadAnnouncementMediaMutation();
  const [unlink, unlinking] = useRemoveAnnouncementMediaMutation();
  const busy = creating.isLoading || updating.isLoading || uploading.isLoading || unlinking.isLoading;
  const savedMedia = !dropMedia && saved?.mediaPath ? saved : null;
  const attachmentName = file?.name ?? savedMedia?.mediaName ?? null;

  function pick(chosen: File | undefined) {
    if (fileInput.current) fileInput.current.value = '';
    if (!chosen) return;
    if (!isAcceptedImage(chosen)) {
      setFileError(t('announcements.validation.image'));
      return;
    }
    setFileError(null);
    setServerErrors((e) => (e.file ? { ...e, file: '' } : e));
    setFile(chosen);
  }

  function removeAttachment() {
    setFile(null);
    setFileError(null);
    setDropMedia(true);
  }

  const save = form.handleSubmit(async () => {
    const body = announcementPayload(values);
    let current = saved;
    if (current) {
      const changed = changedAnnouncementFields(current, body);
      if (Object.keys(changed).length > 0) current = await update({ id: current.id, ...changed }).unwrap();
    } else {
      current = await create(body).unwrap();
    }
    setSaved(current);
    if (file) {
      current = await upload({ id: current.id, file }).unwrap();
      setSaved(current);
      setFile(null);
    } else if (dropMedia && current.mediaPath) {
      current = await unlink(current.id).unwrap();
      setSaved(current);
    }
    setDropMedia(false);
    notify.success(t('announcements.toasts.saved'));
    onClose();
  });

  /** a picture refused stops the send as a field's problem does */
  function submit(e: FormEvent) {
    if (!fileError) return save(e);
    e.preventDefault();
    form.showProblems();
  }

  const fileErrorText = fileError ?? serverErrors.file ?? serverErrors.mediaPath;

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="announcement-dialog">
            <Dialog.Header>
              <Dialog.Title>{announcement ? t('announcements.dialog.editTitle') : t('announcements.dialog.addTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <form id={formId} onSubmit={submit} noValidate>
                <Stack gap="4">
                  <Field.Root required invalid={!!errorOf('title')}>
                    <Field.Label>{t('announcements.dialog.title')}</Field.Label>
                    <Input
                      value={values.title}
                      onChange={(e) => set('title', e.target.value)}
                      onBlur={() => touch('title')}
                      autoComplete="off"
                      autoFocus
                      data-testid="announcement-title"
                    />
                    {errorOf('title') && <Field.ErrorText data-testid="announcement-title-error">{errorOf('title')}</Field.ErrorText>}
                  </Field.Root>
                  <Field.Root required invalid={!!errorOf('text')}>
                    <Field.Label>{t('announcements.dialog.text')}</Field.Label>
                    <Textarea
                      value={values.text}
                      onChange={(e) => set('text', e.target.value)}
                      onBlur={() => touch('text')}
                      rows={5}
                      data-testid="announcement-text"
                    />
                    {errorOf('text') && <Field.ErrorText data-testid="announcement-text-error">{errorOf('text')}</Field.ErrorText>}
                  </Field.Root>
                  <HStack gap="4" align="end" wrap="wrap">
                    <Field.Root flex="1" minW="40" invalid={!!errorOf('priority')}>
                      <Field.Label>{t('announcements.dialog.priority')}</Field.Label>
                      <NativeSelect.Root>
                        <NativeSelect.Field
                          value={values.priority}
                          onChange={(e) => set('priority', Number(e.target.value) as AnnouncementPriority)}
                          data-testid="announcement-priority"
                        >
                          {ANNOUNCEMENT_PRIORITIES.map((p) => (
                            <option key={p} value={p}>
                              {t(`announcements.priorities.${priorityName(p)}`)}
                            </option>
                          ))}
                        </NativeSelect.Field>
                        <NativeSelect.Indicator />
                      </NativeSelect.Root>
                      {errorOf('priority') && <Field.ErrorText>{errorOf('priority')}</Field.ErrorText>}
                    </Field.Root>
                    <Box flex="1" minW="40" pb="2">
                      <Switch.Root
                        checked={values.status}
                        onCheckedChange={(e) => set('status', e.checked)}
                        colorPalette="teal"
                        data-testid="announcement-status"
                      >
                        <Switch.HiddenInput />
                        <Switch.Control>
                          <Switch.Thumb />
                        </Switch.Control>
                        <Switch.Label>
                          {t('announcements.dialog.status')}:{' '}
                          {values.status ? t('announcements.statuses.active') : t('announcements.statuses.inactive')}
                        </Switch.Label>
                      </Switch.Root>
                    </Box>
                  </HStack>
                  <Box data-testid="announcement-media">
                    <Text textStyle="sm" fontWeight="medium" mb="1">
                      {t('announcements.dialog.image')}
                    </Text>
                    <HStack>
                      <input
                        ref={fileInput}
                        type="file"
                        accept={IMAGE_ACCEPT}
                        hidden
                        onChange={(e) => pick(e.target.files?.[0])}
                        data-testid="announcement-file"
                      />
                      <Button size="sm" variant="outline" onClick={() => fileInput.current?.click()} data-testid="announcement-attach">
                        <MdAttachFile />
                        {t('announcements.dialog.attach')}
                      </Button>
                      <Text
                        textStyle="sm"
                        flex="1"
                        truncate
                        color={attachmentName ? undefined : 'fg.muted'}
                        title={attachmentName ?? undefined}
                        data-testid="announcement-attachment"
                      >
                        {attachmentName ?? t('announcements.noAttachment')}
                      </Text>
                      {attachmentName && (
                        <IconButton
                          size="xs"
                          variant="ghost"
                          colorPalette="red"
                          aria-label={t('announcements.dialog.removeImage')}
                          title={t('announcements.dialog.removeImage')}
                          onClick={removeAttachment}
                          data-testid="announcement-remove-file"
                        >
                          <MdDelete />
                        </IconButton>
                      )}
                    </HStack>
                    {fileErrorText ? (
                      <Text textStyle="xs" color="fg.error" mt="1" data-testid="announcement-file-error">
                        {fileErrorText}
                      </Text>
                    ) : (
                      <Text textStyle="xs" color="fg.muted" mt="1">
                        {t('announcements.dialog.imageHint')}
                      </Text>
                    )}
                    {!file && savedMedia && (
                      <Box mt="2">
                        <AnnouncementImage announcement={savedMedia} maxH="32" />
                      </Box>
                    )}
                  </Box>
                </Stack>
              </form>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} data-testid="announcement-cancel">
                {t('common.cancel')}
              </Button>
              <Button type="submit" form={formId} colorPalette="teal" loading={busy} data-testid="announcement-save">
                {announcement ? t('common.save') : t('common.add')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
