import { Box, Button, chakra, Dialog, Field, HStack, IconButton, Input, Portal, Stack, Tabs, Text, Textarea } from '@chakra-ui/react';
import type { QueueDto } from '@wa/contracts';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAttachFile, MdDelete } from 'react-icons/md';
import { errorCode } from '../../app/errors';
import { notify } from '../../app/notify';
import { hasPlanFlag } from '../../app/plan-flags';
import { SelectField } from '../../app/SelectField';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { useAllPrompts } from '../prompts/prompts.api';
import { useAllQueueIntegrations } from '../queue-integrations/queue-integrations.api';
import { serverFieldErrors } from '../../components/form-rules';
import { useEntityDialog } from '../../components/use-entity-dialog';
import { scheduleTypeOf } from '../settings/settings-rules';
import { useSettingsQuery } from '../settings/settings.api';
import { defaultWorkingHours, hasWorkingHoursServerErrors, type WorkingDay } from '../settings/working-hours';
import { WorkingHoursEditor } from '../settings/WorkingHoursEditor';
import { hasQueueErrors, nativeColor, queueFormOf, queuePayload, validateQueueForm, type QueueProblem } from './queue-rules';
import { QueueOptionsTree } from './QueueOptionsTree';
import {
  useCreateQueueMutation,
  useListQueuesQuery,
  useRemoveQueueMediaMutation,
  useUpdateQueueMutation,
  useUploadQueueMediaMutation,
} from './queues.api';

type QueueDialogTab = 'data' | 'options' | 'schedules';

/**
 * Add (queue null) or edit a queue (spec 02 §2 "Queues"): its data (name, colour, greeting and out-of-hours
 * messages, order), once it exists its chatbot options, and its working hours when the company's scheduleType
 * setting is queue (spec 02 §4). The schedules tab's button only keeps the hours in the form; they are sent
 * with the queue when it is saved.
 */
