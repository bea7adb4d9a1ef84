import { Box, Button, Center, Dialog, Field, HStack, IconButton, Input, Portal, Spinner, Stack, Text, Textarea } from '@chakra-ui/react';
import type { FileListDto } from '@wa/contracts';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd, MdAttachFile, MdDelete } from 'react-icons/md';
import { errorText } from '../../app/errors';
import { notify } from '../../app/notify';
import { serverFieldErrors } from '../../components/form-rules';
import { useEntityDialog } from '../../components/use-entity-dialog';
import {
  fileListFormOf,
  fileListPayload,
  keptRows,
  newOptionRow,
  optionServerErrors,
  pendingUploads,
  validateFileListForm,
  withSavedList,
  withUploadedFiles,
  type FileOptionRow,
} from './file-list-rules';
import { FileOptionDownload } from './FileOptionDownload';
import { useCreateFileListMutation, useGetFileListQuery, useUpdateFileListMutation, useUploadFileListFilesMutation } from './files.api';

/**
 * Add (fileList null) or edit a file list (spec 02 "Files"). An edit reads the list anew (`GET /files/{id}`)
 * before the form shows it.
 */
export function FileListDialog({ fileList, onClose }: { fileList: FileListDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const current = useGetFileListQuery(fileList?.id ?? 0, { skip: !fileList, refetchOnMountOrArgChange: true });
  // the row as listed when the list cannot be read again
  const loaded = fileList ? (current.data ?? (current.isError ? fileList : null)) : null;
  const waiting = !!fileList && !loaded;

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="file-list-dialog">
            <Dialog.Header>
              <Dialog.Title>{fileList ? t('files.dialog.editTitle') : t('files.dialog.addTitle')}</Dialog.Title>
            </Dialog.Header>
            {waiting ? (
              <Dialog.Body>
                <Center py="10">
                  <Spinner color="teal.solid" aria-label={t('common.loading')} />
                </Center>
              </Dialog.Body>
            ) : (
              <FileListForm key={loaded?.id ?? 'new'} fileList={loaded} onClose={onClose} />
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/**
 * The form: the name (at least 3 characters: 'nome muito curto'), the message (required: 'Obrigatório') and the
 * options, each a name and a file. Saving sends the list (`POST /files` or `PUT /files/{id}`), then the files
 * picked for its options in one `POST /files/uploadList/{id}`; a refused upload leaves the list saved and the
 * dialog open to try again.
 */
function FileListForm({ fileList, onClose }: { fileList: FileListDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const formId = useId();
  const form = useEntityDialog({
    initial: () => fileListFormOf(fileList),
    validate: validateFileListForm,
    problemText: (_key, problem) => t(`files.validation.${problem}`),
  });
  const { values, setValues, set, touch, errorOf, errors, submitted } = form;
  /** the list's id once it exists (an add whose upload failed is an edit from then on) */
  const [listId, setListId] = useState<number | null>(fileList?.id ?? null);
  const [rowServerErrors, setRowServerErrors] = useState<Record<string, string>>({});
  const [filesError, setFilesError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [create] = useCreateFileListMutation();
  const [update] = useUpdateFileListMutation();
  const [upload] = useUploadFileListFilesMutation();

  function setRow(key: string, change: Partial<FileOptionRow>) {
    setValues((v) => ({ ...v, options: v.options.map((r) => (r.key === key ? { ...r, ...change } : r)) }));
    setRowServerErrors((e) => (e[key] ? { ...e, [key]: '' } : e));
    if (change.file !== undefined) setFilesError(null);
  }

  const addRow = () => setValues((v) => ({ ...v, options: [...v.options, newOptionRow()] }));
  const removeRow = (key: string) => setValues((v) => ({ ...v, options: v.options.filter((r) => r.key !== key) }));

  const rowErrorOf = (row: FileOptionRow): string | undefined => {
    const problem = errors.options?.[row.key];
    if (problem && submitted) return t(`files.validation.${problem}`);
    return rowServerErrors[row.key] || undefined;
  };

  // the list's save refused: its fields' and its options' errors show (the options' by row), with the toast
  const submit = form.handleSubmit(save, (err, fields) => {
    setRowServerErrors(optionServerErrors(fields, keptRows(values.options)));
    notify.error(err);
  });

  async function save(): Promise<void> {
    setBusy(true);
    try {
      const body = fileListPayload(values);
      const saved = listId === null ? await create(body).unwrap() : await update({ id: listId, ...body }).unwrap();
      const next = withSavedList(values, saved);
      setValues(() => next);
      setListId(saved.id);
      const uploads = pendingUploads(next.options);
      if (uploads.length > 0) {
        try {
          const withFiles = await upload({ id: saved.id, uploads }).unwrap();
          setValues(() => withUploadedFiles(next, withFiles));
        } catch (err) {
          setFilesError(serverFieldErrors(err).files ?? errorText(err));
          notify.error(err);
          return;
        }
      }
      notify.success(t('files.toasts.saved'));
      onClose();
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Dialog.Body>
        <form id={formId} onSubmit={submit} noValidate>
          <Stack gap="4">
            <Field.Root required invalid={!!errorOf('name')}>
              <Field.Label>{t('files.dialog.name')}</Field.Label>
              <Input
                value={values.name}
                onChange={(e) => set('name', e.target.value)}
                onBlur={() => touch('name')}
                autoComplete="off"
                autoFocus
                data-testid="file-list-name"
              />
              {errorOf('name') && <Field.ErrorText data-testid="file-list-name-error">{errorOf('name')}</Field.ErrorText>}
            </Field.Root>
            <Field.Root required invalid={!!errorOf('message')}>
              <Field.Label>{t('files.dialog.message')}</Field.Label>
              <Textarea
                value={values.message}
                onChange={(e) => set('message', e.target.value)}
                onBlur={() => touch('message')}
                rows={4}
                data-testid="file-list-message"
              />
              {errorOf('message') && <Field.ErrorText data-testid="file-list-message-error">{errorOf('message')}</Field.ErrorText>}
            </Field.Root>
            <Box>
              <Text textStyle="sm" fontWeight="medium" mb="2">
                {t('files.dialog.options')}
              </Text>
              <Stack gap="3" data-testid="file-options">
                {values.options.length === 0 && (
                  <Text textStyle="sm" color="fg.muted" data-testid="file-options-empty">
                    {t('files.dialog.noOptions')}
                  </Text>
                )}
                {values.options.map((row, i) => (
                  <OptionRow
                    key={row.key}
                    row={row}
                    index={i}
                    error={rowErrorOf(row)}
                    onChange={(change) => setRow(row.key, change)}
                    onRemove={() => removeRow(row.key)}
                  />
                ))}
              </Stack>
              {filesError && (
                <Text textStyle="sm" color="fg.error" mt="2" data-testid="file-list-files-error">
                  {filesError}
                </Text>
              )}
              <Button size="sm" variant="outline" mt="3" onClick={addRow} data-testid="file-option-add">
                <MdAdd />
                {t('files.dialog.addOption')}
              </Button>
            </Box>
          </Stack>
        </form>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onClose} data-testid="file-list-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" form={formId} colorPalette="teal" loading={busy} data-testid="file-list-save">
          {fileList ? t('common.save') : t('common.add')}
        </Button>
      </Dialog.Footer>
    </>
  );
}

/** One option: its name, its file (the one picked, else the saved one to download, else none) and a remove button. */
function OptionRow(props: {
  row: FileOptionRow;
  index: number;
  error?: string;
  onChange(change: Partial<FileOptionRow>): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const { row, index, error } = props;
  const input = useRef<HTMLInputElement>(null);
  const number = index + 1;

  function pick(file: File | undefined) {
    if (file) props.onChange({ file });
    // the same file may be picked again after a refusal
    if (input.current) input.current.value = '';
  }

  return (
    <Box borderWidth="1px" borderRadius="md" p="3" data-testid="file-option" data-option-id={row.id ?? undefined}>
      <HStack align="start" gap="2">
        <Field.Root required invalid={!!error} flex="1">
          <Field.Label srOnly>{t('files.dialog.optionName', { number })}</Field.Label>
          <Input
            size="sm"
            value={row.name}
            onChange={(e) => props.onChange({ name: e.target.value })}
            placeholder={t('files.dialog.optionNamePlaceholder')}
            autoComplete="off"
            data-testid="file-option-name"
          />
          {error && <Field.ErrorText data-testid="file-option-name-error">{error}</Field.ErrorText>}
        </Field.Root>
        <IconButton
          size="sm"
          variant="ghost"
          colorPalette="red"
          aria-label={t('files.dialog.removeOption', { number })}
          title={t('files.dialog.removeOption', { number })}
          onClick={props.onRemove}
          data-testid="file-option-remove"
        >
          <MdDelete />
        </IconButton>
      </HStack>
      <HStack mt="2" gap="2" wrap="wrap">
        <input
          ref={input}
          type="file"
          hidden
          aria-label={t('files.dialog.chooseFile', { number })}
          onChange={(e) => pick(e.target.files?.[0])}
          data-testid="file-option-file"
        />
        <Button size="xs" variant="outline" onClick={() => input.current?.click()} data-testid="file-option-choose">
          <MdAttachFile />
          {row.file || row.stored ? t('files.dialog.replaceFile') : t('files.dialog.chooseFileButton')}
        </Button>
        {row.file ? (
          <Text textStyle="xs" truncate maxW="64" title={row.file.name} data-testid="file-option-picked">
            {t('files.dialog.picked', { name: row.file.name })}
          </Text>
        ) : row.stored ? (
          <FileOptionDownload url={row.stored} />
        ) : (
          <Text textStyle="xs" color="fg.muted" data-testid="file-option-none">
            {t('files.dialog.noFile')}
          </Text>
        )}
      </HStack>
    </Box>
  );
}
