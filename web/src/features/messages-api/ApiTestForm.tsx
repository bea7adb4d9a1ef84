import { Badge, Box, Button, Field, Heading, HStack, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAttachFile, MdSend } from 'react-icons/md';
import { errorText } from '../../app/errors';
import { notify } from '../../app/notify';
import { CodeBlock } from './ApiDocs';
import {
  answerState,
  emptyApiTest,
  hasApiTestErrors,
  sendApiTest,
  validateApiTest,
  type ApiTestAnswer,
  type ApiTestKind,
  type ApiTestValues,
} from './messages-api-rules';

/** A refused call's text: its translated code (or the server's text), and when to try again after a 429. */
function refusalText(answer: ApiTestAnswer, t: (key: string, options?: Record<string, unknown>) => string): string {
  const text = errorText({ data: answer.body });
  return answer.retryAfter ? `${text} ${t('messagesApi.test.retryAfter', { seconds: answer.retryAfter })}` : text;
}

/**
 * One section of the test form (spec 02 §2, §5): a text, or files with an optional caption, sent to the
 * public API with the token typed in the form (never the signed-in user's), and the API's answer below.
 */
export function ApiTestForm({ kind, baseUrl }: { kind: ApiTestKind; baseUrl: string }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<ApiTestValues>(emptyApiTest);
  const [touched, setTouched] = useState(false);
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<ApiTestAnswer | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const errors = validateApiTest(kind, values);
  const id = (field: string) => `messages-api-${kind}-${field}`;

  function set<K extends keyof ApiTestValues>(key: K, value: ApiTestValues[K]) {
    setValues((v) => ({ ...v, [key]: value }));
  }

  const errorOf = (key: keyof ApiTestValues): string | undefined =>
    touched && errors[key] ? t(`messagesApi.validation.${errors[key]}`) : undefined;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (hasApiTestErrors(errors)) return;
    setSending(true);
    try {
      const result = await sendApiTest(baseUrl, kind, values);
      setAnswer(result);
      if (result.ok) notify.success(t('messagesApi.test.sent'));
      else notify.errorText(refusalText(result, t));
    } catch {
      setAnswer(null);
      notify.errorText(t('errors.network'));
    } finally {
      setSending(false);
    }
  }

  const state = answerState(answer);

  return (
    <Box borderWidth="1px" borderRadius="md" p="4" data-testid={id('form')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <Heading as="h3" size="sm">
            {kind === 'text' ? t('messagesApi.test.textTitle') : t('messagesApi.test.mediaTitle')}
          </Heading>
          <Field.Root required invalid={!!errorOf('token')}>
            <Field.Label>{t('messagesApi.test.token')}</Field.Label>
            <Input
              value={values.token}
              onChange={(e) => set('token', e.target.value)}
              autoComplete="off"
              spellCheck={false}
              data-testid={id('token')}
            />
            {errorOf('token') && <Field.ErrorText>{errorOf('token')}</Field.ErrorText>}
          </Field.Root>
          <Field.Root required invalid={!!errorOf('number')}>
            <Field.Label>{t('messagesApi.test.number')}</Field.Label>
            <Input
              value={values.number}
              onChange={(e) => set('number', e.target.value)}
              inputMode="numeric"
              autoComplete="off"
              placeholder="5511987654321"
              data-testid={id('number')}
            />
            {errorOf('number') ? (
              <Field.ErrorText>{errorOf('number')}</Field.ErrorText>
            ) : (
              <Field.HelperText>{t('messagesApi.test.numberHelper')}</Field.HelperText>
            )}
          </Field.Root>
          <Field.Root required={kind === 'text'} invalid={!!errorOf('body')}>
            <Field.Label>{kind === 'text' ? t('messagesApi.test.body') : t('messagesApi.test.caption')}</Field.Label>
            <Textarea rows={3} value={values.body} onChange={(e) => set('body', e.target.value)} data-testid={id('body')} />
            {errorOf('body') && <Field.ErrorText>{errorOf('body')}</Field.ErrorText>}
          </Field.Root>
          {kind === 'media' && (
            <Field.Root required invalid={!!errorOf('files')}>
              <Field.Label>{t('messagesApi.test.files')}</Field.Label>
              <HStack w="full" minW="0">
                <input
                  ref={fileInput}
                  type="file"
                  multiple
                  hidden
                  onChange={(e) => set('files', Array.from(e.target.files ?? []))}
                  data-testid={id('file')}
                />
                <Button size="sm" variant="outline" flexShrink={0} onClick={() => fileInput.current?.click()}>
                  <MdAttachFile />
                  {t('messagesApi.test.pickFiles')}
                </Button>
                <Text textStyle="sm" color={values.files.length ? 'fg' : 'fg.muted'} truncate data-testid={id('file-names')}>
                  {values.files.length ? values.files.map((f) => f.name).join(', ') : t('messagesApi.test.noFiles')}
                </Text>
              </HStack>
              {errorOf('files') && <Field.ErrorText>{errorOf('files')}</Field.ErrorText>}
            </Field.Root>
          )}
          <Button type="submit" colorPalette="teal" alignSelf="flex-start" loading={sending} data-testid={id('submit')}>
            <MdSend />
            {t('messagesApi.test.send')}
          </Button>
          {answer && (
            <Stack gap="2" data-testid={id('answer')} data-status={answer.status} data-state={state ?? undefined}>
              <HStack gap="2">
                <Text fontWeight="semibold" textStyle="sm">
                  {t('messagesApi.test.answer')}
                </Text>
                <Badge colorPalette={answer.ok ? 'green' : 'red'} data-testid={id('answer-status')}>
                  {answer.status}
                </Badge>
                {state && (
                  <Badge colorPalette="blue" data-testid={id('answer-state')}>
                    {state}
                  </Badge>
                )}
              </HStack>
              {!answer.ok && (
                <Text textStyle="sm" color="red.fg">
                  {refusalText(answer, t)}
                </Text>
              )}
              <CodeBlock testId={id('answer-body')}>
                {typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body, null, 2)}
              </CodeBlock>
            </Stack>
          )}
        </Stack>
      </form>
    </Box>
  );
}
