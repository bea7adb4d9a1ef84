import { Button, Dialog, Field, HStack, Input, NativeSelect, Portal, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import type { QueueIntegrationDto } from '@wa/contracts';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MdPlayArrow } from 'react-icons/md';
import { errorText } from '../../app/errors';
import { notify } from '../../app/notify';
import { serverFieldErrors } from '../../components/form-rules';
import { useEntityDialog } from '../../components/use-entity-dialog';
import {
  DIALOGFLOW_LANGUAGES,
  INTEGRATION_TYPES,
  integrationFields,
  integrationFormOf,
  integrationPayload,
  testSessionOf,
  TYPEBOT_LIMITS,
  validateIntegrationForm,
  type IntegrationFormValues,
  type IntegrationProblem,
  type IntegrationType,
} from './integration-rules';
import {
  useCreateQueueIntegrationMutation,
  useTestQueueIntegrationSessionMutation,
  useUpdateQueueIntegrationMutation,
} from './queue-integrations.api';

type TextKey = Exclude<keyof IntegrationFormValues, 'type'>;

/**
 * Add (integration null) or edit a queue integration (spec 02 §2 "Queue integrations", §5): the type first,
 * then its fields. n8n and webhook: the URL; typebot: the URL, its slug, session expiry (minutes), delay
 * between messages (ms), finish and restart keywords and messages; dialogflow: project, service-account JSON
 * (stored ones come masked, sent back as shown to keep them), language, and a button trying the session.
 */
