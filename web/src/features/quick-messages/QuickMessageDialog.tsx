import { Button, Checkbox, Dialog, Field, HStack, Input, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import type { QuickMessageDto } from '@wa/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAttachFile, MdDelete } from 'react-icons/md';
import { notify } from '../../app/notify';
import { useAppDispatch } from '../../app/store';
import { useEntityDialog } from '../../components/use-entity-dialog';
import {
  refreshQuickMessages,
  useDeleteQuickMessageMediaMutation,
  useSaveQuickMessageMutation,
  useUploadQuickMessageMediaMutation,
} from './quick-messages.api';

/** The variables a quick reply may carry, filled when it is sent (spec 02: the insert-variable helper). */
export const QUICK_MESSAGE_VARIABLES = ['firstName', 'name', 'ms', 'protocol', 'hora'] as const;

interface QuickMessageFormValues {
  shortcode: string;
  message: string;
  geral: boolean;
}

/** spec 02 §5: the shortcode is required. */
const validateQuickMessage = (v: QuickMessageFormValues) => ({ shortcode: v.shortcode.trim() === '' ? ('required' as const) : undefined });

/** Add (null) or edit a quick reply: shortcode (required: "Obrigatório"), message with variables, shared flag, attachment. */
export function QuickMessageDialog({ record, onClose }: { record: QuickMessageDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  // the rule's text shows once the form is sent ('Obrigatório', as the spec writes it in every language)
  const form = useEntityDialog({
    initial: (): QuickMessageFormValues => ({
      shortcode: record?.shortcode ?? '',
      message: record?.message ?? '',
      geral: record?.geral ?? false,
    }),
    validate: validateQuickMessage,
    problemText: () => 'Obrigatório',
  });
  const { values, set, errorOf } = form;
  const { message } = values;
  const [file, setFile] = useState<File | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  // once saved, a retry (the attachment failed) changes that reply instead of making another
  const [savedId, setSavedId] = useState<number | undefined>(record?.id);
  const text = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [save, saving] = useSaveQuickMessageMutation();
  const [upload, uploading] = useUploadQuickMessageMediaMutation();
  const [unlink] = useDeleteQuickMessageMediaMutation();
  const attachment = file?.name ?? (!dropMedia && record?.mediaName) ?? null;

  function insertVariable(name: string) {
    const el = text.current;
    const token = `{{${name}}}`;
    const at = el ? el.selectionStart : message.length;
    set('message', message.slice(0, at) + token + message.slice(el ? el.selectionEnd : message.length));
  }

  const submit = form.handleSubmit(async (v) => {
    const saved = await save({ id: savedId, shortcode: v.shortcode.trim(), message: v.message, geral: v.geral }).unwrap();
    setSavedId(saved.id);
    if (file) await upload({ id: saved.id, file }).unwrap();
    else if (dropMedia && record?.mediaPath) await unlink(saved.id).unwrap();
    dispatch(refreshQuickMessages());
    notify.success(t('quickMessages.saved'));
    onClose();
  });

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="md">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="quick-message-dialog">
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{record ? t('quickMessages.edit') : t('quickMessages.add')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Field.Root required invalid={!!errorOf('shortcode')}>
                    <Field.Label>{t('quickMessages.shortcode')}</Field.Label>
                    <Input
                      value={values.shortcode}
                      onChange={(e) => set('shortcode', e.target.value)}
                      maxLength={100}
                      autoFocus
                      data-testid="quick-message-shortcode"
                    />
                    {errorOf('shortcode') && <Field.ErrorText>{errorOf('shortcode')}</Field.ErrorText>}
                  </Field.Root>
                  <Field.Root invalid={!!errorOf('message')}>
                    <Field.Label>{t('quickMessages.message')}</Field.Label>
                    <Textarea
                      ref={text}
                      value={message}
                      onChange={(e) => set('message', e.target.value)}
                      rows={5}
                      data-testid="quick-message-text"
                    />
                    {errorOf('message') && <Field.ErrorText>{errorOf('message')}</Field.ErrorText>}
                    <HStack gap="1" wrap="wrap" mt="1">
                      <Text textStyle="xs" color="fg.muted">
                        {t('quickMessages.variables')}
                      </Text>
                      {QUICK_MESSAGE_VARIABLES.map((v) => (
                        <Button
                          key={v}
                          size="2xs"
                          variant="subtle"
                          onClick={() => insertVariable(v)}
                          data-testid={`quick-message-var-${v}`}
                        >
                          {`{{${v}}}`}
                        </Button>
                      ))}
                    </HStack>
                  </Field.Root>
                  <Checkbox.Root
                    checked={values.geral}
                    onCheckedChange={(e) => set('geral', e.checked === true)}
                    data-testid="quick-message-geral"
                  >
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label>{t('quickMessages.shared')}</Checkbox.Label>
                  </Checkbox.Root>
                  <HStack>
                    <input
                      ref={fileInput}
                      type="file"
                      hidden
                      onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                      data-testid="quick-message-file"
                    />
                    <Button size="sm" variant="outline" onClick={() => fileInput.current?.click()}>
                      <MdAttachFile />
                      {t('quickMessages.attach')}
                    </Button>
                    <Text textStyle="sm" flex="1" truncate data-testid="quick-message-attachment">
                      {attachment ?? t('quickMessages.noAttachment')}
                    </Text>
                    {attachment && (
                      <Button
                        size="xs"
                        variant="ghost"
                        colorPalette="red"
                        onClick={() => {
                          setFile(null);
                          setDropMedia(true);
                        }}
                        aria-label={t('common.delete')}
                      >
                        <MdDelete />
                      </Button>
                    )}
                  </HStack>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose}>
                  {t('common.cancel')}
                </Button>
                <Button
                  type="submit"
                  colorPalette="teal"
                  loading={saving.isLoading || uploading.isLoading}
                  data-testid="quick-message-save"
                >
                  {t('common.save')}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
