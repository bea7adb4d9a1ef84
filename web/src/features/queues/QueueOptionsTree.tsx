import { Badge, Box, Button, chakra, Field, HStack, IconButton, Input, Spinner, Stack, Text, Textarea } from '@chakra-ui/react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd, MdAttachFile, MdChevronRight, MdClose, MdDelete, MdEdit, MdExpandMore } from 'react-icons/md';
import { errorText } from '../../app/errors';
import { notify } from '../../app/notify';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { serverFieldErrors } from '../../components/form-rules';
import { hasQueueOptionErrors, nextOptionNumber, validateQueueOption, type QueueOptionFormValues } from './queue-rules';
import {
  useCreateQueueOptionMutation,
  useDeleteQueueOptionMutation,
  useListQueueOptionsQuery,
  useRemoveQueueOptionMediaMutation,
  useUpdateQueueOptionMutation,
  useUploadQueueOptionMediaMutation,
  type QueueOptionDto,
} from './queues.api';

/**
 * A queue's chatbot tree (spec 02 "Queue options"): the first level, each option with its number, title and
 * message, edit, delete (its sub-options go with it) and its sub-options, loaded when opened; an "add" at each level.
 */
export function QueueOptionsTree({ queueId }: { queueId: number }) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState<QueueOptionDto | null>(null);
  const [remove, removing] = useDeleteQueueOptionMutation();

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove({ id: deleting.id, queueId }).unwrap();
      notify.success(t('queues.options.toasts.deleted'));
      setDeleting(null);
    } catch (err) {
      notify.error(err);
    }
  }

  return (
    <Stack gap="3" data-testid="queue-options">
      <Text textStyle="xs" color="fg.muted">
        {t('queues.options.hint')}
      </Text>
      <OptionLevel queueId={queueId} parentId={null} onDelete={setDeleting} />
      <ConfirmDialog
        open={!!deleting}
        title={t('queues.options.confirm.deleteTitle', { option: deleting ? `${deleting.option} - ${deleting.title}` : '' })}
        message={t('queues.options.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

/** One level of the tree: the first (parentId null) or the options under parentId. */
function OptionLevel({
  queueId,
  parentId,
  onDelete,
}: {
  queueId: number;
  parentId: number | null;
  onDelete(option: QueueOptionDto): void;
}) {
  const { t } = useTranslation();
  const { data: options = [], isLoading, isError, error } = useListQueueOptionsQuery({ queueId, parentId });
  const [adding, setAdding] = useState(false);
  const top = parentId === null;

  return (
    <Stack gap="1.5" data-testid={top ? 'queue-options-level' : `queue-options-level-${parentId}`}>
      {isLoading && <Spinner size="sm" color="teal.solid" />}
      {isError && (
        <Text textStyle="sm" color="fg.error">
          {errorText(error)}
        </Text>
      )}
      {top && !isLoading && !isError && options.length === 0 && !adding && (
        <Text textStyle="sm" color="fg.muted" data-testid="queue-options-empty">
          {t('queues.options.empty')}
        </Text>
      )}
      {options.map((o) => (
        <OptionRow key={o.id} queueId={queueId} option={o} siblings={options.filter((s) => s.id !== o.id)} onDelete={onDelete} />
      ))}
      {adding ? (
        <OptionForm queueId={queueId} parentId={parentId} option={null} siblings={options} onDone={() => setAdding(false)} />
      ) : (
        <Box>
          <Button
            size="xs"
            variant="ghost"
            colorPalette="teal"
            onClick={() => setAdding(true)}
            data-testid={top ? 'queue-option-add' : `queue-option-add-${parentId}`}
          >
            <MdAdd />
            {top ? t('queues.options.add') : t('queues.options.addSub')}
          </Button>
        </Box>
      )}
    </Stack>
  );
}

/** An option: its number, title, message and attachment, or its form while edited; its sub-options below it once opened. */
function OptionRow({
  queueId,
  option,
  siblings,
  onDelete,
}: {
  queueId: number;
  option: QueueOptionDto;
  siblings: QueueOptionDto[];
  onDelete(option: QueueOptionDto): void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const [mediaError, setMediaError] = useState<string | null>(null);
  const [upload, uploading] = useUploadQueueOptionMediaMutation();
  const [unlink, unlinking] = useRemoveQueueOptionMediaMutation();

  /** uploads the picked file at once (replacing the one it had), or removes the attachment (file null); undefined: nothing picked */
  async function changeMedia(file: File | null | undefined) {
    if (fileInput.current) fileInput.current.value = '';
    if (file === undefined) return;
    setMediaError(null);
    try {
      if (file) await upload({ id: option.id, queueId, file }).unwrap();
      else await unlink({ id: option.id, queueId }).unwrap();
      notify.success(file ? t('queues.media.attached') : t('queues.media.removed'));
    } catch (err) {
      setMediaError(serverFieldErrors(err).file ?? null);
      notify.error(err);
    }
  }

  return (
    <Box data-testid={`queue-option-${option.id}`} data-option={option.option}>
      {editing ? (
        <OptionForm queueId={queueId} parentId={option.parentId} option={option} siblings={siblings} onDone={() => setEditing(false)} />
      ) : (
        <HStack gap="2" align="center" borderWidth="1px" borderRadius="md" bg="bg" px="2" py="1.5">
          <Button
            size="2xs"
            variant="ghost"
            px="1"
            minW="10"
            aria-expanded={expanded}
            aria-label={expanded ? t('queues.options.collapse') : t('queues.options.expand')}
            title={expanded ? t('queues.options.collapse') : t('queues.options.expand')}
            onClick={() => setExpanded((x) => !x)}
            data-testid={`queue-option-expand-${option.id}`}
          >
            {expanded ? <MdExpandMore /> : <MdChevronRight />}
            {option.children > 0 && (
              <Text as="span" textStyle="xs" color="fg.muted" data-testid="queue-option-children">
                {option.children}
              </Text>
            )}
          </Button>
          <Badge colorPalette="teal" variant="solid" minW="7" justifyContent="center" data-testid="queue-option-number-badge">
            {option.option}
          </Badge>
          <Box flex="1" minW="0">
            <Text textStyle="sm" fontWeight="medium" truncate data-testid="queue-option-title-text">
              {option.title}
            </Text>
            {option.message && (
              <Text textStyle="xs" color="fg.muted" truncate title={option.message} data-testid="queue-option-message-text">
                {option.message}
              </Text>
            )}
            {option.mediaName && (
              <HStack gap="1" color="fg.muted" data-testid={`queue-option-media-${option.id}`}>
                <MdAttachFile />
                <Text textStyle="xs" truncate title={option.mediaName} data-testid="queue-option-media-name">
                  {option.mediaName}
                </Text>
                <IconButton
                  size="2xs"
                  variant="ghost"
                  colorPalette="red"
                  loading={unlinking.isLoading}
                  aria-label={t('queues.media.remove')}
                  title={t('queues.media.remove')}
                  onClick={() => void changeMedia(null)}
                  data-testid={`queue-option-media-remove-${option.id}`}
                >
                  <MdClose />
                </IconButton>
              </HStack>
            )}
            {mediaError && (
              <Text textStyle="xs" color="fg.error" data-testid={`queue-option-media-error-${option.id}`}>
                {mediaError}
              </Text>
            )}
          </Box>
          <input
            ref={fileInput}
            type="file"
            hidden
            onChange={(e) => void changeMedia(e.target.files?.[0])}
            data-testid={`queue-option-media-input-${option.id}`}
          />
          <IconButton
            size="xs"
            variant="ghost"
            loading={uploading.isLoading}
            aria-label={t('queues.media.attach')}
            title={t('queues.media.attach')}
            onClick={() => fileInput.current?.click()}
            data-testid={`queue-option-media-attach-${option.id}`}
          >
            <MdAttachFile />
          </IconButton>
          <IconButton
            size="xs"
            variant="ghost"
            aria-label={t('common.edit')}
            onClick={() => setEditing(true)}
            data-testid={`queue-option-edit-${option.id}`}
          >
            <MdEdit />
          </IconButton>
          <IconButton
            size="xs"
            variant="ghost"
            colorPalette="red"
            aria-label={t('common.delete')}
            onClick={() => onDelete(option)}
            data-testid={`queue-option-delete-${option.id}`}
          >
            <MdDelete />
          </IconButton>
        </HStack>
      )}
      {expanded && (
        <Box ms="3" ps="4" mt="1.5" borderStartWidth="2px" borderColor="border">
          <OptionLevel queueId={queueId} parentId={option.id} onDelete={onDelete} />
        </Box>
      )}
    </Box>
  );
}

/**
 * Add (option null) or edit an option of one level: number (1 to 999, not one a sibling has), title
 * (required) and message. The server's field errors show under their fields.
 */
function OptionForm(props: {
  queueId: number;
  parentId: number | null;
  option: QueueOptionDto | null;
  siblings: QueueOptionDto[];
  onDone(): void;
}) {
  const { queueId, parentId, option, siblings, onDone } = props;
  const { t } = useTranslation();
  const [values, setValues] = useState<QueueOptionFormValues>(() =>
    option
      ? { option: option.option, title: option.title, message: option.message ?? '' }
      : { option: nextOptionNumber(siblings), title: '', message: '' },
  );
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const errors = validateQueueOption(values, siblings);
  const [create, creating] = useCreateQueueOptionMutation();
  const [update, updating] = useUpdateQueueOptionMutation();

  function set<K extends keyof QueueOptionFormValues>(key: K, value: QueueOptionFormValues[K]) {
    setValues((v) => ({ ...v, [key]: value }));
    setServerErrors((e) => (e[key] ? { ...e, [key]: '' } : e));
  }

  const errorOf = (key: keyof QueueOptionFormValues): string | undefined => {
    const problem = key === 'message' ? undefined : errors[key];
    return touched && problem ? t(`queues.options.validation.${problem}`) : serverErrors[key] || undefined;
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    e.stopPropagation();
    setTouched(true);
    if (hasQueueOptionErrors(errors)) return;
    const body = { option: values.option.trim(), title: values.title.trim(), message: values.message };
    try {
      if (option) await update({ id: option.id, queueId, ...body }).unwrap();
      else await create({ queueId, parentId, ...body }).unwrap();
      notify.success(t('queues.options.toasts.saved'));
      onDone();
    } catch (err) {
      setServerErrors(serverFieldErrors(err));
      notify.error(err);
    }
  }

  return (
    <chakra.form onSubmit={submit} noValidate borderWidth="1px" borderRadius="md" bg="bg.subtle" p="3" data-testid="queue-option-form">
      <Stack gap="3">
        <HStack align="start" gap="3">
          <Field.Root required invalid={!!errorOf('option')} w="28" flexShrink={0}>
            <Field.Label>{t('queues.options.fields.option')}</Field.Label>
            <Input
              size="sm"
              inputMode="numeric"
              value={values.option}
              onChange={(e) => set('option', e.target.value)}
              autoComplete="off"
              data-testid="queue-option-number"
            />
            {errorOf('option') && <Field.ErrorText>{errorOf('option')}</Field.ErrorText>}
          </Field.Root>
          <Field.Root required invalid={!!errorOf('title')} flex="1">
            <Field.Label>{t('queues.options.fields.title')}</Field.Label>
            <Input
              size="sm"
              value={values.title}
              onChange={(e) => set('title', e.target.value)}
              autoComplete="off"
              autoFocus
              data-testid="queue-option-title"
            />
            {errorOf('title') && <Field.ErrorText>{errorOf('title')}</Field.ErrorText>}
          </Field.Root>
        </HStack>
        <Field.Root invalid={!!errorOf('message')}>
          <Field.Label>{t('queues.options.fields.message')}</Field.Label>
          <Textarea
            size="sm"
            rows={3}
            value={values.message}
            onChange={(e) => set('message', e.target.value)}
            data-testid="queue-option-message"
          />
          {errorOf('message') && <Field.ErrorText>{errorOf('message')}</Field.ErrorText>}
        </Field.Root>
        <HStack justify="end" gap="2">
          <Button size="xs" variant="outline" onClick={onDone} data-testid="queue-option-cancel">
            {t('common.cancel')}
          </Button>
          <Button
            size="xs"
            type="submit"
            colorPalette="teal"
            loading={creating.isLoading || updating.isLoading}
            data-testid="queue-option-save"
          >
            {option ? t('common.save') : t('common.add')}
          </Button>
        </HStack>
      </Stack>
    </chakra.form>
  );
}
