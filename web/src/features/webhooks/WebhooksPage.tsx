import {
  Badge,
  Box,
  Button,
  Center,
  Checkbox,
  Field,
  Flex,
  Heading,
  HStack,
  Input,
  NativeSelect,
  SimpleGrid,
  Spinner,
  Stack,
  Switch,
  Table,
  Text,
} from '@chakra-ui/react';
import { WEBHOOK_EVENTS, type WebhookDeliveryDto, type WebhookSettingsDto } from '@wa/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdRefresh, MdReplay, MdVpnKey } from 'react-icons/md';
import { Navigate } from 'react-router-dom';
import { errorText } from '../../app/errors';
import { notify } from '../../app/notify';
import { PlanGate } from '../../app/PermissionGate';
import { selectIsAdmin } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { serverFieldErrors } from '../../components/form-rules';
import { ListFooter } from '../../components/ListFooter';
import { SecretDialog } from './SecretDialog';
import {
  DELIVERY_STATUS_PALETTE,
  eventLabel,
  lastOutcome,
  toggleEvent,
  validateWebhookForm,
  whenText,
  type WebhookFormValues,
} from './webhook-rules';
import {
  useNewWebhookSecretMutation,
  useReplayWebhookDeliveryMutation,
  useSaveWebhookSettingsMutation,
  useWebhookDeliveriesInfiniteQuery,
  useWebhookSettingsQuery,
  type DeliveryFilter,
} from './webhooks.api';

/** The log is read again this often while the page is open (deliveries come and go on their own). */
export const DELIVERIES_POLL_MS = 5000;

/** The events a new webhook starts with ticked. */
const DEFAULT_EVENTS = WEBHOOK_EVENTS.filter((e) => e === 'message.received' || e === 'message.sent');

const FILTERS: DeliveryFilter[] = ['', 'pending', 'delivered', 'failed'];

/**
 * /webhooks (issue 45 §3): the company's outbound webhook, for admins whose plan has the public API
 * (useExternalApi, like /messages-api): its URL, on or off, the events (WEBHOOK_EVENTS, each named in the
 * language shown or by itself), the signing secret made by the server and shown once in a dialog (on the
 * first save, and on "gerar novo segredo" after a confirmation), and the delivery log below, newest first,
 * with "carregar mais", a status filter and "Reenviar" on each delivery (the new delivery goes on top).
 */
export default function WebhooksPage() {
  const isAdmin = useAppSelector(selectIsAdmin);
  if (!isAdmin) return <Navigate to="/tickets" replace />;
  return (
    <PlanGate flag="useExternalApi">
      <Webhooks />
    </PlanGate>
  );
}

function Webhooks() {
  const { t } = useTranslation();
  const settings = useWebhookSettingsQuery();
  // the secret made by the server, while its dialog is open (it is nowhere else)
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Box p={{ base: '3', md: '6' }} maxW="7xl" data-testid="webhooks-page">
      <Heading size="lg" data-testid="webhooks-title">
        {t('webhooks.title')}
      </Heading>
      <Text color="fg.muted" mt="1" mb="4" textStyle="sm">
        {t('webhooks.intro')}
      </Text>
      <Box bg="bg" borderWidth="1px" borderRadius="md" p={{ base: '4', md: '6' }} mb="6" data-testid="webhook-settings">
        {settings.isLoading && (
          <Center py="6">
            <Spinner />
          </Center>
        )}
        {settings.isError && (
          <Center py="6" color="fg.error">
            {errorText(settings.error)}
          </Center>
        )}
        {settings.data && <SettingsForm key={settings.data.updatedAt ?? 'new'} settings={settings.data} onSecret={setSecret} />}
      </Box>
      <DeliveryLog />
      {secret && <SecretDialog secret={secret} onClose={() => setSecret(null)} />}
    </Box>
  );
}