export function QueueDialog({ queue, onClose }: { queue: QueueDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const formId = useId();
  const creating = queue === null;
  // the cached list has the queue as it is now (its attachment changes while the dialog is open)
  const { data: queues } = useListQueuesQuery(undefined, { skip: creating });
  const current = queue ? (queues?.find((q) => q.id === queue.id) ?? queue) : null;
  const { data: settings } = useSettingsQuery();
  // the prompt and integration pickers come with the plan's features (spec 02 §6)
  const user = useAppSelector(selectUser);
  const links = { prompt: hasPlanFlag(user, 'useOpenAi'), integration: hasPlanFlag(user, 'useIntegrations') };
  const prompts = useAllPrompts(links.prompt);
  const integrations = useAllQueueIntegrations(links.integration);
  const showSchedules = scheduleTypeOf(settings) === 'queue';
  const [chosenTab, setTab] = useState<QueueDialogTab>('data');
  // the schedules tab goes if the setting changes while the dialog is open
  const tab: QueueDialogTab = chosenTab === 'schedules' && !showSchedules ? 'data' : chosenTab;
  const problemText = (p: QueueProblem): string => (p === 'integer' ? t('queues.dialog.orderQueueInteger') : t(`validation.${p}`));
  // the rules' texts show once the form is sent, the server's field errors until the field changes
  const form = useEntityDialog({
    initial: () => queueFormOf(queue),
    validate: validateQueueForm,
    problemText: (_key, p) => problemText(p as QueueProblem),
  });
  const { values, setValues, set, errorOf, serverErrors, setServerErrors } = form;
  /** the schedules tab: as opened, changed since, or kept in the form */
  const [schedulesState, setSchedulesState] = useState<'untouched' | 'edited' | 'kept'>('untouched');
  const [create, creatingCall] = useCreateQueueMutation();
  const [update, updatingCall] = useUpdateQueueMutation();

  /** the schedules tab's button: the hours stay in the form until the queue is saved */
  function keepSchedules(days: WorkingDay[]) {
    setValues((v) => ({ ...v, schedules: days }));
    setServerErrors((e) =>
      hasWorkingHoursServerErrors(e)
        ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'schedules' && !k.startsWith('schedules.')))
        : e,
    );
    setSchedulesState('kept');
  }

  const schedulesNote = (): string => {
    if (schedulesState === 'kept') return t('queues.dialog.schedules.kept');
    if (schedulesState === 'edited') return t('queues.dialog.schedules.pending');
    return values.schedules ? t('queues.dialog.schedules.savedWithQueue') : t('queues.dialog.schedules.noneSaved');
  };

  const save = form.handleSubmit(
    async (v) => {
      const body = queuePayload(v, links);
      if (queue) await update({ id: queue.id, ...body }).unwrap();
      else await create(body).unwrap();
      notify.success(t('queues.toasts.saved'));
      onClose();
    },
    (err, fieldErrors) => {
      // the code's own text under the colour (the hook shows these field errors)
      if (errorCode(err) === 'ERR_QUEUE_COLOR_ALREADY_EXISTS') fieldErrors.color = t('backendErrors.ERR_QUEUE_COLOR_ALREADY_EXISTS');
      if (showSchedules && hasWorkingHoursServerErrors(fieldErrors)) setTab('schedules');
      else if (Object.keys(fieldErrors).length > 0) setTab('data');
      notify.error(err);
    },
  );

  /** a rule's problem brings the data tab back, where it shows */
  function submit(e: FormEvent) {
    if (hasQueueErrors(form.errors)) setTab('data');
    return save(e);
  }

  const messageField = (key: 'greetingMessage' | 'outOfHoursMessage', label: string, testId: string) => (
    <Field.Root invalid={!!errorOf(key)}>
      <Field.Label>{label}</Field.Label>
      <Textarea value={values[key]} onChange={(e) => set(key, e.target.value)} rows={3} data-testid={testId} />
      {errorOf(key) && <Field.ErrorText>{errorOf(key)}</Field.ErrorText>}
    </Field.Root>
  );

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="queue-dialog">
            <Dialog.Header>
              <Dialog.Title>{creating ? t('queues.dialog.addTitle') : t('queues.dialog.editTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value as QueueDialogTab)} size="sm" variant="line" lazyMount>
                <Tabs.List mb="4">
                  <Tabs.Trigger value="data" data-testid="queue-tab-data">
                    {t('queues.dialog.tabs.data')}
                  </Tabs.Trigger>
                  <Tabs.Trigger
                    value="options"
                    disabled={creating}
                    title={creating ? t('queues.dialog.optionsAfterSave') : undefined}
                    data-testid="queue-tab-options"
                  >
                    {t('queues.dialog.tabs.options')}
                  </Tabs.Trigger>
                  {showSchedules && (
                    <Tabs.Trigger value="schedules" data-testid="queue-tab-schedules">
                      {t('queues.dialog.tabs.schedules')}
                    </Tabs.Trigger>
                  )}
                </Tabs.List>
                <Tabs.Content value="data">
                  {/* its own form: the options tab has forms of its own, which may not sit inside this one */}
                  <form id={formId} onSubmit={submit} noValidate>
                    <Stack gap="4">
                      <Field.Root required invalid={!!errorOf('name')}>
                        <Field.Label>{t('queues.dialog.name')}</Field.Label>
                        <Input
                          value={values.name}
                          onChange={(e) => set('name', e.target.value)}
                          onBlur={form.showProblems}
                          autoComplete="off"
                          data-testid="queue-name"
                        />
                        {errorOf('name') && <Field.ErrorText>{errorOf('name')}</Field.ErrorText>}
                      </Field.Root>
                      <Field.Root required invalid={!!errorOf('color')}>
                        <Field.Label>{t('queues.dialog.color')}</Field.Label>
                        <HStack w="full" gap="2">
                          {/* a plain input: the field's label and id belong to the text input */}
                          <chakra.input
                            type="color"
                            value={nativeColor(values.color)}
                            onChange={(e) => set('color', e.target.value)}
                            aria-label={t('queues.dialog.colorPicker')}
                            w="10"
                            h="10"
                            p="0.5"
                            flexShrink={0}
                            bg="transparent"
                            borderWidth="1px"
                            borderRadius="l2"
                            cursor="pointer"
                            data-testid="queue-color-picker"
                          />
                          <Input
                            value={values.color}
                            onChange={(e) => set('color', e.target.value)}
                            onBlur={form.showProblems}
                            placeholder="#2e7d32"
                            autoComplete="off"
                            data-testid="queue-color"
                          />
                        </HStack>
                        {errorOf('color') && <Field.ErrorText>{errorOf('color')}</Field.ErrorText>}
                      </Field.Root>
                      {messageField('greetingMessage', t('queues.dialog.greetingMessage'), 'queue-greeting')}
                      {messageField('outOfHoursMessage', t('queues.dialog.outOfHoursMessage'), 'queue-out-of-hours')}
                      <Field.Root invalid={!!errorOf('orderQueue')}>
                        <Field.Label>{t('queues.dialog.orderQueue')}</Field.Label>
                        <Input
                          type="number"
                          step={1}
                          inputMode="numeric"
                          maxW="40"
                          value={values.orderQueue}
                          onChange={(e) => set('orderQueue', e.target.value)}
                          onBlur={form.showProblems}
                          data-testid="queue-order"
                        />
                        {errorOf('orderQueue') ? (
                          <Field.ErrorText>{errorOf('orderQueue')}</Field.ErrorText>
                        ) : (
                          <Field.HelperText>{t('queues.dialog.orderQueueHint')}</Field.HelperText>
                        )}
                      </Field.Root>
                      {links.prompt && (
                        <SelectField
                          label={t('queues.dialog.prompt')}
                          value={values.promptId}
                          onChange={(v) => set('promptId', v)}
                          options={prompts}
                          emptyLabel={t('queues.dialog.noPrompt')}
                          error={serverErrors.promptId}
                          testId="queue-prompt"
                        />
                      )}
                      {links.integration && (
                        <SelectField
                          label={t('queues.dialog.integration')}
                          value={values.integrationId}
                          onChange={(v) => set('integrationId', v)}
                          options={integrations}
                          emptyLabel={t('queues.dialog.noIntegration')}
                          error={serverErrors.integrationId}
                          testId="queue-integration"
                        />
                      )}
                      {current && <QueueMedia queue={current} />}
                      {creating && (
                        <Text textStyle="xs" color="fg.muted" data-testid="queue-options-after-save">
                          {t('queues.dialog.optionsAfterSave')}
                        </Text>
                      )}
                    </Stack>
                  </form>
                </Tabs.Content>
                {queue && (
                  <Tabs.Content value="options">
                    <QueueOptionsTree queueId={queue.id} />
                  </Tabs.Content>
                )}
                {showSchedules && (
                  <Tabs.Content value="schedules">
                    {/* its own form, as the options' are; shown with the queue's hours, or the defaults while it has none */}
                    <WorkingHoursEditor
                      initial={values.schedules ?? defaultWorkingHours()}
                      onSave={keepSchedules}
                      onEdit={() => setSchedulesState('edited')}
                      saveLabel={t('queues.dialog.schedules.keep')}
                      serverErrors={serverErrors}
                      testId="queue-schedules"
                    >
                      <Text
                        textStyle="xs"
                        color={schedulesState === 'kept' ? 'fg.success' : schedulesState === 'edited' ? 'fg.warning' : 'fg.muted'}
                        data-testid="queue-schedules-note"
                        data-state={schedulesState}
                      >
                        {schedulesNote()}
                      </Text>
                    </WorkingHoursEditor>
                  </Tabs.Content>
                )}
              </Tabs.Root>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button
                type="submit"
                form={formId}
                colorPalette="teal"
                loading={creatingCall.isLoading || updatingCall.isLoading}
                data-testid="queue-save"
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

/** The file sent with the greeting message: its name with a remove button, or an attach button; uploaded as soon as it is picked. */
function QueueMedia({ queue }: { queue: QueueDto }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [upload, uploading] = useUploadQueueMediaMutation();
  const [unlink, unlinking] = useRemoveQueueMediaMutation();

  async function pick(file: File | undefined) {
    if (input.current) input.current.value = '';
    if (!file) return;
    setError(null);
    try {
      await upload({ id: queue.id, file }).unwrap();
      notify.success(t('queues.media.attached'));
    } catch (err) {
      setError(serverFieldErrors(err).file ?? null);
      notify.error(err);
    }
  }

  async function remove() {
    setError(null);
    try {
      await unlink(queue.id).unwrap();
      notify.success(t('queues.media.removed'));
    } catch (err) {
      setError(serverFieldErrors(err).file ?? null);
      notify.error(err);
    }
  }

  return (
    <Box data-testid="queue-media">
      <Text textStyle="sm" fontWeight="medium" mb="1">
        {t('queues.media.label')}
      </Text>
      <HStack>
        <input ref={input} type="file" hidden onChange={(e) => void pick(e.target.files?.[0])} data-testid="queue-media-input" />
        {queue.mediaName ? (
          <>
            <MdAttachFile />
            <Text textStyle="sm" flex="1" truncate title={queue.mediaName} data-testid="queue-media-name">
              {queue.mediaName}
            </Text>
            <IconButton
              size="xs"
              variant="ghost"
              colorPalette="red"
              loading={unlinking.isLoading}
              aria-label={t('queues.media.remove')}
              title={t('queues.media.remove')}
              onClick={() => void remove()}
              data-testid="queue-media-remove"
            >
              <MdDelete />
            </IconButton>
          </>
        ) : (
          <>
            <Button
              size="sm"
              variant="outline"
              loading={uploading.isLoading}
              onClick={() => input.current?.click()}
              data-testid="queue-media-attach"
            >
              <MdAttachFile />
              {t('queues.media.attach')}
            </Button>
            <Text textStyle="sm" flex="1" truncate color="fg.muted" data-testid="queue-media-none">
              {t('queues.media.none')}
            </Text>
          </>
        )}
      </HStack>
      {error ? (
        <Text textStyle="xs" color="fg.error" mt="1" data-testid="queue-media-error">
          {error}
        </Text>
      ) : (
        <Text textStyle="xs" color="fg.muted" mt="1">
          {t('queues.media.hint')}
        </Text>
      )}
    </Box>
  );
}