export function QueueIntegrationDialog({ integration, onClose }: { integration: QueueIntegrationDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const formId = useId();
  const creating = integration === null;
  const problemText = (key: keyof IntegrationFormValues, p: IntegrationProblem): string => {
    if (p === 'invalidUrl') return t('queueIntegrations.validation.invalidUrl');
    if (p === 'integer') return t('queueIntegrations.validation.integer', TYPEBOT_LIMITS[key as keyof typeof TYPEBOT_LIMITS]);
    return t(`validation.${p}`);
  };
  const form = useEntityDialog({
    initial: () => integrationFormOf(integration),
    validate: validateIntegrationForm,
    problemText: (key, p) => problemText(key, p as IntegrationProblem),
  });
  const { values, setValues, serverErrors, setServerErrors, showProblems, errorOf } = form;
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const fields = integrationFields(values.type);
  const [create, creatingCall] = useCreateQueueIntegrationMutation();
  const [update, updatingCall] = useUpdateQueueIntegrationMutation();
  const [testSession, testing] = useTestQueueIntegrationSessionMutation();

  function set<K extends keyof IntegrationFormValues>(key: K, value: IntegrationFormValues[K]) {
    form.set(key, value);
    if (key === 'projectName' || key === 'jsonContent' || key === 'language') setTestResult(null);
  }

  function chooseType(type: IntegrationType) {
    setValues((v) => ({ ...v, type }));
    setServerErrors({});
    setTestResult(null);
  }

  const submit = form.handleSubmit(async () => {
    const body = integrationPayload(values);
    if (integration) await update({ id: integration.id, ...body }).unwrap();
    else await create(body).unwrap();
    notify.success(t('queueIntegrations.toasts.saved'));
    onClose();
  });

  /** POST /queueIntegration/testSession with the project, credentials and language as typed */
  async function trySession() {
    const body = testSessionOf(values);
    if (body === 'masked') {
      setTestResult({ ok: false, text: t('queueIntegrations.test.masked') });
      notify.warning(t('queueIntegrations.test.masked'));
      return;
    }
    if (body === 'missing') {
      showProblems();
      return;
    }
    try {
      const answer = await testSession(body).unwrap();
      const text = t('queueIntegrations.test.ok', { email: answer.clientEmail });
      setTestResult({ ok: true, text });
      notify.success(text);
    } catch (err) {
      const fieldErrors = serverFieldErrors(err);
      setServerErrors((e) => ({ ...e, ...fieldErrors }));
      const text = t('queueIntegrations.test.failed', { reason: Object.values(fieldErrors)[0] ?? errorText(err) });
      setTestResult({ ok: false, text });
      notify.errorText(text);
    }
  }

  const field = (key: TextKey, label: string, control: ReactNode, opts: { required?: boolean; hint?: string } = {}) => (
    <Field.Root required={opts.required} invalid={!!errorOf(key)}>
      <Field.Label>{label}</Field.Label>
      {control}
      {errorOf(key) ? <Field.ErrorText>{errorOf(key)}</Field.ErrorText> : opts.hint && <Field.HelperText>{opts.hint}</Field.HelperText>}
    </Field.Root>
  );

  const input = (
    key: TextKey,
    label: string,
    testId: string,
    opts: { required?: boolean; hint?: string; placeholder?: string; type?: string } = {},
  ) =>
    field(
      key,
      label,
      <Input
        type={opts.type ?? 'text'}
        value={values[key]}
        onChange={(e) => set(key, e.target.value)}
        onBlur={key === 'name' ? () => showProblems() : undefined}
        placeholder={opts.placeholder}
        autoComplete="off"
        data-testid={testId}
      />,
      opts,
    );

  const textarea = (
    key: TextKey,
    label: string,
    testId: string,
    opts: { required?: boolean; hint?: string; rows?: number; mono?: boolean } = {},
  ) =>
    field(
      key,
      label,
      <Textarea
        value={values[key]}
        onChange={(e) => set(key, e.target.value)}
        rows={opts.rows ?? 2}
        fontFamily={opts.mono ? 'mono' : undefined}
        textStyle={opts.mono ? 'xs' : undefined}
        spellCheck={opts.mono ? false : undefined}
        data-testid={testId}
      />,
      opts,
    );

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="integration-dialog" data-type={values.type}>
            <Dialog.Header>
              <Dialog.Title>{creating ? t('queueIntegrations.dialog.addTitle') : t('queueIntegrations.dialog.editTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <form id={formId} onSubmit={submit} noValidate>
                <Stack gap="4">
                  <Field.Root required invalid={!!serverErrors.type}>
                    <Field.Label>{t('queueIntegrations.dialog.type')}</Field.Label>
                    <NativeSelect.Root>
                      <NativeSelect.Field
                        value={values.type}
                        onChange={(e) => chooseType(e.target.value as IntegrationType)}
                        data-testid="integration-type"
                      >
                        {INTEGRATION_TYPES.map((type) => (
                          <option key={type} value={type}>
                            {t(`queueIntegrations.types.${type}`)}
                          </option>
                        ))}
                      </NativeSelect.Field>
                      <NativeSelect.Indicator />
                    </NativeSelect.Root>
                    {serverErrors.type && <Field.ErrorText>{serverErrors.type}</Field.ErrorText>}
                  </Field.Root>
                  {input('name', t('queueIntegrations.dialog.name'), 'integration-name', {
                    required: true,
                    hint: fields.dialogflow ? undefined : t('queueIntegrations.dialog.nameIsProject'),
                  })}
                  {fields.url &&
                    input('urlN8N', t('queueIntegrations.dialog.url'), 'integration-url', {
                      required: true,
                      type: 'url',
                      placeholder: values.type === 'typebot' ? 'https://typebot.example.com' : 'https://example.com/webhook',
                    })}
                  {fields.typebot && (
                    <>
                      {input('typebotSlug', t('queueIntegrations.dialog.typebotSlug'), 'integration-typebot-slug', { required: true })}
                      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                        {input('typebotExpires', t('queueIntegrations.dialog.typebotExpires'), 'integration-typebot-expires', {
                          required: true,
                          type: 'number',
                        })}
                        {input('typebotDelayMessage', t('queueIntegrations.dialog.typebotDelayMessage'), 'integration-typebot-delay', {
                          required: true,
                          type: 'number',
                        })}
                        {input(
                          'typebotKeywordFinish',
                          t('queueIntegrations.dialog.typebotKeywordFinish'),
                          'integration-typebot-keyword-finish',
                        )}
                        {input(
                          'typebotKeywordRestart',
                          t('queueIntegrations.dialog.typebotKeywordRestart'),
                          'integration-typebot-keyword-restart',
                        )}
                      </SimpleGrid>
                      {textarea(
                        'typebotUnknownMessage',
                        t('queueIntegrations.dialog.typebotUnknownMessage'),
                        'integration-typebot-unknown-message',
                      )}
                      {textarea(
                        'typebotRestartMessage',
                        t('queueIntegrations.dialog.typebotRestartMessage'),
                        'integration-typebot-restart-message',
                      )}
                    </>
                  )}
                  {fields.dialogflow && (
                    <>
                      {input('projectName', t('queueIntegrations.dialog.projectName'), 'integration-project-name', { required: true })}
                      {textarea('jsonContent', t('queueIntegrations.dialog.jsonContent'), 'integration-json-content', {
                        required: true,
                        rows: 6,
                        mono: true,
                        hint: t('queueIntegrations.dialog.jsonContentHint'),
                      })}
                      <Field.Root required invalid={!!errorOf('language')}>
                        <Field.Label>{t('queueIntegrations.dialog.language')}</Field.Label>
                        <NativeSelect.Root>
                          <NativeSelect.Field
                            value={values.language}
                            onChange={(e) => set('language', e.target.value)}
                            data-testid="integration-language"
                          >
                            {DIALOGFLOW_LANGUAGES.map((lng) => (
                              <option key={lng} value={lng}>
                                {t(`queueIntegrations.languages.${lng}`)}
                              </option>
                            ))}
                          </NativeSelect.Field>
                          <NativeSelect.Indicator />
                        </NativeSelect.Root>
                        {errorOf('language') && <Field.ErrorText>{errorOf('language')}</Field.ErrorText>}
                      </Field.Root>
                      <HStack gap="3" align="center" wrap="wrap">
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => void trySession()}
                          loading={testing.isLoading}
                          data-testid="integration-test-session"
                        >
                          <MdPlayArrow />
                          {t('queueIntegrations.test.button')}
                        </Button>
                        {testResult && (
                          <Text
                            textStyle="sm"
                            color={testResult.ok ? 'fg.success' : 'fg.error'}
                            data-testid="integration-test-result"
                            data-state={testResult.ok ? 'ok' : 'failed'}
                          >
                            {testResult.text}
                          </Text>
                        )}
                      </HStack>
                    </>
                  )}
                </Stack>
              </form>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} data-testid="integration-cancel">
                {t('common.cancel')}
              </Button>
              <Button
                type="submit"
                form={formId}
                colorPalette="teal"
                loading={creatingCall.isLoading || updatingCall.isLoading}
                data-testid="integration-save"
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
