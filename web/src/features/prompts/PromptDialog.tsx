import { Button, Dialog, Field, Group, IconButton, Input, NativeSelect, Portal, SimpleGrid, Stack, Textarea } from '@chakra-ui/react';
import type { PromptDto } from '@wa/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdVisibility, MdVisibilityOff } from 'react-icons/md';
import { notify } from '../../app/notify';
import { SelectField } from '../../app/SelectField';
import { useEntityDialog } from '../../components/use-entity-dialog';
import { useListQueuesQuery } from '../tickets/tickets.api';
import { isNeuralVoice, PROMPT_LIMITS, PROMPT_VOICES, promptFormOf, promptPayload, TEXT_VOICE, validatePromptForm } from './prompt-rules';
import { useCreatePromptMutation, useUpdatePromptMutation } from './prompts.api';

/**
 * Add (prompt null) or edit an AI prompt (spec 02 §2 "Prompts", §3, §5): name, instructions, the queue it
 * answers (required: 'Informe o setor'), the model's API key (a saved one shown masked and sent back as
 * shown, which keeps it), the voice ('texto' or a pt-BR neural voice with its service key and region), max
 * tokens, temperature and the number of messages kept as context. The server's checks show on the fields.
 */
export function PromptDialog({ prompt, onClose }: { prompt: PromptDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const formId = useId();
  const creating = prompt === null;
  const form = useEntityDialog({
    initial: () => promptFormOf(prompt),
    validate: validatePromptForm,
    problemText: (key, problem) =>
      t(`prompts.validation.${problem}`, key in PROMPT_LIMITS ? PROMPT_LIMITS[key as keyof typeof PROMPT_LIMITS] : undefined),
  });
  const { values, set, errorOf } = form;
  const [showKey, setShowKey] = useState(false);
  const { data: queues = [] } = useListQueuesQuery();
  const [create, creatingCall] = useCreatePromptMutation();
  const [update, updatingCall] = useUpdatePromptMutation();

  const submit = form.handleSubmit(async () => {
    const body = promptPayload(values);
    if (prompt) await update({ id: prompt.id, ...body }).unwrap();
    else await create(body).unwrap();
    notify.success(t('prompts.toasts.saved'));
    onClose();
  });

  const textField = (
    key: 'name' | 'voiceKey' | 'voiceRegion',
    label: string,
    testId: string,
    opts: { required?: boolean; hint?: string } = {},
  ) => (
    <Field.Root required={opts.required} invalid={!!errorOf(key)}>
      <Field.Label>{label}</Field.Label>
      <Input value={values[key]} onChange={(e) => set(key, e.target.value)} autoComplete="off" data-testid={testId} />
      {errorOf(key) ? <Field.ErrorText>{errorOf(key)}</Field.ErrorText> : opts.hint && <Field.HelperText>{opts.hint}</Field.HelperText>}
    </Field.Root>
  );

  const numberField = (key: 'maxTokens' | 'temperature' | 'maxMessages', label: string, testId: string, step: number) => (
    <Field.Root required invalid={!!errorOf(key)}>
      <Field.Label>{label}</Field.Label>
      <Input
        type="number"
        inputMode={step < 1 ? 'decimal' : 'numeric'}
        min={PROMPT_LIMITS[key].min}
        max={PROMPT_LIMITS[key].max}
        step={step}
        value={values[key]}
        onChange={(e) => set(key, e.target.value)}
        data-testid={testId}
      />
      {errorOf(key) && <Field.ErrorText>{errorOf(key)}</Field.ErrorText>}
    </Field.Root>
  );

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="prompt-dialog">
            <Dialog.Header>
              <Dialog.Title>{creating ? t('prompts.dialog.addTitle') : t('prompts.dialog.editTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <form id={formId} onSubmit={submit} noValidate>
                <Stack gap="4">
                  {textField('name', t('prompts.dialog.name'), 'prompt-name', { required: true, hint: t('prompts.dialog.nameHint') })}
                  <Field.Root required invalid={!!errorOf('prompt')}>
                    <Field.Label>{t('prompts.dialog.prompt')}</Field.Label>
                    <Textarea value={values.prompt} onChange={(e) => set('prompt', e.target.value)} rows={7} data-testid="prompt-prompt" />
                    {errorOf('prompt') ? (
                      <Field.ErrorText>{errorOf('prompt')}</Field.ErrorText>
                    ) : (
                      <Field.HelperText>{t('prompts.dialog.promptHint', { count: values.prompt.trim().length })}</Field.HelperText>
                    )}
                  </Field.Root>
                  <SelectField
                    label={t('prompts.dialog.queue')}
                    value={values.queueId}
                    onChange={(v) => set('queueId', v)}
                    options={queues}
                    emptyLabel={t('prompts.dialog.chooseQueue')}
                    required
                    error={errorOf('queueId')}
                    testId="prompt-queue"
                  />
                  <Field.Root invalid={!!errorOf('apiKey')}>
                    <Field.Label>{t('prompts.dialog.apiKey')}</Field.Label>
                    <Group attached w="full">
                      <Input
                        type={showKey ? 'text' : 'password'}
                        value={values.apiKey}
                        onChange={(e) => set('apiKey', e.target.value)}
                        autoComplete="off"
                        spellCheck={false}
                        data-testid="prompt-api-key"
                      />
                      <IconButton
                        variant="outline"
                        aria-label={showKey ? t('prompts.dialog.hideKey') : t('prompts.dialog.showKey')}
                        title={showKey ? t('prompts.dialog.hideKey') : t('prompts.dialog.showKey')}
                        onClick={() => setShowKey((s) => !s)}
                        data-testid="prompt-api-key-toggle"
                      >
                        {showKey ? <MdVisibilityOff /> : <MdVisibility />}
                      </IconButton>
                    </Group>
                    {errorOf('apiKey') ? (
                      <Field.ErrorText>{errorOf('apiKey')}</Field.ErrorText>
                    ) : (
                      <Field.HelperText>{t('prompts.dialog.apiKeyHint')}</Field.HelperText>
                    )}
                  </Field.Root>
                  <Field.Root invalid={!!errorOf('voice')}>
                    <Field.Label>{t('prompts.dialog.voice')}</Field.Label>
                    <NativeSelect.Root>
                      <NativeSelect.Field value={values.voice} onChange={(e) => set('voice', e.target.value)} data-testid="prompt-voice">
                        {/* a saved voice not in the list stays choosable */}
                        {[...PROMPT_VOICES, ...(PROMPT_VOICES.includes(values.voice) ? [] : [values.voice])].map((v) => (
                          <option key={v} value={v}>
                            {v === TEXT_VOICE ? t('prompts.dialog.voiceText') : v}
                          </option>
                        ))}
                      </NativeSelect.Field>
                      <NativeSelect.Indicator />
                    </NativeSelect.Root>
                    {errorOf('voice') && <Field.ErrorText>{errorOf('voice')}</Field.ErrorText>}
                  </Field.Root>
                  {isNeuralVoice(values.voice) && (
                    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                      {textField('voiceKey', t('prompts.dialog.voiceKey'), 'prompt-voice-key')}
                      {textField('voiceRegion', t('prompts.dialog.voiceRegion'), 'prompt-voice-region', {
                        hint: t('prompts.dialog.voiceRegionHint'),
                      })}
                    </SimpleGrid>
                  )}
                  <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
                    {numberField('maxTokens', t('prompts.dialog.maxTokens'), 'prompt-max-tokens', 1)}
                    {numberField('temperature', t('prompts.dialog.temperature'), 'prompt-temperature', 0.1)}
                    {numberField('maxMessages', t('prompts.dialog.maxMessages'), 'prompt-max-messages', 1)}
                  </SimpleGrid>
                </Stack>
              </form>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} data-testid="prompt-cancel">
                {t('common.cancel')}
              </Button>
              <Button
                type="submit"
                form={formId}
                colorPalette="teal"
                loading={creatingCall.isLoading || updatingCall.isLoading}
                data-testid="prompt-save"
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
