import { Box, Code, Heading, HStack, Link, Stack, Table, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { API_ERRORS, API_MESSAGE_STATES, API_SEND_PATH, curlMedia, curlStatus, curlText, exampleAnswer } from './messages-api-rules';

/** A block of code, kept as written (requests, answers, curl commands). */
export function CodeBlock({ children, testId }: { children: string; testId?: string }) {
  return (
    <Box
      as="pre"
      bg="bg.muted"
      borderWidth="1px"
      borderRadius="md"
      px="3"
      py="2"
      fontFamily="mono"
      textStyle="xs"
      whiteSpace="pre"
      overflowX="auto"
      maxW="full"
      data-testid={testId}
    >
      {children}
    </Box>
  );
}

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap="2" data-testid={testId}>
      <Heading as="h3" size="sm">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

const EXAMPLE_NUMBER = '5511987654321';

/**
 * The API's documentation (spec 02 §2 "External messages API page", §7): the address on the product's
 * API host, the connection token, text (JSON) and files (multipart), the 202 answer and the state that
 * follows it, Idempotency-Key, the pace per connection and the error codes, with curl examples.
 */
export function ApiDocs({ baseUrl }: { baseUrl: string }) {
  const { t } = useTranslation();
  const example = { baseUrl, token: t('messagesApi.docs.exampleToken'), number: EXAMPLE_NUMBER };

  return (
    <Stack gap="6" textStyle="sm" data-testid="messages-api-docs">
      <Section title={t('messagesApi.docs.endpointTitle')}>
        <Text>{t('messagesApi.docs.endpoint')}</Text>
        <CodeBlock testId="messages-api-endpoint">{`POST ${baseUrl}${API_SEND_PATH}`}</CodeBlock>
        <Text>{t('messagesApi.docs.auth')}</Text>
        <CodeBlock>{t('messagesApi.docs.authHeader')}</CodeBlock>
        <Link asChild color="teal.fg" alignSelf="flex-start">
          <RouterLink to="/connections">{t('messagesApi.docs.connectionsLink')}</RouterLink>
        </Link>
        <Text>{t('messagesApi.docs.number')}</Text>
      </Section>

      <Section title={t('messagesApi.docs.textTitle')} testId="messages-api-docs-text">
        <Text>{t('messagesApi.docs.text')}</Text>
        <CodeBlock testId="messages-api-curl-text">{curlText({ ...example, body: t('messagesApi.docs.exampleBody') })}</CodeBlock>
      </Section>

      <Section title={t('messagesApi.docs.mediaTitle')} testId="messages-api-docs-media">
        <Text>{t('messagesApi.docs.media')}</Text>
        <CodeBlock testId="messages-api-curl-media">
          {curlMedia({ ...example, body: t('messagesApi.docs.exampleCaption'), files: [t('messagesApi.docs.exampleFile')] })}
        </CodeBlock>
      </Section>

      <Section title={t('messagesApi.docs.answerTitle')}>
        <Text>{t('messagesApi.docs.answer')}</Text>
        <CodeBlock testId="messages-api-answer-example">{`HTTP/1.1 202 Accepted\n\n${exampleAnswer({ number: EXAMPLE_NUMBER, body: t('messagesApi.docs.exampleBody') })}`}</CodeBlock>
        <Text>{t('messagesApi.docs.status')}</Text>
        <Stack gap="1" ps="2">
          {API_MESSAGE_STATES.map((state) => (
            <HStack key={state} gap="2" align="baseline">
              <Code size="sm" minW="20">
                {state}
              </Code>
              <Text>{t(`messagesApi.docs.states.${state}`)}</Text>
            </HStack>
          ))}
        </Stack>
        <CodeBlock testId="messages-api-curl-status">{curlStatus({ baseUrl, token: example.token, id: 1234 })}</CodeBlock>
      </Section>

      <Section title={t('messagesApi.docs.idempotencyTitle')}>
        <Text>{t('messagesApi.docs.idempotency')}</Text>
        <CodeBlock>{'Idempotency-Key: pedido-1234'}</CodeBlock>
      </Section>

      <Section title={t('messagesApi.docs.pacingTitle')}>
        <Text>{t('messagesApi.docs.pacing')}</Text>
      </Section>

      <Section title={t('messagesApi.docs.errorsTitle')} testId="messages-api-docs-errors">
        <Text>{t('messagesApi.docs.errorsIntro')}</Text>
        <Box borderWidth="1px" borderRadius="md" overflowX="auto">
          <Table.Root size="sm">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader w="20">{t('messagesApi.docs.columns.status')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('messagesApi.docs.columns.code')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('messagesApi.docs.columns.meaning')}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {API_ERRORS.map((e) => (
                <Table.Row key={e.code} data-testid="messages-api-error-row">
                  <Table.Cell>{e.status}</Table.Cell>
                  <Table.Cell>
                    <Code size="sm">{e.code}</Code>
                  </Table.Cell>
                  <Table.Cell>{t(`messagesApi.docs.errors.${e.code}`)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Box>
      </Section>
    </Stack>
  );
}