function SettingsForm({ settings, onSecret }: { settings: WebhookSettingsDto; onSecret(secret: string): void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<WebhookFormValues>(() => ({
    url: settings.url ?? '',
    enabled: settings.url ? settings.enabled : true,
    events: settings.url ? WEBHOOK_EVENTS.filter((e) => settings.events.includes(e)) : [...DEFAULT_EVENTS],
  }));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [confirmingSecret, setConfirmingSecret] = useState(false);
  const [save, saving] = useSaveWebhookSettingsMutation();
  const [renew, renewing] = useNewWebhookSecretMutation();
  const problems = validateWebhookForm(values);
  const urlProblem = submitted && problems.url ? t(`webhooks.form.problems.url_${problems.url}`) : serverErrors.url;
  const eventsProblem = submitted && problems.events ? t('webhooks.form.problems.events') : serverErrors.events;

  const set = <K extends keyof WebhookFormValues>(key: K, value: WebhookFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setServerErrors((e) => (e[key] ? { ...e, [key]: '' } : e));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    if (problems.url || problems.events) return;
    try {
      const saved = await save({ url: values.url.trim(), events: values.events, enabled: values.enabled }).unwrap();
      notify.success(t('webhooks.toasts.saved'));
      if (saved.secret) onSecret(saved.secret);
    } catch (err) {
      setServerErrors(serverFieldErrors(err));
      notify.error(err);
    }
  }

  async function newSecret() {
    try {
      const { secret } = await renew().unwrap();
      setConfirmingSecret(false);
      onSecret(secret);
    } catch (err) {
      notify.error(err);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="webhook-form">
      <Stack gap="5">
        <Field.Root required invalid={!!urlProblem}>
          <Field.Label>{t('webhooks.form.url')}</Field.Label>
          <Input
            type="url"
            value={values.url}
            onChange={(e) => set('url', e.target.value)}
            placeholder="https://example.com/webhook"
            autoComplete="off"
            data-testid="webhook-url"
          />
          {urlProblem ? <Field.ErrorText>{urlProblem}</Field.ErrorText> : <Field.HelperText>{t('webhooks.form.urlHint')}</Field.HelperText>}
        </Field.Root>
        <Switch.Root
          checked={values.enabled}
          onCheckedChange={(e) => set('enabled', e.checked)}
          colorPalette="teal"
          data-testid="webhook-enabled"
        >
          <Switch.HiddenInput />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label>{values.enabled ? t('webhooks.form.enabled') : t('webhooks.form.disabled')}</Switch.Label>
        </Switch.Root>
        {/* not a Field: a field's context would give every checkbox its one id */}
        <Box role="group" aria-labelledby="webhook-events-label">
          <Text id="webhook-events-label" textStyle="sm" fontWeight="medium" mb="2">
            {t('webhooks.form.events')}
          </Text>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="2" w="full" data-testid="webhook-events">
            {WEBHOOK_EVENTS.map((event) => (
              <Checkbox.Root
                key={event}
                size="sm"
                checked={values.events.includes(event)}
                onCheckedChange={(e) => set('events', toggleEvent(WEBHOOK_EVENTS, values.events, event, e.checked === true))}
                data-testid={`webhook-event-${event}`}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>
                  {eventLabel(t, event)}{' '}
                  <Text as="span" color="fg.muted" fontFamily="mono" textStyle="xs">
                    {event}
                  </Text>
                </Checkbox.Label>
              </Checkbox.Root>
            ))}
          </SimpleGrid>
          {eventsProblem && (
            <Text textStyle="sm" color="fg.error" mt="1.5" data-testid="webhook-events-problem">
              {eventsProblem}
            </Text>
          )}
        </Box>
        <Box>
          <Text textStyle="sm" fontWeight="medium">
            {t('webhooks.secret.title')}
          </Text>
          <Text textStyle="sm" color="fg.muted" data-testid="webhook-secret-state">
            {settings.hasSecret ? t('webhooks.secret.set') : t('webhooks.secret.notYet')}
          </Text>
        </Box>
        <Flex gap="3" wrap="wrap" justify="flex-end">
          {settings.hasSecret && (
            <Button variant="outline" onClick={() => setConfirmingSecret(true)} data-testid="webhook-new-secret">
              <MdVpnKey />
              {t('webhooks.secret.renew')}
            </Button>
          )}
          <Button type="submit" colorPalette="teal" loading={saving.isLoading} data-testid="webhook-save">
            {t('common.save')}
          </Button>
        </Flex>
      </Stack>
      <ConfirmDialog
        open={confirmingSecret}
        title={t('webhooks.secret.confirmTitle')}
        message={t('webhooks.secret.confirmMessage')}
        busy={renewing.isLoading}
        onConfirm={() => void newSecret()}
        onClose={() => setConfirmingSecret(false)}
      />
    </form>
  );
}

function DeliveryLog() {
  const { t, i18n } = useTranslation();
  const [filter, setFilter] = useState<DeliveryFilter>('');
  const log = useWebhookDeliveriesInfiniteQuery(filter, { pollingInterval: DELIVERIES_POLL_MS, refetchOnMountOrArgChange: true });
  const deliveries = log.data?.pages.flatMap((p) => p.deliveries) ?? [];
  const [replay] = useReplayWebhookDeliveryMutation();
  const [replaying, setReplaying] = useState<string | null>(null);

  async function resend(d: WebhookDeliveryDto) {
    setReplaying(d.id);
    try {
      await replay(d.id).unwrap();
      notify.success(t('webhooks.toasts.replayed'));
    } catch (err) {
      notify.error(err);
    } finally {
      setReplaying(null);
    }
  }

  return (
    <Box bg="bg" borderWidth="1px" borderRadius="md" p={{ base: '4', md: '6' }} data-testid="webhook-deliveries">
      <Flex gap="3" mb="4" align="center" wrap="wrap">
        <Heading as="h2" size="md" flex="1">
          {t('webhooks.log.title')}
        </Heading>
        <NativeSelect.Root size="sm" maxW="48">
          <NativeSelect.Field
            aria-label={t('webhooks.log.filter')}
            value={filter}
            onChange={(e) => setFilter(e.target.value as DeliveryFilter)}
            data-testid="webhook-deliveries-filter"
          >
            {FILTERS.map((f) => (
              <option key={f || 'all'} value={f}>
                {f ? t(`webhooks.status.${f}`) : t('webhooks.log.all')}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Button
          size="sm"
          variant="outline"
          onClick={() => void log.refetch()}
          loading={log.isFetching && !log.isFetchingNextPage}
          data-testid="webhook-deliveries-refresh"
        >
          <MdRefresh />
          {t('webhooks.log.refresh')}
        </Button>
      </Flex>
      <Box overflowX="auto">
        <Table.Root size="sm" data-testid="webhook-deliveries-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('webhooks.log.columns.event')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('webhooks.log.columns.createdAt')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('webhooks.log.columns.status')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('webhooks.log.columns.attempts')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('webhooks.log.columns.last')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('webhooks.log.columns.next')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('webhooks.log.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {deliveries.map((d) => (
              <Table.Row key={d.id} data-testid={`webhook-delivery-${d.id}`} data-delivery-id={d.id} data-status={d.status}>
                <Table.Cell>
                  <Text textStyle="sm">{eventLabel(t, d.event)}</Text>
                  <Text textStyle="xs" color="fg.muted" fontFamily="mono">
                    #{d.id}
                    {d.replayOf ? ` · ${t('webhooks.log.replayOf', { id: d.replayOf })}` : ''}
                  </Text>
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{whenText(d.createdAt, i18n.language)}</Table.Cell>
                <Table.Cell>
                  <Badge colorPalette={DELIVERY_STATUS_PALETTE[d.status]} data-testid="webhook-delivery-status">
                    {t(`webhooks.status.${d.status}`)}
                  </Badge>
                </Table.Cell>
                <Table.Cell textAlign="center" data-testid="webhook-delivery-attempts">
                  {d.attempts}
                </Table.Cell>
                <Table.Cell maxW="xs" data-testid="webhook-delivery-last">
                  <Text textStyle="sm" lineClamp={2} title={lastOutcome(d)} color={d.lastError ? 'fg.error' : undefined}>
                    {lastOutcome(d) || '—'}
                  </Text>
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{d.nextAttemptAt ? whenText(d.nextAttemptAt, i18n.language) : '—'}</Table.Cell>
                <Table.Cell textAlign="center">
                  <Button
                    size="xs"
                    variant="outline"
                    onClick={() => void resend(d)}
                    loading={replaying === d.id}
                    data-testid="webhook-delivery-replay"
                  >
                    <MdReplay />
                    {t('webhooks.log.replay')}
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
      <ListFooter query={log} count={deliveries.length} />
      {log.hasNextPage && (
        <HStack justify="center" mt="3">
          <Button
            size="sm"
            variant="outline"
            loading={log.isFetchingNextPage}
            onClick={() => void log.fetchNextPage()}
            data-testid="webhook-deliveries-more"
          >
            {t('webhooks.log.more')}
          </Button>
        </HStack>
      )}
    </Box>
  );
}
