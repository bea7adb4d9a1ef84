import { Button, Dialog, Field, HStack, Image, Input, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import type { HelpDto } from '@wa/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/notify';
import {
  changedHelpFields,
  helpFieldBounds,
  helpFormOf,
  helpPayload,
  isHelpSaveRefusal,
  isTitleTakenMessage,
  thumbnailUrlOf,
  validateHelpForm,
  videoCodeOf,
} from '../helps/help-rules';
import { useCreateHelpMutation, useUpdateHelpMutation } from '../helps/helps.api';
import { useEntityDialog } from '../../components/use-entity-dialog';

/**
 * Add (help null) or edit a help video (spec 02 "Helps"): title, description and the video's code. A pasted
 * YouTube address (watch?v=, youtu.be/, embed/...) becomes its code at once, and the video's thumbnail shows
 * as soon as the code is one. A new help is sent whole; an edit sends what changed. A refused save keeps the
 * dialog open with the spec's message ('Não foi possível realizar a operação. Verifique se já existe uma ajuda...').
 */
export function HelpDialog({ help, onClose }: { help: HelpDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const formId = useId();
  const creating = help === null;
  const form = useEntityDialog({
    initial: () => helpFormOf(help),
    validate: validateHelpForm,
    problemText: (key, problem) => t(`settings.helps.validation.${problem}`, helpFieldBounds(key)),
  });
  const { values, set, errorOf } = form;
  const [create, creatingCall] = useCreateHelpMutation();
  const [update, updatingCall] = useUpdateHelpMutation();
  const code = videoCodeOf(values.video);

  const submit = form.handleSubmit(
    async () => {
      const body = helpPayload(values);
      if (help) {
        const changed = changedHelpFields(help, body);
        if (Object.keys(changed).length === 0) {
          onClose();
          return;
        }
        await update({ id: help.id, ...changed }).unwrap();
      } else {
        await create(body).unwrap();
      }
      notify.success(t('settings.helps.toasts.saved'));
      onClose();
    },
    (err, fields) => {
      if (isTitleTakenMessage(fields.title)) fields.title = t('settings.helps.validation.titleTaken');
      if (isHelpSaveRefusal(err)) notify.errorText(t('settings.helps.toasts.saveFailed'));
      else notify.error(err);
    },
  );

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="help-dialog">
            <Dialog.Header>
              <Dialog.Title>{creating ? t('settings.helps.dialog.addTitle') : t('settings.helps.dialog.editTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <form id={formId} onSubmit={submit} noValidate>
                <Stack gap="4">
                  <Field.Root required invalid={!!errorOf('title')}>
                    <Field.Label>{t('settings.helps.dialog.title')}</Field.Label>
                    <Input
                      value={values.title}
                      onChange={(e) => set('title', e.target.value)}
                      maxLength={200}
                      autoComplete="off"
                      data-testid="help-title"
                    />
                    {errorOf('title') && <Field.ErrorText>{errorOf('title')}</Field.ErrorText>}
                  </Field.Root>
                  <Field.Root invalid={!!errorOf('description')}>
                    <Field.Label>{t('settings.helps.dialog.description')}</Field.Label>
                    <Textarea
                      value={values.description}
                      onChange={(e) => set('description', e.target.value)}
                      rows={4}
                      data-testid="help-description"
                    />
                    {errorOf('description') && <Field.ErrorText>{errorOf('description')}</Field.ErrorText>}
                  </Field.Root>
                  <Field.Root required invalid={!!errorOf('video')}>
                    <Field.Label>{t('settings.helps.dialog.video')}</Field.Label>
                    <HStack align="start" gap="3" w="full">
                      <Stack flex="1" gap="1.5">
                        <Input
                          value={values.video}
                          // a pasted address becomes the video's code
                          onChange={(e) => set('video', videoCodeOf(e.target.value) ?? e.target.value)}
                          placeholder="dQw4w9WgXcQ"
                          autoComplete="off"
                          spellCheck={false}
                          data-testid="help-video"
                        />
                        {errorOf('video') ? (
                          <Field.ErrorText>{errorOf('video')}</Field.ErrorText>
                        ) : (
                          <Field.HelperText>{t('settings.helps.dialog.videoHint')}</Field.HelperText>
                        )}
                      </Stack>
                      {code ? (
                        <Image
                          src={thumbnailUrlOf(code)}
                          alt={t('settings.helps.dialog.preview')}
                          w="32"
                          aspectRatio={16 / 9}
                          objectFit="cover"
                          borderRadius="sm"
                          borderWidth="1px"
                          bg="bg.muted"
                          flexShrink={0}
                          data-testid="help-preview"
                        />
                      ) : (
                        <Text
                          w="32"
                          aspectRatio={16 / 9}
                          flexShrink={0}
                          display="flex"
                          alignItems="center"
                          justifyContent="center"
                          textStyle="xs"
                          color="fg.muted"
                          borderRadius="sm"
                          borderWidth="1px"
                          borderStyle="dashed"
                          textAlign="center"
                          px="1"
                        >
                          {t('settings.helps.dialog.noPreview')}
                        </Text>
                      )}
                    </HStack>
                  </Field.Root>
                </Stack>
              </form>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} data-testid="help-cancel">
                {t('common.cancel')}
              </Button>
              <Button
                type="submit"
                form={formId}
                colorPalette="teal"
                loading={creatingCall.isLoading || updatingCall.isLoading}
                data-testid="help-save"
              >
                {creating ? t('common.add') : t('common.save')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
